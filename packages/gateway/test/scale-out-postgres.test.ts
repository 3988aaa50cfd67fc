import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TERMINAL_STATUSES, type ExecutionRecord, type Store } from '@svc/engine';
import { openPostgresStore } from '@svc/engine/postgres';
import { dropSchemas, freshSchemaName, probePostgres } from '../../engine/test/helpers/postgres-test-db.js';
import { spawnSvc } from './cli.js';
import { startServe, startServeWithArgs } from './serve-process.js';

const probe = await probePostgres();
if (probe.skipReason !== undefined) console.warn(`scale-out-postgres.test.ts: skipped: ${probe.skipReason}`);

const TENANT = 'default';
const BOOTSTRAP_ID = 'scale-admin';
const BOOTSTRAP_SECRET = `svc_sk_${'s'.repeat(43)}`;
const RUNS = 300;
const SCHEDULES = 8;

/** A local API that counts the requests of each idempotency key, and when each came. */
interface CountingApi {
  url: string;
  arrivals: Map<string, number[]>;
  close(): Promise<void>;
}

async function startCountingApi(): Promise<CountingApi> {
  const arrivals = new Map<string, number[]>();
  const server: Server = createServer((request, response) => {
    const key = request.headers['idempotency-key'];
    if (typeof key === 'string') arrivals.set(key, [...(arrivals.get(key) ?? []), Date.now()]);
    request.resume();
    // A little latency, so that a process killed at any moment has calls in flight.
    setTimeout(() => response.setHeader('content-type', 'application/json').end('{"ok":true}'), 15);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    arrivals,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

const call = (id: string, name: string, path: string) => ({
  id,
  name,
  type: 'endpoint',
  position: { x: 0, y: 0 },
  config: { method: 'POST', url: `{{env.baseUrl}}${path}`, body: { at: name } },
});

/*
 *   Call1 ──▶ Pause ──▶ Call2 ──▶ Call3
 *
 * Three calls with a delay between: a short one held in memory, or (every tenth run) one longer
 * than the service keeps in memory, which goes back to the database and is resumed by whichever
 * process claims it when due.
 */
function chainFlow(name: string, pause: string) {
  return {
    name,
    nodes: [
      call('n1', 'Call1', '/one'),
      { id: 'n2', name: 'Pause', type: 'delay', position: { x: 0, y: 0 }, config: { duration: pause } },
      call('n3', 'Call2', '/two'),
      call('n4', 'Call3', '/three'),
    ],
    connections: [
      { id: 'w1', source: 'n1', sourceHandle: 'out', target: 'n2' },
      { id: 'w2', source: 'n2', sourceHandle: 'out', target: 'n3' },
      { id: 'w3', source: 'n3', sourceHandle: 'out', target: 'n4' },
    ],
  };
}

/**
 * Three `svc serve` processes on one PostgreSQL database, 300 runs started over REST across them,
 * one process killed with SIGKILL half-way: every run completes once, no call whose step was
 * committed is sent again, and every schedule due meanwhile fires once.
 */
describe.skipIf(probe.url === undefined)('three svc serve processes on one PostgreSQL database', () => {
  const schema = freshSchemaName('scale');
  const secretKey = randomBytes(32).toString('base64');
  let api: CountingApi;
  let store: Store;
  let url: string;

  beforeAll(async () => {
    api = await startCountingApi();
    const admin = new pg.Client({ connectionString: probe.url });
    await admin.connect();
    await admin.query(`CREATE SCHEMA "${schema}"`);
    await admin.end();
    // The processes find the schema through the URL, as an operator's SVC_DB would name it.
    const target = new URL(probe.url!);
    target.searchParams.set('options', `-c search_path=${schema}`);
    url = target.toString();
    store = await openPostgresStore({
      url: probe.url!,
      schema,
      secretKey: Buffer.from(secretKey, 'base64'),
      poolSize: 2,
    });
  });
  afterAll(async () => {
    await store?.close();
    await api?.close();
    await dropSchemas(probe.url!, [schema]);
  });

  it('completes every run once across a kill -9, without resending a committed step, and fires each due schedule once', async () => {
    const env = {
      SVC_DB: url,
      SVC_SECRET_KEY: secretKey,
      SVC_EGRESS_ALLOW: '127.0.0.1',
      SVC_BOOTSTRAP_CLIENT_ID: BOOTSTRAP_ID,
      SVC_BOOTSTRAP_CLIENT_SECRET: BOOTSTRAP_SECRET,
      SVC_LEASE_MS: '5000',
      // Test files run side by side on one server: a few connections each is plenty.
      SVC_DB_POOL_SIZE: '4',
    };
    const servers = await Promise.all([startServe(env), startServe(env), startServe(env)]);
    const victim = 1;
    try {
      const headers = { 'X-API-Key': BOOTSTRAP_SECRET, 'Content-Type': 'application/json' };
      const save = async (flow: object): Promise<string> => {
        const response = await fetch(`${servers[0]!.url}/api/gateway/flows`, {
          method: 'POST',
          headers,
          body: JSON.stringify(flow),
        });
        expect(response.status).toBe(201);
        return ((await response.json()) as { data: { id: string } }).data.id;
      };
      const shortFlow = await save(chainFlow('chain-short', '300ms'));
      const longFlow = await save(chainFlow('chain-long', '6s'));
      const scheduledFlow = await save(chainFlow('chain-scheduled', '100ms'));

      // Schedules due one after another across the run, the kill included; their cron's next
      // slot is months away, so each fires exactly once in the window.
      await store.environments.create(TENANT, {
        name: 'local',
        description: '',
        variables: { baseUrl: api.url },
        secrets: {},
      });
      const firstDue = Date.now() + 1_500;
      const scheduleIds: string[] = [];
      for (let i = 0; i < SCHEDULES; i += 1) {
        const created = await store.schedules.create(
          TENANT,
          {
            name: `due-${i}`,
            description: '',
            target: { type: 'flow', id: scheduledFlow },
            cron: '0 0 1 1 *',
            timezone: 'UTC',
            environment: 'local',
            enabled: true,
            overlap: 'allow',
          },
          { nextDueAt: firstDue + i * 1_000 },
        );
        scheduleIds.push(created.id);
      }

      // 300 runs over REST, round robin; the victim is killed half-way, and the starts meant for
      // it from then on go to the others.
      let killedAt = Number.POSITIVE_INFINITY;
      // The signal is delivered a moment after it is sent: until the process is gone, it may still call.
      let goneAt = Number.POSITIVE_INFINITY;
      servers[victim]!.child.once('exit', () => (goneAt = Date.now()));
      const startedOn = new Map<string, number>();
      const startOne = async (index: number): Promise<void> => {
        if (index === RUNS / 2) {
          killedAt = Date.now();
          servers[victim]!.child.kill('SIGKILL');
        }
        let target = index % servers.length;
        if (target === victim && killedAt !== Number.POSITIVE_INFINITY) target = (target + 1) % servers.length;
        const flowId = index % 10 === 0 ? longFlow : shortFlow;
        let response: Response;
        try {
          response = await fetch(`${servers[target]!.url}/api/gateway/flows/${flowId}/run?waitMs=0`, {
            method: 'POST',
            headers,
            body: JSON.stringify({ env: { baseUrl: api.url } }),
          });
        } catch (error) {
          // A start the victim was answering when it died: it may have made the run or not (the
          // checks below read every run of the flows), and the client tries another process.
          if (target !== victim) throw error;
          target = (target + 1) % servers.length;
          response = await fetch(`${servers[target]!.url}/api/gateway/flows/${flowId}/run?waitMs=0`, {
            method: 'POST',
            headers,
            body: JSON.stringify({ env: { baseUrl: api.url } }),
          });
        }
        expect([200, 202]).toContain(response.status);
        const body = (await response.json()) as { data: { executionId: string } };
        startedOn.set(body.data.executionId, target);
      };
      const queue = Array.from({ length: RUNS }, (_, index) => index);
      await Promise.all(
        Array.from({ length: 6 }, async () => {
          for (let index = queue.shift(); index !== undefined; index = queue.shift()) await startOne(index);
        }),
      );
      expect(startedOn.size).toBe(RUNS);

      // Every run ends, the victim's included (taken over by the others), and so does any run the
      // victim made for a start whose answer it did not live to send.
      const runsOf = async (): Promise<ExecutionRecord[]> => {
        const all: ExecutionRecord[] = [];
        for (const flowId of [shortFlow, longFlow]) {
          let cursor: string | undefined;
          do {
            const page = await store.executions.list(TENANT, { flowId, limit: 200, ...(cursor ? { cursor } : {}) });
            all.push(...page.items);
            cursor = page.nextCursor ?? undefined;
          } while (cursor !== undefined);
        }
        return all;
      };
      const deadline = Date.now() + 45_000;
      let runs = await runsOf();
      while (runs.some((record) => !TERMINAL_STATUSES.has(record.status)) && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 250));
        runs = await runsOf();
      }
      expect(runs.length).toBeGreaterThanOrEqual(RUNS);
      for (const id of startedOn.keys()) expect(runs.some((record) => record.id === id)).toBe(true);
      expect(runs.filter((record) => record.status !== 'Completed').map((record) => record.status)).toEqual([]);

      // Exactly once: each node has one completed step per run.
      for (const record of runs) {
        const steps = await store.executions.listSteps(TENANT, record.id);
        const completed = steps.filter((step) => step.status === 'Completed').map((step) => step.nodeId);
        expect(completed.sort(), record.id).toEqual(['n1', 'n2', 'n3', 'n4']);
      }

      // No committed step sent again: a key is seen twice only for a call in flight on the victim
      // when it died (sent before it was gone, sent again after the kill by the process that took over).
      const runIds = new Set(runs.map((record) => record.id));
      const resent = [...api.arrivals.entries()].filter(([, times]) => times.length > 1);
      for (const [key, times] of resent) {
        const executionId = key.split(':')[0]!;
        expect([victim, undefined], key).toContain(startedOn.get(executionId));
        expect(times.length, key).toBe(2);
        expect(times[0]!, key).toBeLessThanOrEqual(goneAt);
        expect(times[1]!, key).toBeGreaterThanOrEqual(killedAt);
      }
      // The victim did die with work in flight, which the others finished.
      const takenOver = [...startedOn.entries()].filter(
        ([id, on]) =>
          on === victim &&
          [...api.arrivals.entries()].some(([key, times]) => key.startsWith(`${id}:`) && times.at(-1)! > killedAt),
      );
      expect(takenOver.length).toBeGreaterThan(0);
      expect([...api.arrivals.keys()].filter((key) => runIds.has(key.split(':')[0]!)).length).toBe(runs.length * 3);

      // Each schedule due in the window fired once.
      while (Date.now() < firstDue + SCHEDULES * 1_000 + 3_000)
        await new Promise((resolve) => setTimeout(resolve, 250));
      const scheduled = (await store.executions.list(TENANT, { flowId: scheduledFlow, limit: 200 })).items;
      const firedBy = new Map<string, number>();
      for (const record of scheduled) {
        const scheduleId = String(record.trigger.scheduleId);
        firedBy.set(scheduleId, (firedBy.get(scheduleId) ?? 0) + 1);
      }
      expect(Object.fromEntries(firedBy)).toEqual(Object.fromEntries(scheduleIds.map((id) => [id, 1])));
      for (const id of scheduleIds) expect((await store.schedules.get(TENANT, id))?.lastRun).not.toBeNull();
    } finally {
      for (const server of servers) server.child.kill('SIGTERM');
      await Promise.all(servers.map((server) => server.done));
    }
  }, 120_000);

  it('serves on the database --db names, and refuses to start without a shared SVC_SECRET_KEY', async () => {
    const refused = await spawnSvc(['serve', '--port', '0', '--db', url], {}).done;
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('SVC_SECRET_KEY is required with a PostgreSQL store');

    const server = await startServeWithArgs(['--db', url], { SVC_SECRET_KEY: secretKey });
    try {
      const health = await fetch(`${server.url}/health`);
      expect(health.status).toBe(200);
      // The same database the other processes used: their flows are here.
      const flows = await fetch(`${server.url}/api/gateway/flows`, { headers: { 'X-API-Key': BOOTSTRAP_SECRET } });
      expect(
        ((await flows.json()) as { data: { items: { name: string }[] } }).data.items.map((flow) => flow.name),
      ).toContain('chain-short');
    } finally {
      server.child.kill('SIGTERM');
      await server.done;
    }
  });
});
