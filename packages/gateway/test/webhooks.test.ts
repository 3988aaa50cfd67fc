import { createHmac, randomBytes } from 'node:crypto';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createEngine, egressPolicyOf, loadConfig, type Engine } from '@svc/engine';
import { openSqliteStore } from '@svc/engine/sqlite';
import { createAdaptorServer } from '@hono/node-server';
import { createApp } from '@svc/gateway';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stubAuthenticator } from './stub-authenticator.js';
import { apiCaller, type Json } from './api-call.js';

const PUBLIC_URL = 'https://svc.example.test';
const HOOK_SECRET = 'whsec-test-7d1c-not-a-real-one';

/** A local API: `/jobs` keeps what it is sent (the callback URL among it), `/record` echoes. */
const received: { path: string; body: Json }[] = [];
let api: Server;
let apiUrl: string;
let engine: Engine;
let store: ReturnType<typeof openSqliteStore>;
let app: ReturnType<typeof createApp>;

beforeAll(async () => {
  api = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    request.on('end', () => {
      received.push({ path: request.url ?? '', body: body === '' ? {} : (JSON.parse(body) as Json) });
      response.statusCode = request.url === '/jobs' ? 202 : 200;
      response.setHeader('content-type', 'application/json').end(JSON.stringify({ ok: true }));
    });
  });
  await new Promise<void>((resolve) => api.listen(0, '127.0.0.1', resolve));
  const { port } = api.address() as AddressInfo;
  apiUrl = `http://127.0.0.1:${port}`;
  store = openSqliteStore({ path: ':memory:' });
  engine = await createEngine({
    store,
    publicUrl: PUBLIC_URL,
    egress: egressPolicyOf(loadConfig({ SVC_EGRESS_ALLOW: `127.0.0.1:${port}` }), 'service'),
  });
  app = createApp({
    engine,
    authenticator: stubAuthenticator({ 'key-a': { tenantId: 'tenant-a' }, 'key-b': { tenantId: 'tenant-b' } }),
  });
  const environment = await call('POST', '/api/gateway/environments', {
    body: { name: 'hooks', variables: { baseUrl: apiUrl, hookSecret: HOOK_SECRET }, secretKeys: ['hookSecret'] },
  });
  expect(environment.status).toBe(201);
});

afterAll(async () => {
  await engine.stop();
  await store.close();
  api.closeAllConnections();
  await new Promise((resolve) => api.close(resolve));
});

const call = apiCaller(() => app);

/** A POST as another system sends it: raw bytes, its own headers, no credentials of ours. */
async function deliver(
  url: string,
  body: string | Uint8Array,
  headers: Record<string, string> = { 'content-type': 'application/json' },
): Promise<{ status: number; json: Json }> {
  const path = url.startsWith(PUBLIC_URL) ? url.slice(PUBLIC_URL.length) : url;
  const response = await app.request(path, { method: 'POST', headers, body });
  return { status: response.status, json: (await response.json()) as Json };
}

function signed(body: string, secret = HOOK_SECRET): Record<string, string> {
  return {
    'content-type': 'application/json',
    'x-signature': `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`,
  };
}

async function execution(id: string): Promise<Json> {
  return (await call('GET', `/api/gateway/executions/${id}`)).json.data as Json;
}

async function until(id: string, done: (view: Json) => boolean, timeoutMs = 5_000): Promise<Json> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const view = await execution(id);
    if (done(view) || Date.now() > deadline) return view;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const ended = (view: Json) => ['Completed', 'Failed', 'TimedOut', 'Cancelled'].includes(view.status as string);

/** A trigger verified by HMAC over the stored environment's secret, then one call with what it received. */
function triggerFlow(name: string, path = 'auto') {
  return {
    name,
    nodes: [
      {
        id: 't',
        name: 'Hook',
        type: 'component-webhook',
        config: {
          mode: 'trigger',
          path,
          environment: 'hooks',
          verification: { method: 'HMAC-SHA256', header: 'X-Signature', secret: '{{env.hookSecret}}' },
          payloadSchema: {
            type: 'object',
            required: ['orderId'],
            properties: { orderId: { type: 'string' }, total: { type: 'number', minimum: 0 } },
          },
        },
      },
      {
        id: 'r',
        name: 'Record',
        type: 'endpoint',
        config: {
          method: 'POST',
          url: '{{env.baseUrl}}/record',
          body: {
            orderId: '{{ResponseBinding.Hook.body.orderId}}',
            requestId: "{{ResponseBinding.Hook.headers['x-id']}}",
          },
        },
      },
    ],
    connections: [{ id: 'w1', source: 't', target: 'r' }],
  };
}

/** Tells a job where to call back, waits for that call, then records what it said. */
function callbackFlow(name: string, wait: Json = {}, options: { errorWire?: boolean; before?: Json[] } = {}) {
  const nodes: Json[] = [
    {
      id: 'j',
      name: 'StartJob',
      type: 'endpoint',
      config: { method: 'POST', url: '{{env.baseUrl}}/jobs', body: { callbackUrl: '{{Wait.callbackUrl}}' } },
    },
    ...(options.before ?? []),
    { id: 'w', name: 'Wait', type: 'component-webhook', config: { mode: 'wait', ...wait } },
    {
      id: 'd',
      name: 'Done',
      type: 'endpoint',
      config: {
        method: 'POST',
        url: '{{env.baseUrl}}/record',
        body: { result: '{{ResponseBinding.Wait.body.result}}' },
      },
    },
  ];
  const connections: Json[] = [
    { id: 'c1', source: 'j', target: options.before ? 'p' : 'w' },
    ...(options.before ? [{ id: 'c0', source: 'p', target: 'w' }] : []),
    { id: 'c2', source: 'w', target: 'd' },
  ];
  if (options.errorWire) {
    nodes.push({
      id: 'e',
      name: 'GaveUp',
      type: 'endpoint',
      config: { method: 'POST', url: '{{env.baseUrl}}/record', body: { gaveUp: true } },
    });
    connections.push({ id: 'c3', source: 'w', sourceHandle: 'error', target: 'e' });
  }
  return { name, nodes, connections };
}

async function startWaiting(flow: Json): Promise<{ executionId: string; callbackUrl: string }> {
  const saved = await call('POST', '/api/gateway/flows', { body: flow });
  expect(saved.status).toBe(201);
  const run = await call('POST', `/api/gateway/flows/${saved.json.data.id}/run?waitMs=0`, {
    body: { env: 'hooks' },
  });
  const executionId = run.json.data.executionId as string;
  const view = await until(executionId, (current) => current.status === 'Waiting');
  expect(view.status).toBe('Waiting');
  const job = received.find((entry) => entry.path === '/jobs' && entry.body.callbackUrl === view.waits[0].callbackUrl);
  expect(job).toBeDefined();
  return { executionId, callbackUrl: view.waits[0].callbackUrl as string };
}

describe('webhook trigger: POST /webhooks/trigger/{path}', () => {
  it('starts the flow with the verified request as the trigger node output, on a path kept across versions', async () => {
    const saved = await call('POST', '/api/gateway/flows', { body: triggerFlow('on-order') });
    expect(saved.status).toBe(201);
    const trigger = (saved.json.data.webhookTriggers as Json[])[0]!;
    expect(trigger.url).toBe(`${PUBLIC_URL}/webhooks/trigger/${trigger.path}`);
    expect(trigger.path).toMatch(/^[A-Za-z0-9_-]{22}$/);

    const again = await call('PUT', `/api/gateway/flows/${saved.json.data.id}`, {
      body: { ...triggerFlow('on-order'), description: 'version 2' },
    });
    expect(again.json.data.version).toBe(2);
    expect(again.json.data.webhookTriggers[0].path).toBe(trigger.path);

    const body = JSON.stringify({ orderId: 'ord-77', total: 12 });
    const answer = await deliver(trigger.url as string, body, { ...signed(body), 'x-id': 'req-1' });
    expect(answer.status).toBe(202);
    const view = await until(answer.json.data.executionId as string, ended);
    expect(view.status).toBe('Completed');
    expect(view.trigger).toMatchObject({ type: 'webhook', path: trigger.path });
    expect(received.at(-1)).toEqual({ path: '/record', body: { orderId: 'ord-77', requestId: 'req-1' } });
  });

  it('refuses what fails verification, type, JSON or schema, and starts nothing', async () => {
    const saved = await call('POST', '/api/gateway/flows', { body: triggerFlow('on-order-refusals') });
    const url = saved.json.data.webhookTriggers[0].url as string;
    const before = (await call('GET', `/api/gateway/flows/${saved.json.data.id}/executions`)).json.data.items.length;
    const good = JSON.stringify({ orderId: 'o-1' });

    const forged = await deliver(url, good, signed(good, 'not-the-secret'));
    expect(forged.status).toBe(401);
    expect(forged.json.error.code).toBe('WEBHOOK_UNVERIFIED');
    expect(JSON.stringify(forged.json)).not.toContain(HOOK_SECRET);

    const unsigned = await deliver(url, good);
    expect(unsigned.status).toBe(401);

    const text = await deliver(url, good, { ...signed(good), 'content-type': 'text/plain' });
    expect(text.status).toBe(415);
    expect(text.json.error.code).toBe('UNSUPPORTED_MEDIA_TYPE');

    const broken = '{"orderId": ';
    expect((await deliver(url, broken, signed(broken))).json.error.code).toBe('MALFORMED_JSON');

    const wrong = JSON.stringify({ total: -1 });
    const invalid = await deliver(url, wrong, signed(wrong));
    expect(invalid.status).toBe(422);
    expect(invalid.json.error.code).toBe('PAYLOAD_INVALID');
    expect(invalid.json.error.details.problems.length).toBeGreaterThanOrEqual(2);

    const huge = JSON.stringify({ orderId: 'x'.repeat(1024 * 1024) });
    expect((await deliver(url, huge, signed(huge))).status).toBe(413);

    expect((await deliver('/webhooks/trigger/no-such-path', good, signed(good))).status).toBe(404);
    const after = (await call('GET', `/api/gateway/flows/${saved.json.data.id}/executions`)).json.data.items.length;
    expect(after).toBe(before);
  });

  it('keeps a chosen path unique across the service, and frees it when the flow is deleted', async () => {
    const path = `orders/${randomBytes(4).toString('hex')}`;
    const first = await call('POST', '/api/gateway/flows', { body: triggerFlow('chosen-a', path) });
    expect(first.json.data.webhookTriggers[0].path).toBe(path);
    const taken = await call('POST', '/api/gateway/flows', { body: triggerFlow('chosen-b', path), key: 'key-b' });
    expect(taken.status).toBe(409);
    expect(taken.json.error.code).toBe('WEBHOOK_PATH_TAKEN');

    expect((await call('DELETE', `/api/gateway/flows/${first.json.data.id}`)).status).toBe(200);
    const body = JSON.stringify({ orderId: 'o-2' });
    expect((await deliver(`/webhooks/trigger/${path}`, body, signed(body))).status).toBe(404);
    const second = await call('POST', '/api/gateway/flows', { body: triggerFlow('chosen-b', path), key: 'key-b' });
    expect(second.status).toBe(201);
  });

  it('refuses a second trigger node and a wire into a trigger', async () => {
    const flow = triggerFlow('two-triggers');
    flow.nodes.push({ ...flow.nodes[0]!, id: 't2', name: 'Hook2' } as (typeof flow.nodes)[number]);
    const twice = await call('POST', '/api/gateway/flows', { body: flow });
    expect(twice.status).toBe(400);
    expect(JSON.stringify(twice.json.error.details.problems)).toContain('DUPLICATE_TRIGGER');
  });
});

describe('webhook wait: POST /webhooks/callback/{token}', () => {
  it('resumes the execution at once with the callback as the wait node output', async () => {
    const { executionId, callbackUrl } = await startWaiting(callbackFlow('wait-plain'));
    expect(callbackUrl.startsWith(`${PUBLIC_URL}/webhooks/callback/cb_`)).toBe(true);
    const answer = await deliver(callbackUrl, JSON.stringify({ result: 'done-42' }));
    expect(answer.status).toBe(202);
    expect(answer.json.data.executionId).toBe(executionId);
    const view = await until(executionId, ended);
    expect(view.status).toBe('Completed');
    expect(received.at(-1)).toEqual({ path: '/record', body: { result: 'done-42' } });
    const wait = (view.steps as Json[]).find((step) => step.nodeName === 'Wait');
    expect(wait?.output.body).toEqual({ result: 'done-42' });
  });

  it('answers 404, 401, 415, 422 and 409 without changing the execution, and 410 once it ended', async () => {
    const { executionId, callbackUrl } = await startWaiting(
      callbackFlow('wait-answers', {
        verification: { method: 'HMAC-SHA256', header: 'X-Signature', secret: '{{env.hookSecret}}' },
        payloadSchema: { type: 'object', required: ['result'] },
      }),
    );
    const token = callbackUrl.slice(callbackUrl.lastIndexOf('/') + 1);
    const body = JSON.stringify({ result: 'ok' });

    const tampered = token.slice(0, -2) + (token.endsWith('A') ? 'BB' : 'AA');
    expect((await deliver(`/webhooks/callback/${tampered}`, body, signed(body))).status).toBe(404);
    expect((await deliver(`/webhooks/callback/cb_${'x'.repeat(40)}`, body, signed(body))).status).toBe(404);
    expect((await deliver(callbackUrl, body, signed(body, 'wrong'))).status).toBe(401);
    expect((await deliver(callbackUrl, body, { ...signed(body), 'content-type': 'text/plain' })).status).toBe(415);
    const empty = JSON.stringify({});
    expect((await deliver(callbackUrl, empty, signed(empty))).status).toBe(422);
    const tooBig = JSON.stringify({ result: 'y'.repeat(1024 * 1024) });
    expect((await deliver(callbackUrl, tooBig, signed(tooBig))).status).toBe(413);
    expect((await execution(executionId)).status).toBe('Waiting');

    expect((await deliver(callbackUrl, body, signed(body))).status).toBe(202);
    expect((await until(executionId, ended)).status).toBe('Completed');
    const reused = await deliver(callbackUrl, body, signed(body));
    expect(reused.status).toBe(409);
    expect(reused.json.error.code).toBe('WEBHOOK_TOKEN_USED');
  });

  it('keeps a callback that arrives before the wait is reached and consumes it on arrival', async () => {
    const saved = await call('POST', '/api/gateway/flows', {
      body: callbackFlow(
        'wait-early',
        {},
        { before: [{ id: 'p', name: 'Pause', type: 'delay', config: { duration: '400ms' } }] },
      ),
    });
    const seen = received.length;
    const run = await call('POST', `/api/gateway/flows/${saved.json.data.id}/run?waitMs=0`, { body: { env: 'hooks' } });
    const executionId = run.json.data.executionId as string;
    let job: { body: Json } | undefined;
    for (let tries = 0; tries < 200 && job === undefined; tries++) {
      job = received.slice(seen).find((entry) => entry.path === '/jobs');
      if (job === undefined) await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const early = await deliver(job!.body.callbackUrl as string, JSON.stringify({ result: 'early' }));
    expect(early.status).toBe(202);
    expect((await execution(executionId)).status).not.toBe('Completed');
    const view = await until(executionId, ended);
    expect(view.status).toBe('Completed');
    expect(received.at(-1)?.body).toEqual({ result: 'early' });
  });

  it('times out: TimedOut with WEBHOOK_TIMEOUT, or the error branch when it is wired; a late callback is 410', async () => {
    const bare = await startWaiting(callbackFlow('wait-timeout', { timeoutMinutes: 0.003 }));
    const timedOut = await until(bare.executionId, ended);
    expect(timedOut.status).toBe('TimedOut');
    expect(timedOut.error.code).toBe('WEBHOOK_TIMEOUT');
    const late = await deliver(bare.callbackUrl, JSON.stringify({ result: 'late' }));
    expect(late.status).toBe(410);
    expect(late.json.error.code).toBe('WEBHOOK_GONE');

    const routed = await startWaiting(
      callbackFlow('wait-timeout-routed', { timeoutMinutes: 0.003 }, { errorWire: true }),
    );
    const view = await until(routed.executionId, ended);
    expect(view.status).toBe('Completed');
    expect(received.at(-1)?.body).toEqual({ gaveUp: true });
    const waitStep = (view.steps as Json[]).find((step) => step.nodeName === 'Wait');
    expect(waitStep?.error.code).toBe('WEBHOOK_TIMEOUT');
    const done = (view.steps as Json[]).find((step) => step.nodeName === 'Done');
    expect(done?.skipKind).toBe('condition');
  });

  it('gives each loop iteration its own callback URL', async () => {
    const flow = {
      name: 'wait-per-item',
      nodes: [
        { id: 'f', name: 'Items', type: 'for', config: { items: '{{flowVars.items}}', concurrency: 2 } },
        {
          id: 'j',
          name: 'StartJob',
          type: 'endpoint',
          config: {
            method: 'POST',
            url: '{{env.baseUrl}}/jobs',
            body: { callbackUrl: '{{Wait.callbackUrl}}', item: '{{Items.item}}' },
          },
        },
        { id: 'w', name: 'Wait', type: 'component-webhook', config: { mode: 'wait' } },
      ],
      connections: [
        { id: 'c1', source: 'f', sourceHandle: 'L', target: 'j' },
        { id: 'c2', source: 'j', target: 'w' },
      ],
      variables: { items: ['a', 'b'] },
    };
    const saved = await call('POST', '/api/gateway/flows', { body: flow });
    expect(saved.status).toBe(201);
    const run = await call('POST', `/api/gateway/flows/${saved.json.data.id}/run?waitMs=0`, { body: { env: 'hooks' } });
    const executionId = run.json.data.executionId as string;
    const waiting = await until(executionId, (view) => view.status === 'Waiting' && view.waits?.length === 2);
    const urls = (waiting.waits as Json[]).map((wait) => wait.callbackUrl as string);
    expect(new Set(urls).size).toBe(2);
    for (const url of urls) expect((await deliver(url, JSON.stringify({ result: url.slice(-6) }))).status).toBe(202);
    expect((await until(executionId, ended)).status).toBe('Completed');
  });
});

describe('webhook doors on a Node server, as svc serve answers them', () => {
  let server: Server;
  let port: number;
  beforeAll(async () => {
    server = createAdaptorServer({ fetch: app.fetch }) as Server;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  /** A POST over TCP: with Content-Length, or chunked (the body written in two parts, no length). */
  function post(
    path: string,
    body: string,
    headers: Record<string, string | string[]>,
    framing: 'length' | 'chunked',
  ): Promise<{ status: number; json: Json }> {
    return new Promise((resolve, reject) => {
      const sent = httpRequest(
        { host: '127.0.0.1', port, path, method: 'POST', headers: { ...headers, connection: 'close' } },
        (response) => {
          let text = '';
          response.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
          response.on('end', () => resolve({ status: response.statusCode ?? 0, json: JSON.parse(text) as Json }));
        },
      );
      sent.on('error', reject);
      if (framing === 'length') {
        sent.setHeader('content-length', Buffer.byteLength(body));
        sent.end(body);
      } else {
        sent.setHeader('transfer-encoding', 'chunked');
        sent.write(body.slice(0, Math.floor(body.length / 2)));
        sent.end(body.slice(Math.floor(body.length / 2)));
      }
    });
  }

  it('reads the exact bytes and the headers either way: declared length or chunked', async () => {
    const saved = await call('POST', '/api/gateway/flows', { body: triggerFlow('on-order-node') });
    const path = new URL(saved.json.data.webhookTriggers[0].url as string).pathname;
    for (const framing of ['length', 'chunked'] as const) {
      // Spacing the JSON does not keep is signed too: the signature is over the bytes as sent.
      const body = `{ "orderId" : "ord-${framing}",  "total": 3 }`;
      const answer = await post(path, body, { ...signed(body), 'x-id': ['a', 'b'] }, framing);
      expect(answer.status).toBe(202);
      const view = await until(answer.json.data.executionId as string, ended);
      expect(view.status).toBe('Completed');
      // A repeated header reads as the Fetch API joins it.
      expect(received.at(-1)).toEqual({ path: '/record', body: { orderId: `ord-${framing}`, requestId: 'a, b' } });
      const forged = await post(path, body, signed(body, 'not-the-secret'), framing);
      expect(forged.status).toBe(401);
    }
  });

  it('refuses a body over 1 MiB with 413 either way, and starts nothing', async () => {
    const saved = await call('POST', '/api/gateway/flows', { body: triggerFlow('on-order-node-huge') });
    const path = new URL(saved.json.data.webhookTriggers[0].url as string).pathname;
    const huge = JSON.stringify({ orderId: 'x'.repeat(1024 * 1024) });
    for (const framing of ['length', 'chunked'] as const) {
      const answer = await post(path, huge, signed(huge), framing);
      expect(answer.status).toBe(413);
      expect(answer.json.error.code).toBe('PAYLOAD_TOO_LARGE');
    }
    const listed = await call('GET', `/api/gateway/flows/${saved.json.data.id}/executions`);
    expect(listed.json.data.items).toEqual([]);
  });
});
