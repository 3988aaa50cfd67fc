import { printable } from './printable.js';
import type { ReportedFlow, SuiteReport } from './suite-report.js';

const ms = (value: number | null) => (value === null ? '-' : `${Math.round(value)} ms`);

/** `PASS`, `FAIL` or `SKIP`, and the flow's name. */
export function flowMark(flow: Pick<ReportedFlow, 'status'>): string {
  return flow.status === 'passed' ? 'PASS' : flow.status === 'failed' ? 'FAIL' : 'SKIP';
}

/** `at step 3 ReadOrder: GET http://… → 404`: where a failed flow failed, when it got as far as a step. */
export function failedAt(flow: ReportedFlow): string | null {
  const step = flow.failure?.step;
  if (!step) return null;
  const request = step.request ? [step.request.method, step.request.url].filter(Boolean).join(' ') : '';
  const status = step.response?.status;
  const call = request === '' ? '' : `: ${request}${status === null || status === undefined ? '' : ` → ${status}`}`;
  return printable(`at step ${step.seq} ${step.scope ? `${step.scope}/` : ''}${step.nodeName}${call}`, 400);
}

/** One line per flow (a failed one with where it failed), then the KPIs: what a person reads. */
export function renderTextReport(report: SuiteReport): string {
  const lines = [
    `Suite "${printable(report.suiteName)}" (${report.suiteId}, ${report.mode}): ${report.status.toUpperCase()}`,
  ];
  for (const flow of report.flows) {
    const detail = [
      flow.durationMs === null ? null : ms(flow.durationMs),
      flow.executionId,
      flow.error ? printable(`${flow.error.code}: ${flow.error.message}`, 400) : null,
    ].filter((part) => part !== null);
    lines.push(
      `  ${flowMark(flow)}  ${printable(flow.flowName ?? flow.flowId)}${detail.length > 0 ? `  (${detail.join(', ')})` : ''}`,
    );
    const at = failedAt(flow);
    if (at !== null) lines.push(`        ${at}`);
  }
  lines.push(
    `total ${report.total}, passed ${report.passed}, failed ${report.failed}, skipped ${report.skipped}; pass rate ${(report.passRate * 100).toFixed(1)}%; ` +
      `duration ${ms(report.durationMs)}; p50 ${ms(report.latency.p50)}, p95 ${ms(report.latency.p95)}`,
  );
  return `${lines.join('\n')}\n`;
}
