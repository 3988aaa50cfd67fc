import { describe, expect, it } from 'vitest';
import { suiteRunsOf, type ExecutionSummary } from './suite-runs.js';

let seq = 0;
const execution = (
  runId: string,
  status: ExecutionSummary['status'],
  createdAt: string,
  durationMs: number | null,
  overrides: Partial<ExecutionSummary> = {},
): ExecutionSummary => ({
  executionId: `exe_${(seq += 1)}`,
  flowId: `flw_${seq}`,
  flowName: `flow${seq}`,
  status,
  durationMs,
  createdAt,
  endedAt: durationMs === null ? null : new Date(Date.parse(createdAt) + durationMs).toISOString(),
  trigger: { type: 'suite', suiteId: 'ste_a', suiteRunId: runId, startedBy: { type: 'schedule' } },
  ...overrides,
});

describe('suiteRunsOf', () => {
  it("groups a suite's executions by run, newest first, with the run's KPIs", () => {
    const runs = suiteRunsOf('ste_a', 3, [
      execution('run1', 'Completed', '2026-01-01T10:00:00.000Z', 100),
      execution('run1', 'Completed', '2026-01-01T10:00:00.100Z', 300),
      execution('run1', 'Failed', '2026-01-01T10:00:00.200Z', 200),
      execution('run2', 'Completed', '2026-01-02T10:00:00.000Z', 50),
      // Another suite's run, and a run started by hand: not this suite's.
      execution('run3', 'Completed', '2026-01-03T10:00:00.000Z', 10, {
        trigger: { type: 'suite', suiteId: 'ste_b', suiteRunId: 'run3' },
      }),
      execution('run4', 'Completed', '2026-01-03T10:00:00.000Z', 10, { trigger: { type: 'api' } }),
    ]);
    expect(runs.map((run) => run.runId)).toEqual(['run2', 'run1']);
    const [second, first] = runs;
    expect(first).toMatchObject({
      status: 'failed',
      total: 3,
      passed: 2,
      failed: 1,
      skipped: 0,
      passRate: 0.6667,
      startedAt: '2026-01-01T10:00:00.000Z',
      endedAt: '2026-01-01T10:00:00.400Z',
      durationMs: 400,
      latency: { p50: 200, p95: 300 },
      startedBy: 'schedule',
    });
    // Fail-fast stopped after the first flow: the two not started count as skipped.
    expect(second).toMatchObject({ status: 'passed', passed: 1, skipped: 2, passRate: 0.3333 });
  });

  it('shows a run still going as running, without an end', () => {
    const [run] = suiteRunsOf('ste_a', 2, [
      execution('run1', 'Completed', '2026-01-01T10:00:00.000Z', 100),
      execution('run1', 'Running', '2026-01-01T10:00:00.100Z', null),
    ]);
    expect(run).toMatchObject({ status: 'running', running: 1, passed: 1, failed: 0, endedAt: null, durationMs: null });
  });
});
