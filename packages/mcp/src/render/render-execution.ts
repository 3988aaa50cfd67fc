import type { ExecutionResult, StepResult } from '../tools/execution-views.js';
import { oneLine, table } from './table.js';

function stepName(step: StepResult): string {
  const name = step.scope ? `${step.scope}/${step.nodeName}` : step.nodeName;
  return step.attempt > 1 ? `${name} (attempt ${step.attempt})` : name;
}

function note(step: StepResult): string {
  if (step.error) return `${step.error.code}: ${oneLine(step.error.message, 160)}`;
  if (step.skipKind) return `skipped (${step.skipKind})`;
  if (step.branch) return `branch ${step.branch}`;
  if (step.childExecutionId) return `child execution ${step.childExecutionId}`;
  if (step.status === 'Waiting' && step.wakeAt) return `until ${step.wakeAt}`;
  if (step.request) return `${step.request.method} ${oneLine(step.request.url, 100)}`;
  return '';
}

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
        stepName(step),
        step.status,
        step.statusCode === null ? '' : String(step.statusCode),
        step.latencyMs === null ? '' : `${Math.round(step.latencyMs)} ms`,
        note(step),
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
