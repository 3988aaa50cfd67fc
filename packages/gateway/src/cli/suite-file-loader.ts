import { open } from 'node:fs/promises';
import { dirname, isAbsolute, relative, resolve } from 'node:path';
import {
  createNodeRegistry,
  isSvcError,
  locateProblems,
  MAX_FLOW_FILE_BYTES,
  MAX_SUITE_FILE_BYTES,
  parseFlowText,
  parseSuiteFile,
  validateFlow,
  type FileProblem,
  type SuiteFile,
} from '@svc/engine';

/** A flow file a suite file lists, read and validated. */
export interface SuiteFlowFile {
  /** As printed and reported: relative to the working directory (CI logs link it to the repository). */
  file: string;
  name: string;
  document: unknown;
}

/** A suite file with every flow file it lists, all of them valid. */
export interface LoadedSuiteFile {
  file: string;
  suite: SuiteFile;
  flows: SuiteFlowFile[];
}

/**
 * A file's text, read only when it is a regular file no larger than `maxBytes`: a FIFO or a device
 * would block or never end, and a huge file would fill memory before anything said why.
 */
async function readBounded(path: string, maxBytes: number): Promise<string> {
  const handle = await open(path, 'r');
  try {
    const stat = await handle.stat();
    if (!stat.isFile()) throw new Error('not a regular file');
    if (stat.size > maxBytes) throw new Error(`${stat.size} bytes, more than the ${maxBytes} a file may have`);
    return await handle.readFile('utf8');
  } finally {
    await handle.close();
  }
}

const reason = (error: unknown) =>
  (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (error as Error).message;

/**
 * Reads a suite file and every flow file it lists, and validates all of it before anything is
 * saved or run: every problem of the suite file and of each flow file, each with its file, line and
 * path. A flow file listed twice, or two files defining flows of the same name (each would replace
 * the other in the store, since flow files are saved by name), are problems too.
 */
export async function loadSuiteFile(
  file: string,
): Promise<{ loaded: LoadedSuiteFile; problems: [] } | { loaded: undefined; problems: FileProblem[] }> {
  let text: string;
  try {
    text = await readBounded(file, MAX_SUITE_FILE_BYTES);
  } catch (error) {
    return {
      loaded: undefined,
      problems: [{ file, line: null, path: '', code: 'FILE_UNREADABLE', message: `cannot read it: ${reason(error)}` }],
    };
  }
  const parsed = parseSuiteFile(text, file);
  if (parsed.suite === undefined) return { loaded: undefined, problems: parsed.problems };
  const suite = parsed.suite;

  const problems: FileProblem[] = [];
  const at = locateProblems.bind(null, text, file);
  const registry = createNodeRegistry();
  const base = dirname(resolve(file));
  const byPath = new Map<string, number>();
  const byName = new Map<string, string>();
  const flows: SuiteFlowFile[] = [];
  const read = await Promise.all(
    suite.flows.map(async (entry) => {
      const absolute = resolve(base, entry);
      try {
        return { absolute, text: await readBounded(absolute, MAX_FLOW_FILE_BYTES) };
      } catch (error) {
        return { absolute, error: reason(error) };
      }
    }),
  );
  suite.flows.forEach((entry, index) => {
    const path = `flows[${index}]`;
    const { absolute } = read[index]!;
    const fromHere = relative(process.cwd(), absolute);
    const shown = fromHere === '' || fromHere.startsWith('..') || isAbsolute(fromHere) ? absolute : fromHere;
    const first = byPath.get(absolute);
    if (first !== undefined) {
      problems.push(...at([{ code: 'DUPLICATE_FLOW', path, message: `${entry} is listed at flows[${first}] too` }]));
      return;
    }
    byPath.set(absolute, index);
    const flowText = read[index]!.text;
    if (flowText === undefined) {
      problems.push(...at([{ code: 'FILE_UNREADABLE', path, message: `cannot read ${shown}: ${read[index]!.error}` }]));
      return;
    }
    let document: unknown;
    try {
      document = parseFlowText(flowText, shown);
    } catch (error) {
      if (!isSvcError(error)) throw error;
      const message = error.message.startsWith(`${shown}: `) ? error.message.slice(shown.length + 2) : error.message;
      const line = /\bline (\d+)/.exec(message);
      problems.push({ file: shown, line: line ? Number(line[1]) : null, path: '', code: error.code, message });
      return;
    }
    const validation = validateFlow(document, registry);
    if (!validation.ok) {
      problems.push(...locateProblems(flowText, shown, validation.problems));
      return;
    }
    const name = validation.flow.name;
    const holder = byName.get(name);
    if (holder !== undefined) {
      problems.push(
        ...locateProblems(flowText, shown, [
          { code: 'DUPLICATE_FLOW_NAME', path: 'name', message: `${holder} defines a flow named "${name}" too` },
        ]),
      );
      return;
    }
    byName.set(name, shown);
    flows.push({ file: shown, name, document });
  });
  if (problems.length > 0) return { loaded: undefined, problems };
  return { loaded: { file, suite, flows }, problems: [] };
}
