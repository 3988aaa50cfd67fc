import type { ExecutionResult } from '../tools/execution-views.js';
import { stepNote, stepTitle } from '@svc/engine';
import { oneLine, table } from '@svc/engine/text-table';

/** Characters of each step's response body the text shows; the structured result has up to 4,000. */
const MAX_TEXT_BODY_CHARS = 300;

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
  for (const wait of execution.waits ?? []) {
    const where = wait.scope === '' ? wait.nodeName : `${wait.nodeName} [${wait.scope}]`;
    lines.push(
      wait.kind === 'callback'
        ? `waiting at ${where} for a callback: POST JSON to ${wait.callbackUrl}${wait.until ? ` (times out ${wait.until})` : ''}`
        : `waiting at ${where} until ${wait.until}`,
    );
  }
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
  // What a client that forwards only text needs to judge each step: its assertions and (cut) body.
  const details: string[] = [];
  for (const step of execution.steps) {
    for (const assertion of step.assertions ?? []) {
      const expected = assertion.expected === undefined ? '' : ` ${JSON.stringify(assertion.expected)}`;
      details.push(
        `  ${step.nodeName}: assert ${assertion.target} ${assertion.operator}${expected}: ${assertion.passed ? 'passed' : `failed (actual ${oneLine(assertion.actual ?? null, 120)})`}`,
      );
    }
    if (step.response && step.response.body !== undefined && step.response.body !== '') {
      details.push(
        `  ${step.nodeName} response ${step.response.status}: ${oneLine(step.response.body, MAX_TEXT_BODY_CHARS)}`,
      );
    }
  }
  if (details.length > 0) lines.push('', 'details:', ...details);
  if (execution.error) {
    lines.push(
      '',
      `${execution.error.nodeName ?? 'execution'} failed: ${execution.error.code}: ${execution.error.message}`,
    );
    const failing = [...execution.steps]
      .reverse()
      .find((step) => step.status === 'Failed' && step.nodeName === execution.error?.nodeName);
    if (failing?.response && failing.response.body !== undefined) {
      lines.push(`response ${failing.response.status}: ${oneLine(failing.response.body, 500)}`);
    }
  }
  return lines.join('\n');
}
