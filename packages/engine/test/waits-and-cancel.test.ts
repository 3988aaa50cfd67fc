import { afterEach, describe, expect, it } from 'vitest';
import { openSqliteStore } from '@svc/engine/sqlite';
import { startHarness, stepsByName, TENANT, type Harness } from './helpers/harness.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

//  Pause (delay) ──▶ After
const delayed = (duration: string) => ({
  name: `delayed-${duration}`,
  nodes: [
    { id: 'd', name: 'Pause', type: 'delay', config: { duration } },
    { id: 'a', name: 'After', type: 'endpoint', config: { url: '{{env.baseUrl}}/health' } },
  ],
  connections: [{ id: 'w', source: 'd', target: 'a' }],
});

describe('stored waits', () => {
  it('gives a long wait back to the store and a worker claims it again when it is due', async () => {
    const store = openSqliteStore({ path: ':memory:' });
    h = await startHarness({ store, releaseWaitsLongerThanMs: 100, pollIntervalMs: 25 });
    h.engine.startWorker();
    const flow = await h.engine.flows.create(TENANT, delayed('600ms'));
    const started = await h.engine.startExecution({ tenantId: TENANT, flowId: flow.id, env: { baseUrl: h.api.url } });

    // While it waits, no process holds it: the wait is only a row with a due time.
    let waiting = await store.executions.get(TENANT, started.id);
    for (let i = 0; i < 50 && waiting?.leaseOwner !== null; i += 1) {
      await new Promise((resolve) => setTimeout(resolve, 10));
      waiting = await store.executions.get(TENANT, started.id);
    }
    expect(waiting).toMatchObject({ status: 'Waiting', leaseOwner: null });
    expect(waiting!.wakeAt).toBeGreaterThan(Date.now());

    const done = await h.engine.waitForExecution(TENANT, started.id, 5_000);
    expect(done.status).toBe('Completed');
    const pause = stepsByName(done).Pause!;
    expect(Date.parse(pause.endedAt!) - Date.parse(pause.startedAt)).toBeGreaterThanOrEqual(600);
    expect(stepsByName(done).After!.status).toBe('Completed');
    await store.close();
  });

  it('suspends inside a loop body and continues the loop when the wait is due', async () => {
    //  Each (for 2 items) ─L─▶ Pause (400ms) ──▶ Call        Each ─D─▶ After
    const store = openSqliteStore({ path: ':memory:' });
    h = await startHarness({ store, releaseWaitsLongerThanMs: 100, pollIntervalMs: 25 });
    h.engine.startWorker();
    const flow = await h.engine.flows.create(TENANT, {
      name: 'loop-with-waits',
      nodes: [
        { id: 'f', name: 'Each', type: 'for', config: { items: ['a', 'b'] } },
        { id: 'd', name: 'Pause', type: 'delay', config: { duration: '400ms' } },
        { id: 'c', name: 'Call', type: 'endpoint', config: { url: '{{env.baseUrl}}/echo?item={{forNode.item}}' } },
        { id: 'a', name: 'After', type: 'endpoint', config: { url: '{{env.baseUrl}}/health' } },
      ],
      connections: [
        { id: 'w1', source: 'f', target: 'd', sourceHandle: 'L' },
        { id: 'w2', source: 'd', target: 'c' },
        { id: 'w3', source: 'f', target: 'a', sourceHandle: 'D' },
      ],
    });
    const started = await h.engine.startExecution({ tenantId: TENANT, flowId: flow.id, env: { baseUrl: h.api.url } });
    let released = false;
    for (let i = 0; i < 60 && !released; i += 1) {
      await new Promise((resolve) => setTimeout(resolve, 10));
      released = (await store.executions.get(TENANT, started.id))?.leaseOwner === null;
    }
    expect(released).toBe(true);

    const done = await h.engine.waitForExecution(TENANT, started.id, 5_000);
    expect(done.status).toBe('Completed');
    const calls = done.steps!.filter((step) => step.nodeName === 'Call');
    expect(calls.map((step) => [step.scope, step.status])).toEqual([
      ['Each[0]', 'Completed'],
      ['Each[1]', 'Completed'],
    ]);
    expect(h.api.requests.filter((request) => request.path === '/echo').map((request) => request.query.item)).toEqual([
      'a',
      'b',
    ]);
    expect(stepsByName(done).After!.status).toBe('Completed');
    await store.close();
  });

  it('holds short waits in the process that runs them', async () => {
    h = await startHarness({ releaseWaitsLongerThanMs: 5_000 });
    h.engine.startWorker();
    const execution = await h.run(delayed('150ms'));
    expect(execution.status).toBe('Completed');
  });
});

describe('cancelling', () => {
  it('cancels a waiting execution: the wait and what follows are skipped by failure', async () => {
    h = await startHarness();
    const flow = await h.engine.flows.create(TENANT, delayed('10s'));
    const started = await h.engine.startExecution({ tenantId: TENANT, flowId: flow.id, env: { baseUrl: h.api.url } });
    await h.engine.waitForExecution(TENANT, started.id, 200);

    const cancelled = await h.engine.cancelExecution(TENANT, started.id);
    expect(cancelled.status).toBe('Cancelled');
    expect(cancelled.error).toMatchObject({ code: 'CANCELLED' });
    expect(stepsByName(cancelled).Pause).toMatchObject({ status: 'Skipped', skipKind: 'failure' });
    expect(stepsByName(cancelled).After).toMatchObject({ status: 'Skipped', skipKind: 'failure' });
    expect(h.api.requests.some((request) => request.path === '/health')).toBe(false);
  });

  it('cancels a loop in the middle: no further iteration starts and the run ends Cancelled', async () => {
    //  Each (for 3 items) ─L─▶ Pause (2s)        Each ─D─▶ After
    h = await startHarness();
    const flow = await h.engine.flows.create(TENANT, {
      name: 'cancel-loop',
      nodes: [
        { id: 'f', name: 'Each', type: 'for', config: { items: [1, 2, 3] } },
        { id: 'd', name: 'Pause', type: 'delay', config: { duration: '2s' } },
        { id: 'a', name: 'After', type: 'endpoint', config: { url: '{{env.baseUrl}}/health' } },
      ],
      connections: [
        { id: 'w1', source: 'f', target: 'd', sourceHandle: 'L' },
        { id: 'w2', source: 'f', target: 'a', sourceHandle: 'D' },
      ],
    });
    const started = await h.engine.startExecution({ tenantId: TENANT, flowId: flow.id, env: { baseUrl: h.api.url } });
    await h.engine.waitForExecution(TENANT, started.id, 150);
    const cancelled = await h.engine.cancelExecution(TENANT, started.id);
    expect(cancelled.status).toBe('Cancelled');
    expect(
      cancelled
        .steps!.filter((step) => step.nodeName === 'Pause')
        .map((step) => [step.scope, step.status, step.skipKind]),
    ).toEqual([['Each[0]', 'Skipped', 'failure']]);
    expect(stepsByName(cancelled).Each).toMatchObject({ status: 'Failed', error: { code: 'LOOP_FAILED' } });
    expect(stepsByName(cancelled).After).toMatchObject({ status: 'Skipped', skipKind: 'failure' });
  });

  it('answers EXECUTION_NOT_FOUND for an execution of another tenant', async () => {
    h = await startHarness();
    const execution = await h.run(delayed('1ms'));
    await expect(h.engine.getExecution('someone-else', execution.executionId)).rejects.toMatchObject({
      code: 'EXECUTION_NOT_FOUND',
    });
    await expect(h.engine.cancelExecution('someone-else', execution.executionId)).rejects.toMatchObject({
      code: 'EXECUTION_NOT_FOUND',
    });
  });
});
