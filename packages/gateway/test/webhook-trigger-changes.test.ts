import { createHmac } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEngine, egressPolicyOf, loadConfig, type Engine, type Store } from '@svc/engine';
import { openSqliteStore } from '@svc/engine/sqlite';
import { createApp } from '@svc/gateway';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stubAuthenticator } from './stub-authenticator.js';
import { apiCaller, type Json } from './api-call.js';

/*
 * What a trigger reads (its path's owner, the flow's current version and trigger settings, the
 * environment that holds its secret) is kept between requests by the process serving them. Each
 * case here sends a trigger first, so whatever is kept is warm, then changes one thing, in this
 * process through REST or in another process on the same store file (a second store and engine
 * stand for it), and checks the next trigger follows the change at once.
 */

const TENANT = 'tenant-a';
let dir: string;
let api: Server;
let apiUrl: string;
const recorded: Json[] = [];
let here: { store: Store; engine: Engine; app: ReturnType<typeof createApp> };
let there: { store: Store; engine: Engine };

beforeAll(async () => {
  api = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    request.on('end', () => {
      recorded.push(JSON.parse(body === '' ? '{}' : body) as Json);
      response.setHeader('content-type', 'application/json').end('{}');
    });
  });
  await new Promise<void>((resolve) => api.listen(0, '127.0.0.1', resolve));
  const { port } = api.address() as AddressInfo;
  apiUrl = `http://127.0.0.1:${port}`;
  dir = mkdtempSync(join(tmpdir(), 'svc-trigger-changes-'));
  const egress = egressPolicyOf(loadConfig({ SVC_EGRESS_ALLOW: `127.0.0.1:${port}` }), 'service');
  const hereStore = openSqliteStore({ path: join(dir, 'svc.db') });
  const hereEngine = await createEngine({ store: hereStore, egress });
  here = {
    store: hereStore,
    engine: hereEngine,
    app: createApp({ engine: hereEngine, authenticator: stubAuthenticator({ key: { tenantId: TENANT } }) }),
  };
  const thereStore = openSqliteStore({ path: join(dir, 'svc.db') });
  there = { store: thereStore, engine: await createEngine({ store: thereStore, egress }) };
});

afterAll(async () => {
  for (const side of [here, there]) {
    await side.engine.stop();
    await side.store.close();
  }
  rmSync(dir, { recursive: true, force: true });
  api.closeAllConnections();
  await new Promise((resolve) => api.close(resolve));
});

const rest = apiCaller(() => here.app, 'key');

function flow(name: string, options: { path?: string; environment?: string; verification?: Json } = {}) {
  return {
    name,
    nodes: [
      {
        id: 't',
        name: 'Hook',
        type: 'component-webhook',
        config: {
          mode: 'trigger',
          path: options.path ?? 'auto',
          environment: options.environment ?? name,
          verification: options.verification ?? { method: 'HMAC-SHA256', secret: '{{env.hookSecret}}' },
        },
      },
      {
        id: 'r',
        name: 'Record',
        type: 'endpoint',
        config: {
          method: 'POST',
          url: '{{env.baseUrl}}/record',
          body: { flow: name, seen: '{{ResponseBinding.Hook.body.n}}', marker: '{{env.marker}}' },
        },
      },
    ],
    connections: [{ id: 'w1', source: 't', target: 'r' }],
  };
}

/** A flow and the environment it names (its own name), saved in this process. */
async function setUp(
  name: string,
  secret: string,
  options: { path?: string } = {},
): Promise<{ id: string; path: string }> {
  const environment = await rest('POST', '/api/gateway/environments', {
    body: { name, variables: { baseUrl: apiUrl, hookSecret: secret, marker: 'v1' }, secretKeys: ['hookSecret'] },
  });
  expect(environment.status).toBe(201);
  const saved = await rest('POST', '/api/gateway/flows', { body: flow(name, options) });
  expect(saved.status).toBe(201);
  return { id: saved.json.data.id as string, path: saved.json.data.webhookTriggers[0].path as string };
}

let sent = 0;
/** Posts a signed trigger; for a 202, waits for the run's end and answers what it recorded. */
async function trigger(path: string, secret: string): Promise<{ status: number; recorded?: Json }> {
  sent += 1;
  const body = JSON.stringify({ n: sent });
  const response = await here.app.request(`/webhooks/trigger/${path}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-signature': `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`,
    },
    body,
  });
  const json = (await response.json()) as Json;
  if (response.status !== 202) return { status: response.status };
  const view = await here.engine.waitForExecution(TENANT, json.data.executionId as string, 5_000);
  expect(view.status).toBe('Completed');
  return { status: 202, recorded: recorded.find((entry) => Number(entry.seen) === sent) };
}

async function executionsOf(flowId: string): Promise<number> {
  return (await here.engine.listExecutions(TENANT, { flowId, limit: 200 })).items.length;
}

describe('a trigger follows every change at once, made here or by another process on the store', () => {
  for (const by of ['here', 'there'] as const) {
    const engine = () => (by === 'here' ? here.engine : there.engine);

    it(`${by}: a rotated secret verifies from the next request, and the old one no longer does`, async () => {
      const { path } = await setUp(`rotate-${by}`, 'secret-one');
      expect((await trigger(path, 'secret-one')).status).toBe(202);
      await engine().environments.set(TENANT, { name: `rotate-${by}`, secrets: { hookSecret: 'secret-two' } });
      expect((await trigger(path, 'secret-one')).status).toBe(401);
      expect((await trigger(path, 'secret-two')).status).toBe(202);
      // Plain values of the environment follow too.
      await engine().environments.set(TENANT, { name: `rotate-${by}`, variables: { marker: 'v2' } });
      expect((await trigger(path, 'secret-two')).recorded).toMatchObject({ flow: `rotate-${by}`, marker: 'v2' });
    });

    it(`${by}: a new version's verification and path apply from the next request`, async () => {
      const name = `version-${by}`;
      const { id, path } = await setUp(name, 'secret-one');
      expect((await trigger(path, 'secret-one')).status).toBe(202);
      const bearer = { method: 'Bearer Token', secret: '{{env.hookSecret}}' };
      await engine().flows.update(TENANT, id, flow(name, { verification: bearer }));
      expect((await trigger(path, 'secret-one')).status).toBe(401);

      const chosen = `orders/${name}`;
      await engine().flows.update(TENANT, id, flow(name, { path: chosen }));
      expect((await trigger(path, 'secret-one')).status).toBe(404);
      expect((await trigger(chosen, 'secret-one')).recorded).toMatchObject({ flow: name });
      // A path given up is free: another flow takes it, and the trigger starts that flow.
      await engine().flows.update(TENANT, id, flow(name, { path: `orders/${name}-2` }));
      const taker = await setUp(`${name}-taker`, 'secret-three', { path: chosen });
      expect((await trigger(chosen, 'secret-one')).status).toBe(401);
      expect((await trigger(chosen, 'secret-three')).recorded).toMatchObject({ flow: `${name}-taker` });
      expect(taker.path).toBe(chosen);
    });

    it(`${by}: a deleted flow starts nothing from the next request, nor does a deleted environment`, async () => {
      const gone = await setUp(`delete-${by}`, 'secret-one');
      expect((await trigger(gone.path, 'secret-one')).status).toBe(202);
      const before = await executionsOf(gone.id);
      await engine().flows.delete(TENANT, gone.id);
      expect((await trigger(gone.path, 'secret-one')).status).toBe(404);
      expect(await executionsOf(gone.id)).toBe(before);

      const orphan = await setUp(`env-gone-${by}`, 'secret-one');
      expect((await trigger(orphan.path, 'secret-one')).status).toBe(202);
      await engine().environments.delete(TENANT, `env-gone-${by}`);
      expect((await trigger(orphan.path, 'secret-one')).status).toBe(401);
    });
  }
});
