import type { ExecutionView, SuiteRunResult } from '@svc/engine';
import { describe, expect, it } from 'vitest';
import { findAll, parseXml } from '../../../test/xml-tree.js';
import { renderJunitReport } from './junit-report.js';
import { buildSuiteReport } from './suite-report.js';

const HOSTILE = `]]></failure></testcase><testcase name="forged">\u0000\u001b[2J\ud800 & "quotes"`;

function run(): SuiteRunResult {
  const flow = { executionStatus: null, executionId: null, durationMs: null, error: null };
  return {
    runId: 'run-1',
    suiteId: 'ste_1',
    suiteName: `gate <${HOSTILE}>`,
    mode: 'sequential',
    status: 'failed',
    total: 3,
    passed: 1,
    failed: 1,
    skipped: 1,
    passRate: 1 / 3,
    durationMs: 1534.6,
    latency: { p50: 20, p95: 1500 },
    startedAt: '2026-11-25T10:27:19.902Z',
    endedAt: '2026-11-25T10:27:21.436Z',
    failFast: true,
    flows: [
      { ...flow, flowId: 'flw_a', flowName: 'health', status: 'passed', executionId: 'ex-a', durationMs: 20 },
      {
        ...flow,
        flowId: 'flw_b',
        flowName: `orders ${HOSTILE}`,
        status: 'failed',
        executionId: 'ex-b',
        durationMs: 1500,
        error: { code: 'ASSERTION_FAILED', message: `body.status == "OK" (got ${JSON.stringify(HOSTILE)})` },
      },
      { ...flow, flowId: 'flw_c', flowName: 'after', status: 'skipped' },
    ],
  };
}

/** The trace of the failed flow: a retried step whose last attempt failed, answering hostile text. */
function trace(): ExecutionView {
  const step = {
    stepId: 's',
    nodeId: 'n2',
    nodeName: 'ReadOrder',
    nodeType: 'endpoint',
    scope: '',
    status: 'Failed' as const,
    startedAt: '',
    endedAt: '',
    latencyMs: 12.4,
    output: null,
    skipKind: null,
    branch: null,
    wakeAt: null,
    request: { method: 'GET', url: 'http://api.test/orders/1', headers: { authorization: '***' } },
  };
  return {
    executionId: 'ex-b',
    status: 'Failed',
    error: { code: 'ASSERTION_FAILED', message: 'x', nodeName: 'ReadOrder' },
    steps: [
      {
        ...step,
        seq: 1,
        nodeName: 'CreateOrder',
        nodeId: 'n1',
        status: 'Completed',
        attempt: 1,
        response: null,
        error: null,
      },
      { ...step, seq: 2, attempt: 1, response: { status: 503 }, error: { code: 'HTTP_ERROR', message: 'first try' } },
      {
        ...step,
        seq: 3,
        attempt: 2,
        response: { status: 200, headers: { 'content-type': 'text/plain' }, body: `${HOSTILE}${'x'.repeat(5000)}` },
        error: { code: 'ASSERTION_FAILED', message: `body.status == "OK" (got ${JSON.stringify(HOSTILE)})` },
      },
    ],
  } as unknown as ExecutionView;
}

describe('renderJunitReport', () => {
  it('writes one testsuite with a testcase per flow, which a strict XML parser reads whatever the flows answered', async () => {
    const report = await buildSuiteReport(run(), {
      ranOn: 'the embedded store',
      suiteFile: 'ci/gate.yaml',
      files: ['flows/health.yaml', 'flows/orders.yaml', 'flows/after.yaml'],
      readExecution: async () => trace(),
    });
    const xml = renderJunitReport(report);
    const root = parseXml(xml);
    expect(root.name).toBe('testsuites');
    const suites = findAll(root, 'testsuite');
    expect(suites).toHaveLength(1);
    expect(suites[0]!.attributes).toMatchObject({
      tests: '3',
      failures: '1',
      errors: '0',
      skipped: '1',
      time: '1.535',
      timestamp: '2026-11-25T10:27:19',
    });
    // The hostile text is the suite's name, whole, not markup.
    expect(suites[0]!.attributes.name).toContain('</failure></testcase><testcase name="forged">');
    const cases = findAll(root, 'testcase');
    expect(cases.map((testcase) => testcase.attributes.file)).toEqual([
      'flows/health.yaml',
      'flows/orders.yaml',
      'flows/after.yaml',
    ]);
    expect(cases.map((testcase) => testcase.attributes.time)).toEqual(['0.020', '1.500', '0.000']);
    expect(cases[0]!.children).toEqual([]);
    expect(cases[2]!.children.map((child) => child.name)).toEqual(['skipped']);

    const [failure] = findAll(cases[1]!, 'failure');
    expect(failure!.attributes.type).toBe('ASSERTION_FAILED');
    expect(failure!.attributes.message).toMatch(/^ReadOrder: ASSERTION_FAILED: body\.status == "OK"/);
    expect(failure!.text).toContain('step 3 ReadOrder (endpoint, attempt 2) failed');
    expect(failure!.text).toContain('request: GET http://api.test/orders/1');
    expect(failure!.text).toContain('"authorization":"***"');
    expect(failure!.text).toContain('response: 200 in 12 ms');
    // The body is quoted as text: its control characters written out, cut to an excerpt.
    expect(failure!.text).toContain('body: ]]></failure></testcase><testcase name="forged">\\u0000\\u001b[2J\\ud800');
    expect(failure!.text).toMatch(/x… \(\d+ more characters\)/);
    expect(failure!.text.length).toBeLessThan(4000);
    expect(failure!.text).toContain('execution ex-b');
  });

  it('reports a failed flow whose trace cannot be read with its error alone', async () => {
    const report = await buildSuiteReport(run(), {
      ranOn: 'https://svc.example.com',
      readExecution: async () => {
        throw new Error('INSUFFICIENT_SCOPE');
      },
    });
    const [failure] = findAll(parseXml(renderJunitReport(report)), 'failure');
    expect(failure!.attributes.message).toMatch(/^ASSERTION_FAILED: /);
    expect(failure!.text).not.toContain('request:');
    expect(findAll(parseXml(renderJunitReport(report)), 'testcase')[0]!.attributes.file).toBeUndefined();
  });
});
