import type { ExecutionView, StepView } from '@svc/engine';

function statusCodeOf(step: StepView): string {
  const response = step.response as { status?: unknown } | null;
  return typeof response?.status === 'number' ? String(response.status) : '';
}

function detailOf(step: StepView): string {
  if (step.error) return `${step.error.code}: ${step.error.message}`;
  if (step.skipKind) return `skipped (${step.skipKind})`;
  if (step.branch) return `branch ${step.branch}`;
  const child = (step.response as { childExecutionId?: unknown } | null)?.childExecutionId;
  if (typeof child === 'string') return `child execution ${child}`;
  const request = step.request as { method?: string; url?: string } | null;
  if (request?.method && request.url) return `${request.method} ${request.url}`;
  if (step.status === 'Waiting' && step.wakeAt) return `until ${step.wakeAt}`;
  return '';
}

function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  return rows
    .map((row) => row.map((cell, column) => (column === row.length - 1 ? cell : cell.padEnd(widths[column]!))).join('  ').trimEnd())
    .join('\n');
}

/** A person's view of an execution: one line per step, then a summary line. */
export function renderTrace(execution: ExecutionView): string {
  const rows = [['#', 'node', 'type', 'status', 'code', 'latency', 'detail']];
  for (const step of execution.steps ?? []) {
    const name = step.scope ? `${step.scope}/${step.nodeName}` : step.nodeName;
    rows.push([
      String(step.seq),
      step.attempt > 1 ? `${name} (attempt ${step.attempt})` : name,
      step.nodeType,
      step.status,
      statusCodeOf(step),
      step.latencyMs === null ? '' : `${Math.round(step.latencyMs)} ms`,
      detailOf(step).slice(0, 120),
    ]);
  }
  const summary =
    `${execution.status} in ${execution.durationMs ?? '?'} ms · ${execution.nodesExecuted} nodes executed · ` +
    `${execution.nodesSkipped} skipped · ${execution.stepsExecuted} steps · execution ${execution.executionId}`;
  const failure = execution.error ? `\n${execution.error.nodeName ?? 'execution'} failed: ${execution.error.code}: ${execution.error.message}` : '';
  return `${execution.flowName}\n${table(rows)}\n${summary}${failure}\n`;
}
