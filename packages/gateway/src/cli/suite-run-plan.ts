import { isSvcError, locateProblems, SvcError, type ValidationProblem } from '@svc/engine';
import type { LoadedSuiteFile } from './suite-file-loader.js';
import type { SuiteProgress } from './suite-report/suite-progress.js';

/** What `svc run suite` runs, decided before anything is opened: the same in both modes. */
export interface SuiteRunPlan {
  /** A suite file (flows as code), or a saved suite's id or name. */
  source: { kind: 'file'; loaded: LoadedSuiteFile } | { kind: 'saved'; reference: string };
  env: Record<string, string>;
  /** A stored environment; `env` overrides its values key by key. */
  environment?: string;
  failFast: boolean;
  /** Parallel suites: flows running at once. */
  concurrency?: number;
  progress: SuiteProgress;
}

/** The suite definition a suite file saves, once its flows are saved and have ids. */
export function suiteDefinitionOf(loaded: LoadedSuiteFile, flowIds: string[]) {
  return {
    name: loaded.suite.name,
    description: loaded.suite.description,
    mode: loaded.suite.options.mode,
    flowIds,
  };
}

/**
 * A `VALIDATION_ERROR` about a suite file's flow documents (from `upsertAll`, with each problem's
 * `document` index, or from a service saving one of them) as the same error with each problem put
 * in its flow file, at its line: the command prints them as it prints the loader's.
 */
export function inFlowFiles(error: unknown, loaded: LoadedSuiteFile, documentIndex?: number): unknown {
  if (!isSvcError(error) || error.code !== 'VALIDATION_ERROR') return error;
  const problems = (error.details as { problems?: unknown } | undefined)?.problems;
  if (!Array.isArray(problems)) return error;
  const located = (problems as (ValidationProblem & { document?: number })[]).flatMap((problem) => {
    const flow = loaded.flows[problem.document ?? documentIndex ?? -1];
    return flow === undefined ? [] : locateProblems(flow.text, flow.file, [problem]);
  });
  if (located.length !== problems.length) return error;
  return new SvcError('VALIDATION_ERROR', error.message, { details: { problems: located } });
}
