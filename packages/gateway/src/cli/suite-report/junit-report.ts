import type { ReportedFlow, SuiteReport } from './suite-report.js';
import { xmlAttribute, xmlText } from './xml-text.js';

/** A failure's `message` attribute is one line that CI servers show in their lists; the whole story is in its text. */
const MESSAGE_CHARS = 500;

const seconds = (ms: number | null) => ((ms ?? 0) / 1000).toFixed(3);

/** `2026-11-25T10:27:19`: JUnit's timestamp is an xs:dateTime without a zone (this one is UTC). */
const junitTimestamp = (iso: string) => iso.slice(0, 19);

function oneLine(text: string, max: number): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length <= max ? line : `${line.slice(0, max)}…`;
}

/** The failure's text: the failing step, its error, and what it sent and received. */
function failureText(flow: ReportedFlow): string {
  const failure = flow.failure!;
  const lines: string[] = [];
  const step = failure.step;
  if (step !== null) {
    const name = step.scope ? `${step.scope}/${step.nodeName}` : step.nodeName;
    const attempt = step.attempt > 1 ? `, attempt ${step.attempt}` : '';
    lines.push(`step ${step.seq} ${name} (${step.nodeType}${attempt}) failed`);
  }
  lines.push(`error: ${failure.error.code}: ${failure.error.message}`);
  if (step?.request) {
    lines.push('', `request: ${[step.request.method, step.request.url].filter(Boolean).join(' ') || '(none)'}`);
    if (step.request.headers) lines.push(`  headers: ${step.request.headers}`);
    if (step.request.body) lines.push(`  body: ${step.request.body}`);
  }
  if (step?.response) {
    const latency = step.latencyMs === null ? '' : ` in ${Math.round(step.latencyMs)} ms`;
    lines.push('', `response: ${step.response.status ?? '(no status)'}${latency}`);
    if (step.response.headers) lines.push(`  headers: ${step.response.headers}`);
    if (step.response.body) lines.push(`  body: ${step.response.body}`);
  }
  if (flow.executionId !== null)
    lines.push('', `execution ${flow.executionId} (svc executions get ${flow.executionId})`);
  return lines.join('\n');
}

function testcase(flow: ReportedFlow, classname: string): string {
  const attributes = [
    `name="${xmlAttribute(flow.flowName ?? flow.flowId)}"`,
    `classname="${xmlAttribute(classname)}"`,
    `time="${seconds(flow.durationMs)}"`,
    ...(flow.file === null ? [] : [`file="${xmlAttribute(flow.file)}"`]),
  ].join(' ');
  if (flow.status === 'passed') return `    <testcase ${attributes}/>`;
  if (flow.status === 'skipped')
    return `    <testcase ${attributes}>\n      <skipped message="not run: an earlier flow failed and the run stops at the first failure (fail-fast)"/>\n    </testcase>`;
  const failure = flow.failure ?? { error: flow.error ?? { code: 'FLOW_FAILED', message: 'failed' }, step: null };
  const at = failure.step === null ? '' : `${failure.step.nodeName}: `;
  const message = oneLine(`${at}${failure.error.code}: ${failure.error.message}`, MESSAGE_CHARS);
  return (
    `    <testcase ${attributes}>\n` +
    `      <failure message="${xmlAttribute(message)}" type="${xmlAttribute(failure.error.code)}">` +
    `${xmlText(failureText({ ...flow, failure }))}</failure>\n` +
    `    </testcase>`
  );
}

/**
 * The run as JUnit XML, the report GitHub Actions, GitLab and Jenkins read: one `<testsuite>` (the
 * suite) in `<testsuites>`, one `<testcase>` per flow with its duration in seconds, a failed flow's
 * `<failure>` naming the failing step, its error and an excerpt of its request and response, a flow
 * not run `<skipped/>`. Everything that comes from a flow or an API is escaped, and characters XML
 * cannot hold are written out, so no response can break the file.
 */
export function renderJunitReport(report: SuiteReport): string {
  const counts = `tests="${report.total}" failures="${report.failed}" errors="0" skipped="${report.skipped}"`;
  const time = `time="${seconds(report.durationMs)}"`;
  const properties = [
    ['svc.suiteId', report.suiteId],
    ['svc.runId', report.runId],
    ['svc.mode', report.mode],
    ['svc.ranOn', report.ranOn],
    ['svc.passRate', String(report.passRate)],
    ['svc.latencyP50Ms', report.latency.p50 === null ? '' : String(report.latency.p50)],
    ['svc.latencyP95Ms', report.latency.p95 === null ? '' : String(report.latency.p95)],
    ...(report.suiteFile === null ? [] : [['svc.suiteFile', report.suiteFile]]),
  ]
    .map(([name, value]) => `      <property name="${xmlAttribute(name!)}" value="${xmlAttribute(value!)}"/>`)
    .join('\n');
  const name = xmlAttribute(report.suiteName);
  return (
    '<?xml version="1.0" encoding="UTF-8"?>\n' +
    `<testsuites name="${name}" ${counts} ${time}>\n` +
    `  <testsuite name="${name}" ${counts} ${time} timestamp="${junitTimestamp(report.startedAt)}">\n` +
    `    <properties>\n${properties}\n    </properties>\n` +
    report.flows.map((flow) => `${testcase(flow, report.suiteName)}\n`).join('') +
    '  </testsuite>\n' +
    '</testsuites>\n'
  );
}
