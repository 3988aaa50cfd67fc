import { createHash, createHmac } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEngine, createManualClock, type Engine } from '@svc/engine';
import { openSqliteStore } from '@svc/engine/sqlite';
import { createApp } from '@svc/gateway';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stubAuthenticator } from './stub-authenticator.js';
import { apiCaller, postWebhook } from './api-call.js';

/*
 * A verified trigger request is taken once: sent again (a replay, or the sender's retry of a
 * request whose answer it lost) within its timestamp's tolerance, it starts nothing and names the
 * execution it started. Two services on one SQLite file share what they have taken.
 */
const STANDARD_SECRET = `whsec_${Buffer.from('standard webhooks secret, 32 byte').toString('base64')}`;
const HMAC_SECRET = 'hmac secret of the sender';
const T0 = 1_790_000_000;

const clock = createManualClock(T0 * 1000);
let dir: string;
const services: { engine: Engine; store: ReturnType<typeof openSqliteStore>; app: ReturnType<typeof createApp> }[] = [];
const paths: Record<string, string> = {};

async function openService() {
  const store = openSqliteStore({ path: join(dir, 'svc.db'), clock });
  const engine = await createEngine({ store, clock, publicUrl: 'http://svc.test' });
  const app = createApp({ engine, authenticator: stubAuthenticator({ key: { tenantId: 'acme' } }) });
  const service = { engine, store, app };
  services.push(service);
  return service;
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'svc-webhook-replays-'));
  const { app } = await openService();
  const call = apiCaller(() => app, 'key');
  const environment = await call('POST', '/api/gateway/environments', {
    body: {
      name: 'senders',
      variables: { standardSecret: STANDARD_SECRET, hmacSecret: HMAC_SECRET },
      secretKeys: ['standardSecret', 'hmacSecret'],
    },
  });
  expect(environment.status).toBe(201);
  for (const [name, verification] of Object.entries({
    standard: { method: 'Standard Webhooks', secret: '{{env.standardSecret}}' },
    stamped: { method: 'HMAC-SHA256', secret: '{{env.hmacSecret}}', timestampHeader: 'X-Timestamp' },
    unstamped: { method: 'HMAC-SHA256', secret: '{{env.hmacSecret}}' },
  })) {
    const saved = await call('POST', '/api/gateway/flows', {
      body: {
        name: `replays-${name}`,
        nodes: [
          {
            id: 't',
            name: 'Hook',
            type: 'component-webhook',
            config: { mode: 'trigger', environment: 'senders', verification },
          },
        ],
        connections: [],
      },
    });
    expect(saved.status).toBe(201);
    paths[name] = new URL(saved.json.data.webhookTriggers[0].url as string).pathname;
  }
});

afterAll(async () => {
  for (const { engine, store } of services) {
    await engine.stop();
    await store.close();
  }
  rmSync(dir, { recursive: true, force: true });
});

function standardHeaders(id: string, timestamp: number, body: string): Record<string, string> {
  const key = Buffer.from(STANDARD_SECRET.slice('whsec_'.length), 'base64');
  const signature = createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64');
  return { 'webhook-id': id, 'webhook-timestamp': String(timestamp), 'webhook-signature': `v1,${signature}` };
}

function stampedHeaders(timestamp: number, body: string): Record<string, string> {
  const signature = createHmac('sha256', HMAC_SECRET).update(`${timestamp}.${body}`).digest('hex');
  return { 'x-timestamp': String(timestamp), 'x-signature': signature };
}

const send = (path: string, body: string, headers: Record<string, string>, app = services[0]!.app) =>
  postWebhook(app, path, body, headers);

async function executionsOf(flowName: string): Promise<string[]> {
  const { engine } = services[0]!;
  const flows = await engine.flows.list('acme', { search: flowName });
  const flow = flows.items.find((candidate) => candidate.name === flowName)!;
  const page = await engine.listExecutions('acme', { flowId: flow.id });
  return page.items.map((execution) => execution.executionId);
}

describe('a verified trigger request sent again', () => {
  it('Standard Webhooks: the same message id starts one execution, also when the sender retries it signed anew', async () => {
    const body = '{"order":"ord_1"}';
    const first = await send(paths.standard!, body, standardHeaders('msg_1', T0, body));
    expect(first.status).toBe(202);
    const executionId = first.json.data.executionId as string;
    expect(first.json.data).toEqual({ executionId });

    const replayed = await send(paths.standard!, body, standardHeaders('msg_1', T0, body));
    expect(replayed.status).toBe(200);
    expect(replayed.json.data).toEqual({ executionId, duplicate: true });

    clock.set((T0 + 30) * 1000);
    const retried = await send(paths.standard!, body, standardHeaders('msg_1', T0 + 30, body));
    expect(retried.json.data).toEqual({ executionId, duplicate: true });

    const another = await send(paths.standard!, body, standardHeaders('msg_2', T0 + 30, body));
    expect(another.status).toBe(202);
    expect(another.json.data.executionId).not.toBe(executionId);
    expect((await executionsOf('replays-standard')).sort()).toEqual(
      [executionId, another.json.data.executionId as string].sort(),
    );
    clock.set(T0 * 1000);
  });

  it('HMAC with a signed timestamp: the same signature starts one execution; a new timestamp is a new request', async () => {
    const body = '{"order":"ord_2"}';
    const first = await send(paths.stamped!, body, stampedHeaders(T0, body));
    expect(first.status).toBe(202);
    const replayed = await send(paths.stamped!, body, stampedHeaders(T0, body));
    expect(replayed.status).toBe(200);
    expect(replayed.json.data).toEqual({ executionId: first.json.data.executionId, duplicate: true });
    const resent = await send(paths.stamped!, body, stampedHeaders(T0 + 1, body));
    expect(resent.status).toBe(202);
    expect(await executionsOf('replays-stamped')).toHaveLength(2);
  });

  it('HMAC without a timestamp: nothing bounds how long the signature holds, so each request starts a run', async () => {
    const body = '{"order":"ord_3"}';
    const signature = createHmac('sha256', HMAC_SECRET).update(body).digest('hex');
    expect((await send(paths.unstamped!, body, { 'x-signature': signature })).status).toBe(202);
    expect((await send(paths.unstamped!, body, { 'x-signature': signature })).status).toBe(202);
    expect(await executionsOf('replays-unstamped')).toHaveLength(2);
  });

  it('a second service on the same file answers the request the first one took as taken', async () => {
    const second = await openService();
    const body = '{"order":"ord_4"}';
    const headers = standardHeaders('msg_4', T0, body);
    const first = await send(paths.standard!, body, headers);
    expect(first.status).toBe(202);
    const elsewhere = await send(paths.standard!, body, headers, second.app);
    expect(elsewhere.status).toBe(200);
    expect(elsewhere.json.data).toEqual({ executionId: first.json.data.executionId, duplicate: true });
  });

  it('while the first request is being taken, its twin is told to retry and starts nothing', async () => {
    const { store } = services[0]!;
    const route = await store.webhooks.findTrigger(paths.standard!.slice('/webhooks/trigger/'.length));
    await store.webhooks.claimReceipt(
      {
        tenantId: route!.tenantId,
        path: route!.path,
        key: createHash('sha256').update('id:msg_5').digest('hex'),
        executionId: 'exe-being-created',
        claimedAt: T0 * 1000,
        expiresAt: (T0 + 301) * 1000,
      },
      { abandonedBefore: 0 },
    );
    const before = await executionsOf('replays-standard');
    const body = '{"order":"ord_5"}';
    const answer = await send(paths.standard!, body, standardHeaders('msg_5', T0, body));
    expect(answer.status).toBe(409);
    expect(answer.json.error.code).toBe('WEBHOOK_IN_PROGRESS');
    expect(await executionsOf('replays-standard')).toEqual(before);
  });

  it('a request whose run could not start is taken when it is sent again', async () => {
    const body = '{"order":"ord_6"}';
    const headers = standardHeaders('msg_6', T0, body);
    const stopping = await openService();
    await stopping.engine.stop();
    const refused = await send(paths.standard!, body, headers, stopping.app);
    expect(refused.json.error.code).toBe('SHUTTING_DOWN');
    const retried = await send(paths.standard!, body, headers);
    expect(retried.status).toBe(202);
    expect(retried.json.data.duplicate).toBeUndefined();
  });
});
