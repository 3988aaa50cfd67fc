import { TERMINAL_STATUSES, type ExecutionStatus } from '../api/types.js';

/** An execution as `GET /api/gateway/executions` lists it (without its steps). */
export interface ExecutionSummary {
  executionId: string;
  flowId: string;
  flowName: string;
  status: ExecutionStatus;
  durationMs: number | null;
  createdAt: string;
  endedAt: string | null;
  trigger: { type: string } & Record<string, unknown>;
}

/** One earlier run of a suite, with the KPIs the suite run answers, read back from its executions. */
export interface SuiteRunSummary {
  runId: string;
  status: 'running' | 'passed' | 'failed';
  total: number;
  passed: number;
  failed: number;
  /** Flows of the suite with no execution in the run (not started under fail-fast). */
  skipped: number;
  running: number;
  passRate: number;
  startedAt: string;
  endedAt: string | null;
  durationMs: number | null;
  latency: { p50: number | null; p95: number | null };
  /** What started it: `api`, `schedule`, `cli`, … (the run's `trigger.startedBy.type`). */
  startedBy: string | null;
}

/** Nearest rank, as the suite run's own KPIs: always one of the samples. */
function percentile(samples: readonly number[], percent: number): number | null {
  if (samples.length === 0) return null;
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.ceil((percent / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1]!;
}

const ratio = (part: number, whole: number) => (whole === 0 ? 0 : Math.round((part / whole) * 10_000) / 10_000);

/**
 * A suite's runs, newest first, from the executions its runs started (each carries
 * `trigger: { type: 'suite', suiteId, suiteRunId }`), whichever door started the run: the page,
 * the API, a schedule or the command line. `flowCount` is the suite's size: flows without an
 * execution in a run count as skipped.
 * @example suiteRunsOf('ste_1', 3, executions)[0].passRate // 0.6667
 */
export function suiteRunsOf(
  suiteId: string,
  flowCount: number,
  executions: readonly ExecutionSummary[],
): SuiteRunSummary[] {
  const byRun = new Map<string, ExecutionSummary[]>();
  for (const execution of executions) {
    const { trigger } = execution;
    if (trigger.type !== 'suite' || trigger.suiteId !== suiteId || typeof trigger.suiteRunId !== 'string') continue;
    const runs = byRun.get(trigger.suiteRunId) ?? [];
    // One execution per flow and run: a flow listed twice in the answer counts once.
    if (!runs.some((seen) => seen.executionId === execution.executionId)) runs.push(execution);
    byRun.set(trigger.suiteRunId, runs);
  }
  const runs = [...byRun].map(([runId, members]): SuiteRunSummary => {
    const running = members.filter((member) => !TERMINAL_STATUSES.has(member.status)).length;
    const passed = members.filter((member) => member.status === 'Completed').length;
    const failed = members.length - passed - running;
    const total = Math.max(flowCount, members.length);
    const startedAt = members.map((member) => member.createdAt).sort()[0]!;
    const ends = members.map((member) => member.endedAt);
    const endedAt = running > 0 || ends.some((end) => end === null) ? null : (ends as string[]).sort().at(-1)!;
    const durations = members
      .map((member) => member.durationMs)
      .filter((duration): duration is number => duration !== null);
    const startedBy = (members[0]!.trigger.startedBy as { type?: unknown } | undefined)?.type;
    return {
      runId,
      status: running > 0 ? 'running' : failed > 0 ? 'failed' : 'passed',
      total,
      passed,
      failed,
      skipped: total - members.length,
      running,
      passRate: ratio(passed, total),
      startedAt,
      endedAt,
      durationMs: endedAt === null ? null : Date.parse(endedAt) - Date.parse(startedAt),
      latency: { p50: percentile(durations, 50), p95: percentile(durations, 95) },
      startedBy: typeof startedBy === 'string' ? startedBy : null,
    };
  });
  return runs.sort((a, b) => (a.startedAt < b.startedAt ? 1 : a.startedAt > b.startedAt ? -1 : 0));
}
