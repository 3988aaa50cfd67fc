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
