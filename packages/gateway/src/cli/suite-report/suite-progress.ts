import type { SuiteFlowResult } from '@svc/engine';
import { printable } from './printable.js';

/** What a suite run tells of itself while it goes on. */
export interface SuiteProgress {
  /** The run started (the suite is known, and how many flows it has). */
  started(suite: { name: string; total: number; ranOn: string }): void;
  /** A flow ended: one line, at once. */
  flowEnded(result: SuiteFlowResult): void;
  /** The run ended (or failed): the spinner goes; the flows that never started are counted. */
  finished(summary?: { skipped: number }): void;
}

export interface SuiteProgressOptions {
  write(text: string): void;
  /** Animate a spinner line below the flow lines (only on a terminal). */
  spinner?: { create(text: string): SpinnerLike };
}

/** The part of nanospinner's spinner used here. */
export interface SpinnerLike {
  start(): unknown;
  update(options: { text: string }): unknown;
  clear(): unknown;
  render(): unknown;
  stop(): unknown;
}

const ms = (value: number | null) => (value === null ? '' : `  ${Math.round(value)} ms`);

/**
 * Progress on stderr: `[  3/200] PASS  chain-3  41 ms`, a line per flow as it ends, so a CI log
 * shows where a long suite is and which flow failed before the report is written. On a terminal a
 * spinner below the lines says how far the run is.
 */
export function createSuiteProgress(options: SuiteProgressOptions): SuiteProgress {
  let total = 0;
  let ended = 0;
  let failed = 0;
  let name = '';
  let spinner: SpinnerLike | undefined;
  const status = () =>
    `suite "${printable(name)}": ${ended}/${total} flows ended${failed > 0 ? `, ${failed} failed` : ''}`;
  return {
    started(suite) {
      total = suite.total;
      name = suite.name;
      options.write(`running suite "${printable(suite.name)}" (${suite.total} flows) on ${suite.ranOn}\n`);
      spinner = options.spinner?.create(status());
      spinner?.start();
    },
    flowEnded(result) {
      ended += 1;
      if (result.status === 'failed') failed += 1;
      const mark = result.status === 'passed' ? 'PASS' : result.status === 'failed' ? 'FAIL' : 'SKIP';
      const error = result.error ? `  ${printable(`${result.error.code}: ${result.error.message}`, 200)}` : '';
      const counter = `[${String(ended).padStart(String(total).length)}/${total}]`;
      spinner?.clear();
      options.write(
        `${counter} ${mark}  ${printable(result.flowName ?? result.flowId)}${ms(result.durationMs)}${error}\n`,
      );
      if (spinner) {
        spinner.update({ text: status() });
        spinner.render();
      }
    },
    finished(summary) {
      spinner?.stop();
      spinner = undefined;
      if (summary !== undefined && summary.skipped > 0)
        options.write(
          `${summary.skipped} flow${summary.skipped === 1 ? '' : 's'} not run after the first failure (fail-fast)\n`,
        );
    },
  };
}
