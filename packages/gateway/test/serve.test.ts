import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDemoApi, type DemoApi } from '../../../examples/demo-api/server.js';
import { openSqliteStore } from '@svc/engine/sqlite';
import { startServe } from './serve-process.js';
import { orderFlow } from './flows.js';

const BOOTSTRAP_ID = 'ci-admin';
const BOOTSTRAP_SECRET = `svc_sk_${'c'.repeat(43)}`;

describe('svc serve', () => {
  let dir: string;
  let demo: DemoApi;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'svc-serve-'));
    demo = await startDemoApi({ port: 0 });
  });
  afterAll(async () => {
    await demo?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('serves a token and a run over real HTTP, and stops cleanly on SIGTERM', async () => {
    const server = await startServe({
      SVC_DB: join(dir, 'ci.db'),
      SVC_EGRESS_ALLOW: '127.0.0.1',
      SVC_BOOTSTRAP_CLIENT_ID: BOOTSTRAP_ID,
      SVC_BOOTSTRAP_CLIENT_SECRET: BOOTSTRAP_SECRET,
    });
    try {
      expect(server.stderr()).toContain(`admin client ${BOOTSTRAP_ID}`);
      expect(server.stderr()).not.toContain(BOOTSTRAP_SECRET);

      const tokenResponse = await fetch(`${server.url}/oauth/token`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'client_credentials',
          client_id: BOOTSTRAP_ID,
          client_secret: BOOTSTRAP_SECRET,
          scope: 'flows:write executions:run',
        }),
      });
      expect(tokenResponse.status).toBe(200);
      expect(tokenResponse.headers.get('cache-control')).toBe('no-store');
      const token = ((await tokenResponse.json()) as { access_token: string }).access_token;
      const headers = { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' };

      const created = await fetch(`${server.url}/api/gateway/flows`, {
        method: 'POST',
        headers,
        body: JSON.stringify(orderFlow('served')),
      });
      expect(created.status).toBe(201);
      const flowId = ((await created.json()) as { data: { id: string } }).data.id;
      const run = await fetch(`${server.url}/api/gateway/flows/${flowId}/run?waitMs=10000`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ env: { baseUrl: demo.url } }),
      });
      expect(run.status).toBe(200);
      const execution = (await run.json()) as { success: boolean; data: { status: string; nodesExecuted: number } };
      expect(execution).toMatchObject({ success: true, data: { status: 'Completed', nodesExecuted: 3 } });
      expect(demo.requests.some((request) => request.method === 'POST' && request.path === '/orders')).toBe(true);
    } finally {
      server.child.kill('SIGTERM');
    }
    const result = await server.done;
    expect(result.code).toBe(0);
    expect(server.stderr()).toContain('svc: SIGTERM: stopping');
    expect(server.stderr()).toContain('svc: stopped');
  });

  it('on SIGTERM lets the step in flight finish and commit before it exits', async () => {
    const db = join(dir, 'drain.db');
    const server = await startServe({
      SVC_DB: db,
      SVC_EGRESS_ALLOW: '127.0.0.1',
      SVC_BOOTSTRAP_CLIENT_ID: BOOTSTRAP_ID,
      SVC_BOOTSTRAP_CLIENT_SECRET: BOOTSTRAP_SECRET,
    });
    const headers = { 'X-API-Key': BOOTSTRAP_SECRET, 'Content-Type': 'application/json' };
    const flow = {
      name: 'slow-step',
      nodes: [{ id: 's', name: 'Slow', type: 'endpoint', config: { url: '{{env.baseUrl}}/slow?ms=1000' } }],
    };
    const created = await fetch(`${server.url}/api/gateway/flows`, {
      method: 'POST',
      headers,
      body: JSON.stringify(flow),
    });
    const flowId = ((await created.json()) as { data: { id: string } }).data.id;
    const run = await fetch(`${server.url}/api/gateway/flows/${flowId}/run?waitMs=200`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ env: { baseUrl: demo.url } }),
    });
    expect(run.status).toBe(202);
    const executionId = ((await run.json()) as { data: { executionId: string } }).data.executionId;

    server.child.kill('SIGTERM');
    expect((await server.done).code).toBe(0);
    const store = openSqliteStore({ path: db });
    try {
      const steps = await store.executions.listSteps('default', executionId);
      expect(steps.map((step) => [step.nodeName, step.status])).toEqual([['Slow', 'Completed']]);
      expect((await store.executions.get('default', executionId))?.status).toBe('Completed');
    } finally {
      await store.close();
    }
  });

  it('prints a made-up admin secret on the first start only, and that secret works after a restart', async () => {
    const db = join(dir, 'first.db');
    const first = await startServe({ SVC_DB: db });
    first.child.kill('SIGINT');
    expect((await first.done).code).toBe(0);
    const secret = /client secret \(shown this once, store it now\): (svc_sk_[A-Za-z0-9_-]{43})\n/.exec(
      first.stderr(),
    )?.[1];
    expect(secret).toBeDefined();

    const second = await startServe({ SVC_DB: db });
    try {
      expect(second.stderr()).not.toContain('svc_sk_');
      expect(second.stderr()).not.toContain('first start');
      const list = await fetch(`${second.url}/api/gateway/flows`, { headers: { 'X-API-Key': secret! } });
      expect(list.status).toBe(200);
      expect(await list.json()).toEqual({ success: true, data: { items: [], nextCursor: null } });
    } finally {
      second.child.kill('SIGTERM');
    }
    expect((await second.done).code).toBe(0);
  });
});
