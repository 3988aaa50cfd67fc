import type { ExecutionRecord, StepRecord } from '@svc/engine';
import { describe, expect, it } from 'vitest';
import { createStepLinePrinter } from './step-lines.js';

const execution = (id: string) => ({ id }) as ExecutionRecord;
function step(fields: Partial<StepRecord>): StepRecord {
  return {
    id: 'x',
    executionId: 'root',
    tenantId: 'default',
    seq: 1,
    nodeId: 'n',
    nodeName: 'Node',
    nodeType: 'endpoint',
    scope: '',
    attempt: 1,
    status: 'Completed',
    startedAt: 0,
    endedAt: 10,
    latencyMs: 12.4,
    request: { method: 'GET', url: 'http://127.0.0.1:4010/health' },
    response: { status: 200 },
    output: null,
    handles: ['out'],
    error: null,
    skipKind: null,
    branch: null,
    wakeAt: null,
    ...fields,
  } as StepRecord;
}

describe('step lines', () => {
  it('prints one line per step: seq, title, status with the response code, latency, the note', () => {
    const lines: string[] = [];
    const printer = createStepLinePrinter((line) => lines.push(line));
    printer.created(execution('root'));
    printer.step(step({ seq: 1, nodeName: 'Health' }));
    printer.step(
      step({
        seq: 2,
        nodeName: 'Read',
        scope: 'Each[1]',
        attempt: 2,
        status: 'Failed',
        response: { status: 500 },
        error: { code: 'ASSERTION_FAILED', message: 'statusCode == 200 (got 500)' },
      }),
    );
    printer.step(
      step({
        seq: 3,
        nodeName: 'Pause',
        nodeType: 'delay',
        status: 'Waiting',
        latencyMs: null,
        response: null,
        wakeAt: Date.UTC(2026, 0, 1),
      }),
    );
    expect(lines).toEqual([
      '    1 Health  Completed 200  12 ms  GET http://127.0.0.1:4010/health\n',
      '    2 Each[1]/Read (attempt 2)  Failed 500  12 ms  ASSERTION_FAILED: statusCode == 200 (got 500)\n',
      expect.stringMatching(/^ {4}3 Pause {2}Waiting {2}.*2026-01-01T00:00:00\.000Z/),
    ]);
  });

  it('prints a step that waits again and again (a polling endpoint) at its first wait and at its end only', () => {
    const lines: string[] = [];
    const printer = createStepLinePrinter((line) => lines.push(line));
    printer.created(execution('root'));
    const polling = (polls: number, status: StepRecord['status']) =>
      step({
        id: 'root:1',
        nodeName: 'SubmitJob',
        status,
        latencyMs: status === 'Waiting' ? null : 340,
        wakeAt: status === 'Waiting' ? Date.UTC(2026, 0, 1) : null,
        request: { method: 'POST', url: 'http://x/jobs' },
        response: { status: 200, polling: { polls } },
      });
    for (let polls = 0; polls < 5; polls += 1) printer.step(polling(polls, 'Waiting'));
    printer.step(polling(5, 'Completed'));
    expect(lines).toEqual([
      '    1 SubmitJob  Waiting 200  until 2026-01-01T00:00:00.000Z · 0 polls\n',
      '    1 SubmitJob  Completed 200  340 ms  POST http://x/jobs · 5 polls\n',
    ]);
  });

  it('indents the steps of a child execution under the one the command started', () => {
    const lines: string[] = [];
    const printer = createStepLinePrinter((line) => lines.push(line));
    printer.created(execution('root'));
    printer.created(execution('child'));
    printer.step(step({ executionId: 'child', seq: 1, nodeName: 'Inner' }));
    printer.step(
      step({ executionId: 'root', seq: 1, nodeName: 'Outer', nodeType: 'subflow', response: null, latencyMs: null }),
    );
    expect(lines[0]).toMatch(/^ {8}1 Inner {2}Completed 200/);
    expect(lines[1]).toMatch(/^ {4}1 Outer {2}Completed/);
  });
});
