import { dirname, resolve } from 'node:path';
import {
  createNodeRegistry,
  lineInMessage,
  locateProblems,
  MAX_SUITE_FILE_BYTES,
  parseSuiteFile,
  validateFlow,
  type FileProblem,
  type SuiteFile,
} from '@svc/engine';
import { readBoundedFile, unreadableReason } from '@svc/engine/bounded-file';
import type { PrefetchedFlowFiles } from './flow-file-prefetch.js';
import { readFlowFile, shownPath } from './flow-file-reads.js';

/** A flow file a suite file lists, read and validated. */
export interface SuiteFlowFile {
  /** As printed and reported: relative to the working directory (CI logs link it to the repository). */
  file: string;
  name: string;
  document: unknown;
  /** The file's text, to put a line to a problem the store or a service finds in it later. */
  text: string;
}

/** A suite file with every flow file it lists, all of them valid. */
export interface LoadedSuiteFile {
  file: string;
  suite: SuiteFile;
  flows: SuiteFlowFile[];
}

/**
 * Reads a suite file and every flow file it lists, and validates all of it before anything is
 * saved or run: every problem of the suite file and of each flow file, each with its file, line and
 * path. A flow file listed twice, or two files defining flows of the same name (each would replace
 * the other in the store, since flow files are saved by name), are problems too. With
 * `validateFlows: false` the flow documents are read but not validated: the caller saves them
 * with `engine.flows.upsertAll`, which validates each once and saves none when one fails.
 * `prefetched` holds flow files already read (by `prefetchFlowFiles`); the others are read here.
 */
export async function loadSuiteFile(
  file: string,
  options: { validateFlows?: boolean; prefetched?: PrefetchedFlowFiles } = {},
): Promise<{ loaded: LoadedSuiteFile; problems: [] } | { loaded: undefined; problems: FileProblem[] }> {
  let text: string;
  try {
    text = readBoundedFile(file, MAX_SUITE_FILE_BYTES);
  } catch (error) {
    return {
      loaded: undefined,
      problems: [
        { file, line: null, path: '', code: 'FILE_UNREADABLE', message: `cannot read it: ${unreadableReason(error)}` },
      ],
    };
  }
  const parsed = parseSuiteFile(text, file);
  if (parsed.suite === undefined) return { loaded: undefined, problems: parsed.problems };
  const suite = parsed.suite;

  const at = locateProblems.bind(null, text, file);
  const base = dirname(resolve(file));
  // Each entry's problems, kept in the suite file's order whatever finds them.
  const entries: { problems: FileProblem[]; flow?: SuiteFlowFile }[] = [];
  const byPath = new Map<string, number>();
  suite.flows.forEach((entry, index) => {
    const path = `flows[${index}]`;
    const absolute = resolve(base, entry);
    const shown = shownPath(absolute);
    const first = byPath.get(absolute);
    if (first !== undefined) {
      entries.push({
        problems: at([{ code: 'DUPLICATE_FLOW', path, message: `${entry} is listed at flows[${first}] too` }]),
      });
      return;
    }
    byPath.set(absolute, index);
    const read = options.prefetched?.get(absolute) ?? readFlowFile(absolute);
    if (read.text === undefined) {
      entries.push({
        problems: at([{ code: 'FILE_UNREADABLE', path, message: `cannot read ${shown}: ${read.unreadable}` }]),
      });
      return;
    }
    if (read.parseError !== undefined) {
      const { code, message: full } = read.parseError;
      const message = full.startsWith(`${shown}: `) ? full.slice(shown.length + 2) : full;
      entries.push({ problems: [{ file: shown, line: lineInMessage(message), path: '', code, message }] });
      return;
    }
    const name = (read.document as { name?: unknown } | null)?.name;
    entries.push({
      problems: [],
      flow: { file: shown, name: typeof name === 'string' ? name : '', document: read.document, text: read.text },
    });
  });
  // Validated here when asked, and whenever something else is wrong: every problem is answered at once.
  if (options.validateFlows !== false || entries.some((entry) => entry.problems.length > 0)) {
    const registry = createNodeRegistry();
    for (const entry of entries) {
      if (entry.flow === undefined) continue;
      const validation = validateFlow(entry.flow.document, registry);
      if (validation.ok) entry.flow.name = validation.flow.name;
      else entry.problems.push(...locateProblems(entry.flow.text, entry.flow.file, validation.problems));
    }
  }
  const byName = new Map<string, string>();
  for (const entry of entries) {
    const flow = entry.flow;
    if (flow === undefined || entry.problems.length > 0 || flow.name === '') continue;
    const holder = byName.get(flow.name);
    if (holder === undefined) byName.set(flow.name, flow.file);
    else
      entry.problems.push(
        ...locateProblems(flow.text, flow.file, [
          { code: 'DUPLICATE_FLOW_NAME', path: 'name', message: `${holder} defines a flow named "${flow.name}" too` },
        ]),
      );
  }
  const problems = entries.flatMap((entry) => entry.problems);
  if (problems.length > 0) return { loaded: undefined, problems };
  const flows = entries.map((entry) => entry.flow!);
  return { loaded: { file, suite, flows }, problems: [] };
}
