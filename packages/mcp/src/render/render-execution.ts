import type { ExecutionResult } from '../tools/execution-views.js';
import { stepNote, stepTitle } from '@svc/engine';
import { oneLine, table } from '@svc/engine/text-table';

/**
 * An execution for a person: a summary line, then one row per step (name, status, status code,
 * latency), then what failed and the failing response.
 */
export function renderExecution(execution: ExecutionResult): string {
  const lines = [
    `${execution.flowName}: ${execution.status}${execution.durationMs === null ? '' : ` in ${execution.durationMs} ms`} · ` +
      `${execution.nodesExecuted} nodes executed · ${execution.nodesSkipped} skipped · ${execution.stepsExecuted} steps`,
    `execution ${execution.executionId} (flow ${execution.flowId} v${execution.flowVersion})`,
  ];
  if (execution.steps.length > 0) {
    const rows = [['#', 'step', 'status', 'code', 'latency', 'note']];
    for (const step of execution.steps) {
      rows.push([
        String(step.seq),
        stepTitle(step),
        step.status,
        step.statusCode === null ? '' : String(step.statusCode),
        step.latencyMs === null ? '' : `${Math.round(step.latencyMs)} ms`,
        stepNote(step),
      ]);
    }
    lines.push('', table(rows));
  }
  if (execution.error) {
    lines.push('', `${execution.error.nodeName ?? 'execution'} failed: ${execution.error.code}: ${execution.error.message}`);
    const failing = [...execution.steps].reverse().find((step) => step.status === 'Failed' && step.nodeName === execution.error?.nodeName);
    if (failing?.response && failing.response.body !== undefined) {
      lines.push(`response ${failing.response.status}: ${oneLine(failing.response.body, 500)}`);
    }
  }
  return lines.join('\n');
}
