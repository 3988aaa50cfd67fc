import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExecutionPatch, FlowDocumentInput, StepRecord, Store } from '@svc/engine';
import { openSqliteStore } from '@svc/engine/sqlite';
import { startHarness, TENANT, type Harness } from './helpers/harness.js';
import { endpoint, wire } from './helpers/flow-parts.js';

/** The execution writes a run makes, in order, as the store is asked for them. */
type Write = { kind: 'step'; step: StepRecord; patch: ExecutionPatch } | { kind: 'update'; patch: ExecutionPatch };

/** An SQLite store in memory that records the execution writes made through it. */
function recordingStore(writes: Write[]): Store {
  const store = openSqliteStore({ path: ':memory:' });
  const executions = store.executions;
  return {
    ...store,
    executions: {
      ...executions,
      commitStep: (step, patch) => {
        writes.push({ kind: 'step', step, patch });
        return executions.commitStep(step, patch);
      },
      update: (tenantId, id, patch) => {
        writes.push({ kind: 'update', patch });
        return executions.update(tenantId, id, patch);
      },
    },
  };
}

const writes: Write[] = [];
const store = recordingStore(writes);
let h: Harness;
beforeAll(async () => {
  h = await startHarness({ store });
});
afterAll(async () => {
  await h.close();
  await store.close();
});

describe('the end of a run and its last step', () => {
  //  CreateOrder ──▶ GetOrder
  const chain: FlowDocumentInput = {
    name: 'last-step',
    outputs: { orderId: '{{GetOrder.response.body.id}}' },
    nodes: [
      endpoint('n1', 'CreateOrder', { method: 'POST', url: '{{env.baseUrl}}/orders', body: { total: 5 } }),
      endpoint('n2', 'GetOrder', { url: '{{env.baseUrl}}/orders/{{CreateOrder.response.body.id}}' }),
    ],
    connections: [wire('n1', 'n2')],
  };

  it('are one write: the last step carries the end of the run, outputs and counters', async () => {
    writes.length = 0;
    const execution = await h.run(chain);
    expect(execution.status).toBe('Completed');
    expect(writes.map((write) => write.kind)).toEqual(['step', 'step']);
    const last = writes[1] as Extract<Write, { kind: 'step' }>;
    expect(last.step.nodeName).toBe('GetOrder');
    expect(last.patch).toMatchObject({
      status: 'Completed',
      error: null,
      nodesExecuted: 2,
      nodesSkipped: 0,
      stepsExecuted: 2,
      leaseOwner: null,
    });
    // What the store holds is what the run answered.
    const stored = await h.engine.getExecution(TENANT, execution.executionId);
    expect(stored).toMatchObject({
      status: 'Completed',
      outputs: execution.outputs,
      nodesExecuted: 2,
      stepsExecuted: 2,
      endedAt: execution.endedAt,
    });
    expect(execution.outputs).toEqual({ orderId: expect.stringMatching(/^ord_/) });
    expect(stored.steps?.map((step) => step.nodeName)).toEqual(['CreateOrder', 'GetOrder']);
  });

  it('stay apart when the last node to finish is skipped: the end is written after it', async () => {
    //  Health ─▶ Route ─case-0─▶ Never      (no default: Never is skipped)
    writes.length = 0;
    const execution = await h.run({
      name: 'last-skipped',
      nodes: [
        endpoint('a', 'Health', { url: '{{env.baseUrl}}/health' }),
        {
          id: 'r',
          name: 'Route',
          type: 'switch',
          config: { default: false, cases: [{ source: '{{Health.statusCode}}', operator: '==', value: 500 }] },
        },
        endpoint('b', 'Never', { url: '{{env.baseUrl}}/health' }),
      ],
      connections: [wire('a', 'r'), wire('r', 'b', 'case-0')],
    });
    expect(execution.status).toBe('Completed');
    expect(writes.map((write) => write.kind)).toEqual(['step', 'step', 'step', 'update']);
    expect(writes.at(-1)!.patch).toMatchObject({ status: 'Completed', nodesExecuted: 2, nodesSkipped: 1 });
  });

  it('stay apart when the flow outputs do not resolve: the step is stored, then the run fails', async () => {
    writes.length = 0;
    const execution = await h.run({
      ...chain,
      name: 'last-step-bad-outputs',
      outputs: { id: '{{GetOrder.response.body.nope}}' },
    });
    expect(execution.status).toBe('Failed');
    expect(execution.error?.code).toBe('OUTPUTS_UNRESOLVED');
    expect(writes.map((write) => write.kind)).toEqual(['step', 'step', 'update']);
    expect((writes[1] as Extract<Write, { kind: 'step' }>).patch).toEqual({});
    const stored = await h.engine.getExecution(TENANT, execution.executionId);
    expect(stored.steps?.map((step) => step.status)).toEqual(['Completed', 'Completed']);
  });
});
