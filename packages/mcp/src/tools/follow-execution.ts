import { TERMINAL_STATUSES, type ExecutionView, type StepView } from '@svc/engine';
import type { SvcApi } from '../api/svc-api.js';
import type { ReportProgress } from './progress.js';

/** How often a followed run is read again while progress is being reported. */
const PROGRESS_SLICE_MS = 250;
/** The least time between two reads of a run, for a gateway that answers a wait at once. */
const MIN_READ_INTERVAL_MS = 100;

export interface FollowOptions {
  /** The bound of the whole call: past it, the execution is answered as it is and goes on. */
  waitMs: number;
  /** The tool call's cancellation: it cancels the execution. */
  signal?: AbortSignal;
  progress?: ReportProgress;
}

const finished = (step: StepView) => step.status !== 'Waiting';

function stepLine(step: StepView): string {
  const response = step.response as { status?: unknown } | null | undefined;
  const code = typeof response?.status === 'number' ? ` ${response.status}` : '';
  const latency = typeof step.latencyMs === 'number' ? ` in ${Math.round(step.latencyMs)} ms` : '';
  const scope = step.scope ? ` [${step.scope}]` : '';
  return `${step.nodeName}${scope} ${step.status}${code}${latency}${step.error ? `: ${step.error.code}` : ''}`;
}

/**
 * Follows a started execution until it ends, the wait passes, or the call is cancelled (which
 * cancels the execution), reporting each finished step as progress. Always answers the
 * execution, so the caller has its id whatever happened.
 */
export async function followExecution(
  api: SvcApi,
  started: ExecutionView,
  options: FollowOptions,
): Promise<ExecutionView> {
  const deadline = Date.now() + options.waitMs;
  const { progress, signal } = options;
  progress?.(0, `execution ${started.executionId} started (flow ${started.flowName})`);
  let cancelled: Promise<unknown> | undefined;
  const cancel = () => {
    cancelled ??= api.cancelExecution(started.executionId).catch(() => undefined);
  };
  signal?.addEventListener('abort', cancel, { once: true });
  if (signal?.aborted) cancel();
  let reported = 0;
  let view = started;
  try {
    for (;;) {
      const left = deadline - Date.now();
      const slice = progress === undefined ? Math.max(0, left) : Math.max(0, Math.min(left, PROGRESS_SLICE_MS));
      const readAt = Date.now();
      view = await api.waitForExecution(started.executionId, slice);
      const done = (view.steps ?? []).filter(finished);
      for (const step of done.slice(reported)) {
        reported += 1;
        progress?.(reported, stepLine(step));
      }
      if (TERMINAL_STATUSES.has(view.status) || Date.now() >= deadline) break;
      if (cancelled) {
        await cancelled;
        continue;
      }
      const pause = MIN_READ_INTERVAL_MS - (Date.now() - readAt);
      if (pause > 0) await new Promise((resolve) => setTimeout(resolve, pause));
    }
  } finally {
    signal?.removeEventListener('abort', cancel);
  }
  return view;
}
