import { mkdir, rename, stat, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { isSvcError, type FileProblem } from '@svc/engine';
import { namesAFile } from './file-or-name.js';
import type { PrefetchedFlowFiles } from './flow-file-prefetch.js';
import { printProblems } from './print-problems.js';
import { resolveApiTarget, type ApiTarget } from './remote/api-target.js';
import { reportFailure } from './report-failure.js';
import { loadSuiteFile } from './suite-file-loader.js';
import { renderJunitReport } from './suite-report/junit-report.js';
import { createSuiteProgress, type SpinnerLike, type SuiteProgress } from './suite-report/suite-progress.js';
import type { SuiteReport } from './suite-report/suite-report.js';
import { renderTextReport } from './suite-report/text-report.js';
import type { SuiteRunPlan } from './suite-run-plan.js';

export type Reporter = 'text' | 'junit' | 'json';

export interface RunSuiteCommandOptions {
  env: Record<string, string>;
  /** A stored environment; `env` overrides its values key by key. Overrides a suite file's. */
  environment?: string;
  /** Overrides a suite file's `failFast` when given. */
  failFast?: boolean;
  /** Parallel suites: flows at once. Overrides a suite file's. */
  concurrency?: number;
  /** Same as `reporter: 'json'`. */
  json: boolean;
  reporter?: Reporter;
  /** Write the report to this file instead of stdout. */
  output?: string;
  /** No progress lines on stderr. */
  quiet?: boolean;
  apiUrl?: string;
}

const RENDERERS: Record<Reporter, (report: SuiteReport) => string> = {
  text: renderTextReport,
  junit: renderJunitReport,
  json: (report) => `${JSON.stringify(report)}\n`,
};

/**
 * A spinner only where a person watches: both streams on a terminal (nanospinner decides by
 * stdout's), not in CI. nanospinner is loaded only then.
 */
async function loadSpinner(): Promise<{ create(text: string): SpinnerLike } | undefined> {
  const terminal =
    process.stderr.isTTY === true &&
    process.stdout.isTTY === true &&
    // nanospinner divides by the width: a terminal that reports none would make it clear lines forever.
    (process.stderr.columns ?? 0) > 0 &&
    !('CI' in process.env) &&
    process.env.TERM !== 'dumb';
  if (!terminal) return undefined;
  // A CommonJS package: as a chunk of the bundle its exports are the default export's.
  const loaded: unknown = await import('nanospinner');
  type Nanospinner = typeof import('nanospinner');
  const { createSpinner } = (loaded as { default?: Nanospinner }).default ?? (loaded as Nanospinner);
  return { create: (text) => createSpinner(text, { stream: process.stderr }) };
}

/** The report file's directory exists (made if missing) and the path is not a directory: checked before the run. */
async function prepareOutput(output: string): Promise<string | undefined> {
  try {
    if ((await stat(output)).isDirectory())
      return `${output} is a directory; give a file name, e.g. ${output}/report.xml`;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') return (error as Error).message;
  }
  try {
    await mkdir(dirname(output), { recursive: true });
  } catch (error) {
    return `cannot make the directory of ${output}: ${(error as Error).message}`;
  }
  return undefined;
}

/** The problems of a `VALIDATION_ERROR` put in their files (`inFlowFiles`), if that is what it is. */
function fileProblemsOf(error: unknown): FileProblem[] | undefined {
  if (!isSvcError(error) || error.code !== 'VALIDATION_ERROR') return undefined;
  const problems = (error.details as { problems?: unknown } | undefined)?.problems;
  return Array.isArray(problems) && problems.every((problem) => typeof (problem as FileProblem).file === 'string')
    ? (problems as FileProblem[])
    : undefined;
}

/** Written beside and renamed into place: a report file is whole or absent, never cut short. */
async function writeReport(output: string, text: string): Promise<void> {
  const partial = `${output}.${process.pid}.partial`;
  await writeFile(partial, text);
  await rename(partial, output);
}

/**
 * `svc run suite <name|id|file.yaml>`: runs a saved suite, or a suite file with its flow files (saved
 * by name first, so a pipeline needs no setup), on the embedded store or on a running `svc serve`
 * (`--api-url`, `SVC_API_URL`). Progress goes to stderr (a line per flow as it ends; a spinner on a
 * terminal); the report (`text`, `junit` or `json`) to stdout or `--output`. Exit codes: 0 every
 * flow passed; 1 a flow failed or was skipped, the suite is not found, or the service cannot be
 * reached; 2 bad arguments, a suite file that does not validate (every problem printed with its
 * file and line), or a report that cannot be written.
 */
export async function runSuiteCommand(
  reference: string,
  options: RunSuiteCommandOptions,
  prefetched?: Promise<PrefetchedFlowFiles>,
): Promise<number> {
  if (options.json && options.reporter !== undefined && options.reporter !== 'json') {
    process.stderr.write(
      `svc: --json asks for the json report and --reporter for the ${options.reporter} one; give one\n`,
    );
    return 2;
  }
  const reporter: Reporter = options.reporter ?? (options.json ? 'json' : 'text');
  let target: ApiTarget | undefined;
  try {
    target = resolveApiTarget(options.apiUrl, (line) => process.stderr.write(line));
  } catch (error) {
    return reportFailure(error);
  }
  if (options.output !== undefined) {
    const problem = await prepareOutput(options.output);
    if (problem !== undefined) {
      process.stderr.write(`svc: --output: ${problem}\n`);
      return 2;
    }
  }

  let source: SuiteRunPlan['source'];
  let fileOptions: { failFast?: boolean; environment?: string; concurrency?: number } = {};
  if (namesAFile(reference)) {
    // On the embedded store, saving the flows validates them (each once, none saved unless all
    // are valid); a service is sent only flows that validated here.
    const { loaded, problems } = await loadSuiteFile(reference, {
      validateFlows: target !== undefined,
      ...(prefetched === undefined ? {} : { prefetched: await prefetched }),
    });
    if (loaded === undefined) {
      printProblems(reference, problems);
      return 2;
    }
    source = { kind: 'file', loaded };
    fileOptions = loaded.suite.options;
  } else {
    source = { kind: 'saved', reference };
  }

  const spinner = options.quiet ? undefined : await loadSpinner();
  const progress: SuiteProgress = options.quiet
    ? { started() {}, flowEnded() {}, finished() {} }
    : createSuiteProgress({
        write: (text) => process.stderr.write(text),
        ...(spinner === undefined ? {} : { spinner }),
      });
  const environment = options.environment ?? fileOptions.environment;
  const concurrency = options.concurrency ?? fileOptions.concurrency;
  const plan: SuiteRunPlan = {
    source,
    env: options.env,
    ...(environment === undefined ? {} : { environment }),
    failFast: options.failFast ?? fileOptions.failFast ?? false,
    ...(concurrency === undefined ? {} : { concurrency }),
    progress,
  };

  let report: SuiteReport;
  try {
    report =
      target === undefined
        ? await (await import('./run-suite-local.js')).runSuiteLocal(plan)
        : await (await import('./remote/run-suite-remote.js')).runSuiteRemote(target, plan);
  } catch (error) {
    const problems = fileProblemsOf(error);
    if (problems === undefined) return reportFailure(error);
    printProblems(reference, problems);
    return 2;
  } finally {
    progress.finished();
  }

  const text = RENDERERS[reporter](report);
  if (options.output === undefined) {
    process.stdout.write(text);
  } else {
    try {
      await writeReport(options.output, text);
    } catch (error) {
      process.stderr.write(`svc: cannot write the report to ${options.output}: ${(error as Error).message}\n`);
      return 2;
    }
  }
  if (!options.quiet && (reporter !== 'text' || options.output !== undefined)) {
    const where = options.output === undefined ? '' : `; ${reporter} report in ${options.output}`;
    process.stderr.write(
      `${report.status === 'passed' && report.skipped === 0 ? 'passed' : 'FAILED'}: ${report.passed} passed, ${report.failed} failed, ` +
        `${report.skipped} skipped of ${report.total} in ${(report.durationMs / 1000).toFixed(2)} s${where}\n`,
    );
  }
  return report.status === 'passed' && report.skipped === 0 ? 0 : 1;
}
