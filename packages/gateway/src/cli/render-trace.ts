import { stepNote, stepTitle, type ExecutionView, type StepView } from '@svc/engine';
import { table } from '@svc/engine/text-table';

function statusCodeOf(step: StepView): string {
  const response = step.response as { status?: unknown } | null;
  return typeof response?.status === 'number' ? String(response.status) : '';
}

/** A person's view of an execution: one line per step, then a summary line. */
export function renderTrace(execution: ExecutionView): string {
  const rows = [['#', 'node', 'type', 'status', 'code', 'latency', 'detail']];
  for (const step of execution.steps ?? []) {
    rows.push([
      String(step.seq),
      stepTitle(step),
      step.nodeType,
      step.status,
      statusCodeOf(step),
      step.latencyMs === null ? '' : `${Math.round(step.latencyMs)} ms`,
      stepNote(step, { message: 120, url: 120 }).slice(0, 120),
    ]);
  }
  const summary =
    `${execution.status} in ${execution.durationMs ?? '?'} ms · ${execution.nodesExecuted} nodes executed · ` +
    `${execution.nodesSkipped} skipped · ${execution.stepsExecuted} steps · execution ${execution.executionId}`;
  const failure = execution.error
    ? `\n${execution.error.nodeName ?? 'execution'} failed: ${execution.error.code}: ${execution.error.message}`
    : '';
  return `${execution.flowName}\n${table(rows)}\n${summary}${failure}\n`;
}
