import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEgressPolicy, createManualClock, parseEgressRules, systemClock } from '@svc/engine';
import { openSqliteStore } from '@svc/engine/sqlite';
import { createClient, startGatewayServer, type GatewayServer } from '@svc/gateway';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

type Json = Record<string, any>;

let target: Server;
let targetUrl: string;
const hits: string[] = [];
let dir: string;

beforeAll(async () => {
  target = createServer((request, response) => {
    hits.push(request.url ?? '');
    response.setHeader('content-type', 'application/json').end('{}');
  });
  await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
  targetUrl = `http://127.0.0.1:${(target.address() as AddressInfo).port}`;
  dir = mkdtempSync(join(tmpdir(), 'svc-serve-schedules-'));
});

afterAll(async () => {
  target.closeAllConnections();
  await new Promise((resolve) => target.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

async function until(condition: () => boolean | Promise<boolean>, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`not met in time: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('svc serve fires schedules', () => {
  it('with two servers on one store file, each due run fires exactly once, and after downtime once with the missed count', async () => {
    const path = join(dir, 'svc.db');
    const clock = createManualClock(Date.parse('2026-01-05T00:00:30Z'));
    const egress = createEgressPolicy({ mode: 'service', allow: parseEgressRules('127.0.0.1', 'SVC_EGRESS_ALLOW') });
    const stores = [openSqliteStore({ path, clock }), openSqliteStore({ path, clock })];
    const servers: GatewayServer[] = [];
    try {
      for (const store of stores)
        servers.push(
          await startGatewayServer({ store, port: 0, host: '127.0.0.1', clock, egress, schedulerIntervalMs: 10 }),
        );
      const { clientSecret } = await createClient(stores[0]!, systemClock, {
        tenantId: 'default',
        name: 'scheduler-test',
        scopes: ['admin'],
      });
      const call = async (server: GatewayServer, method: string, route: string, body?: unknown): Promise<Json> => {
        const response = await fetch(`${server.url}${route}`, {
          method,
          headers: { 'x-api-key': clientSecret, 'content-type': 'application/json' },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        });
        return (await response.json()) as Json;
      };
      await call(servers[0]!, 'POST', '/api/gateway/environments', {
        name: 'staging',
        variables: { baseUrl: targetUrl },
      });
      const flow = await call(servers[1]!, 'POST', '/api/gateway/flows', {
        name: 'ping',
        nodes: [{ id: 'n1', name: 'Ping', type: 'endpoint', config: { url: '{{env.baseUrl}}/ping' } }],
        connections: [],
      });
      const created = await call(servers[0]!, 'POST', '/api/schedules', {
        name: 'every-minute',
        cron: '* * * * *',
        target: { type: 'flow', id: flow.data.id },
        environment: 'staging',
      });
      expect(created.data.nextDueAt).toBe('2026-01-05T00:01:00.000Z');
      const executions = async () =>
        (await call(servers[1]!, 'GET', `/api/gateway/flows/${flow.data.id}/executions?limit=200`)).data
          .items as Json[];

      // Both servers' schedulers tick every 10 ms; the clock moves one slot at a time.
      for (const minute of [1, 2, 3]) {
        clock.set(Date.parse(`2026-01-05T00:0${minute}:00Z`));
        // Each run ends before the clock moves on: a run still going would make the next one a skip.
        await until(async () => {
          const runs = await executions();
          return runs.length === minute && runs.every((run) => run.status === 'Completed');
        }, `the run due at minute ${minute}`);
      }
      // Some more ticks of both servers at the same time: nothing more is due.
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(await executions()).toHaveLength(3);

      // Downtime: the clock jumps 1 h 30 min; the schedule fires once and counts 89 slots missed.
      clock.set(Date.parse('2026-01-05T01:33:10Z'));
      await until(async () => (await executions()).length === 4, 'the run after the downtime');
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(await executions()).toHaveLength(4);
      await until(() => hits.length === 4, 'the four requests');
      const schedule = await call(servers[1]!, 'GET', '/api/schedules/every-minute');
      expect(schedule.data).toMatchObject({
        nextDueAt: '2026-01-05T01:34:00.000Z',
        missedRuns: 89,
        lastRun: { dueAt: '2026-01-05T00:04:00.000Z', missed: 89 },
      });
      const last = await call(servers[0]!, 'GET', `/api/gateway/executions/${schedule.data.lastRun.executionId}`);
      expect(last.data.status).toBe('Completed');
      expect(
        last.data.trigger ?? (await stores[0]!.executions.get('default', last.data.executionId))?.trigger,
      ).toMatchObject({
        type: 'schedule',
        scheduleId: created.data.id,
        missed: 89,
      });
    } finally {
      for (const server of servers) await server.close();
      for (const store of stores) await store.close();
    }
  });
});
