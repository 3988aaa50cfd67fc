import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createEgressPolicy, createEngine, type Store } from '@svc/engine';
import { endpoint } from './helpers/flow-parts.js';
import { openPostgresStore } from '@svc/engine/postgres';
import { A, T0, executionFixture, stepFixture } from './store-contract/fixtures.js';
import { delivery } from './store-contract/contract-webhooks.js';
import { dropSchemas, freshSchemaName, probePostgres } from './helpers/postgres-test-db.js';

const probe = await probePostgres();
if (probe.skipReason !== undefined) console.warn(`postgres-work-distribution.test.ts: skipped: ${probe.skipReason}`);

const schemas: string[] = [];
afterAll(async () => {
  if (probe.url !== undefined) await dropSchemas(probe.url, schemas);
});

/*
 * Several stores on one schema stand for several `svc serve` processes on one database: each
 * store has its own pool, its own batch writer and its own LISTEN connection.
 */
describe.skipIf(probe.url === undefined)('work distribution on PostgreSQL', () => {
  const secretKey = randomBytes(32);
  let schema: string;
  let stores: Store[] = [];
  const open = () => openPostgresStore({ url: probe.url!, schema, secretKey, poolSize: 3 });

  beforeEach(async () => {
    schema = freshSchemaName('work');
    schemas.push(schema);
    stores = [await open()];
  });
  afterEach(async () => {
    await Promise.all(stores.map((store) => store.close()));
  });

  it('never hands the same execution to two of four stores claiming at the same time', async () => {
    const all: string[] = [];
    for (let i = 0; i < 400; i += 1) {
      const record = executionFixture({
        id: `exe-${i}`,
        tenantId: i % 3 === 0 ? 'globex' : A,
        createdAt: T0 + i,
        status: i % 4 === 0 ? 'Waiting' : 'Queued',
      });
      void stores[0]!.executions.create(record);
      all.push(`${record.tenantId}/${record.id}`);
    }
    stores.push(await open(), await open(), await open());
    const claimsBy = await Promise.all(
      stores.map(async (store, index) => {
        const claims: string[] = [];
        for (;;) {
          const got = await store.executions.claim({ owner: `w${index}`, now: T0 + 10_000, leaseMs: 60_000, limit: 7 });
          if (got.length === 0) return claims;
          claims.push(...got.map((record) => `${record.tenantId}/${record.id}`));
        }
      }),
    );
    const claims = claimsBy.flat();
    expect(new Set(claims).size).toBe(claims.length);
    expect(claims.sort()).toEqual(all.sort());
    expect(claimsBy.filter((some) => some.length > 0).length).toBeGreaterThan(1);
  });

  it('takes over the executions of a dead owner, and only once', async () => {
    for (let i = 0; i < 20; i += 1)
      await stores[0]!.executions.create(
        executionFixture({ id: `exe-${i}`, status: 'Running', leaseOwner: 'dead', leaseExpiresAt: T0 + 999_999 }),
      );
    stores.push(await open());
    const [first, second] = await Promise.all(
      stores.map((store, index) =>
        store.executions.claim({ owner: `w${index}`, now: T0, leaseMs: 1000, limit: 20, takeOverFrom: ['dead'] }),
      ),
    );
    expect(first!.length + second!.length).toBe(20);
    expect(await stores[0]!.executions.listLeaseOwners()).not.toContain('dead');
  });

  it('announces a queued execution and a callback for a released wait to the other stores', async () => {
    const other = await open();
    stores.push(other);
    let heard = 0;
    const heardOnce = () => new Promise<void>((resolve) => void waiters.push(resolve));
    const waiters: (() => void)[] = [];
    const stop = other.onWorkAvailable!(() => {
      heard += 1;
      waiters.shift()?.();
    });
    // The LISTEN connection is opened on the first subscription: give it a moment.
    await new Promise((resolve) => setTimeout(resolve, 300));

    const queued = heardOnce();
    await stores[0]!.executions.create(executionFixture({ id: 'exe-queued' }));
    await queued;

    // A run that holds its lease, or waits for later, announces nothing: no process may take it now.
    const before = heard;
    await stores[0]!.executions.create(
      executionFixture({ id: 'exe-held', status: 'Running', leaseOwner: 'w0', leaseExpiresAt: T0 + 60_000 }),
    );
    await stores[0]!.executions.commitStep(stepFixture({ id: 'exe-held:1', executionId: 'exe-held', seq: 1 }), {
      stepsExecuted: 1,
    });
    await stores[0]!.executions.create(
      executionFixture({ id: 'exe-1', status: 'Waiting', wakeAt: T0 + 3_600_000, leaseOwner: null }),
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(heard).toBe(before);

    const woken = heardOnce();
    await stores[0]!.webhooks.addDelivery(delivery(), { wakeAt: T0 + 5 });
    await woken;
    expect(heard).toBe(before + 1);
    expect((await other.executions.get(A, 'exe-1'))?.wakeAt).toBe(T0 + 5);
    stop();
  });

  it('listens again after its LISTEN connection is cut, and hears the next announcement', async () => {
    const other = await open();
    stores.push(other);
    let heard = 0;
    const stop = other.onWorkAvailable!(() => (heard += 1));
    const admin = new pg.Client({ connectionString: probe.url });
    await admin.connect();
    try {
      const listening = async () =>
        (
          await admin.query<{ pid: number }>(
            `SELECT pid FROM pg_stat_activity WHERE query = $1 AND application_name = 'svc'`,
            [`LISTEN "svc_work_${schema}"`],
          )
        ).rows;
      const waitFor = async (check: () => Promise<boolean> | boolean) => {
        const deadline = Date.now() + 5_000;
        while (!(await check())) {
          expect(Date.now()).toBeLessThan(deadline);
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      };
      await waitFor(async () => (await listening()).length === 1);
      const [first] = await listening();
      await admin.query('SELECT pg_terminate_backend($1)', [first!.pid]);
      await waitFor(async () => (await listening()).some((row) => row.pid !== first!.pid));
      await stores[0]!.executions.create(executionFixture({ id: 'exe-after-cut' }));
      await waitFor(() => heard > 0);
    } finally {
      stop();
      await admin.end();
    }
  });

  it('commits the writes of one turn together, and refuses only the write that fails', async () => {
    const store = stores[0]!;
    await Promise.all(
      Array.from({ length: 5 }, (_, i) => store.executions.create(executionFixture({ id: `exe-${i}` }))),
    );
    // One turn: twenty steps of five executions, one step of a missing execution, one the
    // database refuses (text columns hold no NUL character).
    const writes = [
      ...Array.from({ length: 20 }, (_, i) =>
        store.executions.commitStep(stepFixture({ id: `exe-${i % 5}:${i}`, executionId: `exe-${i % 5}`, seq: i + 1 }), {
          stepsExecuted: Math.floor(i / 5) + 1,
        }),
      ),
      store.executions.commitStep(stepFixture({ id: 'exe-none:1', executionId: 'exe-none', seq: 1 }), {}),
      store.executions.commitStep(
        stepFixture({ id: 'exe-0:99', executionId: 'exe-0', seq: 99, nodeName: 'bad\u0000name' }),
        { stepsExecuted: 99 },
      ),
    ];
    const outcomes = await Promise.allSettled(writes);
    expect(outcomes.slice(0, 20).every((outcome) => outcome.status === 'fulfilled')).toBe(true);
    expect(outcomes[20]).toMatchObject({ status: 'rejected', reason: { code: 'EXECUTION_NOT_FOUND' } });
    expect(outcomes[21]!.status).toBe('rejected');
    for (let e = 0; e < 5; e += 1) {
      expect((await store.executions.listSteps(A, `exe-${e}`)).length).toBe(4);
      expect((await store.executions.get(A, `exe-${e}`))?.stepsExecuted).toBe(4);
    }
  });

  it('starts a run another engine queued within moments, woken by the announcement rather than the poll', async () => {
    const api = createServer((_request, response) => {
      setTimeout(() => response.setHeader('content-type', 'application/json').end('{"ok":true}'), 300);
    });
    await new Promise<void>((resolve) => api.listen(0, '127.0.0.1', resolve));
    const baseUrl = `http://127.0.0.1:${(api.address() as AddressInfo).port}`;
    stores.push(await open());
    // Polls far apart: only an announcement can make the idle engine look in time.
    const common = { egress: createEgressPolicy({ mode: 'local' }), pollIntervalMs: 120_000 } as const;
    const busy = await createEngine({ ...common, store: stores[0]!, maxConcurrentExecutions: 1 });
    const idle = await createEngine({ ...common, store: stores[1]! });
    try {
      idle.startWorker();
      await new Promise((resolve) => setTimeout(resolve, 300));
      const flow = await busy.flows.create(A, {
        name: 'slow',
        nodes: [endpoint('n1', 'Slow', { url: `${baseUrl}/x` })],
        connections: [],
      });
      const first = await busy.startExecution({ tenantId: A, flowId: flow.id });
      const second = await busy.startExecution({ tenantId: A, flowId: flow.id });
      expect(second.status).toBe('Queued');
      const started = Date.now();
      for (;;) {
        const record = await stores[1]!.executions.get(A, second.id);
        if (record?.status === 'Completed') break;
        expect(Date.now() - started).toBeLessThan(5_000);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      const taken = await stores[1]!.executions.get(A, second.id);
      const firstRecord = await stores[1]!.executions.get(A, first.id);
      // The idle engine ran it while the busy one still held its first run.
      expect(taken!.startedAt!).toBeLessThan(firstRecord!.endedAt ?? Number.MAX_SAFE_INTEGER);
    } finally {
      await busy.stop();
      await idle.stop();
      api.closeAllConnections();
      await new Promise((resolve) => api.close(resolve));
    }
  });
});
