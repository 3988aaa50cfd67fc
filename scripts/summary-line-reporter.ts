import type { Reporter, RunnerTask, RunnerTestFile } from 'vitest/node';

function count(tasks: RunnerTask[], totals: { passed: number; failed: number; skipped: number }): void {
  for (const task of tasks) {
    if (task.type === 'suite') {
      count(task.tasks, totals);
      if (task.result?.state === 'fail' && task.tasks.length === 0) totals.failed += 1;
      continue;
    }
    const state = task.result?.state;
    if (state === 'pass') totals.passed += 1;
    else if (state === 'fail') totals.failed += 1;
    else totals.skipped += 1;
  }
}

/** Ends a run with one plain line, `N passed, N failed, N skipped`, that any CI can read. */
export default class SummaryLineReporter implements Reporter {
  onFinished(files: RunnerTestFile[] = [], errors: unknown[] = []): void {
    const totals = { passed: 0, failed: 0, skipped: 0 };
    for (const file of files) {
      count(file.tasks, totals);
      // A file that failed to load counts as a failure even though it holds no tests.
      if (file.result?.state === 'fail' && file.tasks.length === 0) totals.failed += 1;
    }
    totals.failed += errors.length;
    process.stdout.write(`\n${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped\n`);
  }
}
