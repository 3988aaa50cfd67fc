import { createEngine, flowDocumentSchema, type Engine } from '@svc/engine';
import { openSqliteStore } from '@svc/engine/sqlite';
import { createApp } from '@svc/gateway';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiCaller, type Json } from './api-call.js';
import { stubAuthenticator } from './stub-authenticator.js';

const API_TOKEN = 'SUPER-secret-api-token-0c7e';

/** What the engine told the operator. */
const warnings: Json[] = [];
let engine: Engine;
let store: ReturnType<typeof openSqliteStore>;
let app: ReturnType<typeof createApp>;

beforeAll(async () => {
  store = openSqliteStore({ path: ':memory:' });
  engine = await createEngine({
    store,
    publicUrl: 'https://svc.example.test',
    logger: { debug() {}, info() {}, warn: (message, fields) => warnings.push({ message, ...fields }), error() {} },
  });
  app = createApp({
    engine,
    authenticator: stubAuthenticator({
      'key-a': { tenantId: 'tenant-a' },
      'key-writer': { tenantId: 'tenant-a', scopes: ['flows:read', 'flows:write'] },
    }),
  });
  const prod = await call('POST', '/api/gateway/environments', {
    body: { name: 'prod', variables: { apiToken: API_TOKEN }, secretKeys: ['apiToken'] },
  });
  expect(prod.status).toBe(201);
});

afterAll(async () => {
  await engine.stop();
  await store.close();
});

const call = apiCaller(() => app);

/** A POST as another system sends it: raw bytes, no credentials of ours. */
async function deliver(path: string, body: string, headers: Record<string, string> = {}) {
  const response = await app.request(path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body,
  });
  const text = await response.text();
  return { status: response.status, json: JSON.parse(text) as Json, text };
}

function triggerFlow(name: string, config: Json) {
  return {
    name,
    nodes: [{ id: 't', name: 'Hook', type: 'component-webhook', config: { mode: 'trigger', ...config } }],
    connections: [],
  };
}

async function saveTrigger(name: string, config: Json): Promise<{ id: string; path: string }> {
  const saved = await call('POST', '/api/gateway/flows', { body: triggerFlow(name, config) });
  expect(saved.status).toBe(201);
  return { id: saved.json.data.id as string, path: saved.json.data.webhookTriggers[0].path as string };
}

async function executionsOf(flowId: string): Promise<Json[]> {
  return (await call('GET', `/api/gateway/flows/${flowId}/executions`)).json.data.items as Json[];
}

const nested = (levels: number) => '['.repeat(levels) + ']'.repeat(levels);

describe('a Pre-script that fails', () => {
  it('answers the sender a fixed reason, and tells the operator the error code but not its text, which may hold the secret', async () => {
    const flow = await saveTrigger('pre-script-throws', {
      environment: 'prod',
      verification: {
        method: 'Pre-script',
        secret: '{{env.apiToken}}',
        script: '(function(){ throw new Error(secret.split("").join("-")) })()',
      },
    });
    const answer = await deliver(`/webhooks/trigger/${flow.path}`, '{"event":"x"}');
    expect(answer.status).toBe(401);
    expect(answer.json.error).toEqual({
      code: 'WEBHOOK_UNVERIFIED',
      message: 'the request could not be verified: the pre-script failed',
    });
    expect(answer.text).not.toContain('S-U-P-E-R');
    expect(answer.text).not.toContain(API_TOKEN);
    expect(warnings.at(-1)).toMatchObject({
      message: 'a webhook request failed verification',
      flowId: flow.id,
      method: 'Pre-script',
      detail: expect.stringMatching(/^SANDBOX_ERROR: its message is withheld/),
    });
    expect(JSON.stringify(warnings)).not.toContain('S-U-P-E-R');
    expect(await executionsOf(flow.id)).toEqual([]);
  });

  it('tells the sender nothing of a thrown value either', async () => {
    const flow = await saveTrigger('pre-script-throws-value', {
      environment: 'prod',
      verification: {
        method: 'Pre-script',
        secret: '{{env.apiToken}}',
        script: '(() => { throw secret.slice(0, 9) })()',
      },
    });
    const answer = await deliver(`/webhooks/trigger/${flow.path}`, '{}');
    expect(answer.status).toBe(401);
    expect(answer.text).not.toContain('SUPER-sec');
  });
});

describe('JSON nested past the limit at the webhook doors', () => {
  it('answers a trigger 400 VALIDATION_ERROR with where, before verification, and starts nothing', async () => {
    const open = await saveTrigger('deep-open', { verification: { method: 'None' } });
    const signed = await saveTrigger('deep-signed', {
      environment: 'prod',
      verification: { method: 'HMAC-SHA256', secret: '{{env.apiToken}}' },
    });
    for (const flow of [open, signed]) {
      const answer = await deliver(`/webhooks/trigger/${flow.path}`, nested(5_000));
      expect(answer.status).toBe(400);
      expect(answer.json.error.code).toBe('VALIDATION_ERROR');
      expect(answer.json.error.details.problems[0]).toMatchObject({ code: 'TOO_DEEP' });
      expect(answer.json.error.details.problems[0].path).toMatch(/^body\[0\]\[0\]/);
      expect(await executionsOf(flow.id)).toEqual([]);
    }
    expect((await deliver(`/webhooks/trigger/${open.path}`, nested(65))).status).toBe(400);
    // At the limit, and brackets inside strings, are a body like any other.
    expect((await deliver(`/webhooks/trigger/${open.path}`, nested(64))).status).toBe(202);
    expect((await deliver(`/webhooks/trigger/${open.path}`, JSON.stringify({ text: '['.repeat(500) }))).status).toBe(
      202,
    );
    // Broken JSON that only looks deep is refused as broken once verified, as before.
    expect((await deliver(`/webhooks/trigger/${open.path}`, '['.repeat(500))).json.error.code).toBe('MALFORMED_JSON');
  });

  it('answers a callback 400 and leaves the wait waiting for a callback it can keep', async () => {
    const saved = await call('POST', '/api/gateway/flows', {
      body: {
        name: 'deep-callback',
        nodes: [{ id: 'w', name: 'Wait', type: 'component-webhook', config: { mode: 'wait' } }],
        connections: [],
      },
    });
    expect(saved.status).toBe(201);
    const run = await call('POST', `/api/gateway/flows/${saved.json.data.id}/run?waitMs=0`, { body: {} });
    const executionId = run.json.data.executionId as string;
    let view: Json = {};
    for (let tries = 0; tries < 250 && view.status !== 'Waiting'; tries++) {
      if (tries > 0) await new Promise((resolve) => setTimeout(resolve, 20));
      view = (await call('GET', `/api/gateway/executions/${executionId}`)).json.data as Json;
    }
    expect(view.status).toBe('Waiting');
    const callbackPath = new URL(view.waits[0].callbackUrl as string).pathname;

    const deep = await deliver(callbackPath, nested(5_000));
    expect(deep.status).toBe(400);
    expect(deep.json.error.code).toBe('VALIDATION_ERROR');
    expect(deep.json.error.message).toContain('nests deeper than 64 levels');
    expect((await call('GET', `/api/gateway/executions/${executionId}`)).json.data.status).toBe('Waiting');
    expect((await deliver(callbackPath, '{"ok":true}')).status).toBe(202);
  });
});

describe('trigger paths with . or .. segments', () => {
  it('are refused when the flow is saved, naming the field', async () => {
    for (const path of ['../x', 'zz/../orders/created', 'a/./b', '.', 'x/..']) {
      const answer = await call('POST', '/api/gateway/flows', { body: triggerFlow(`dots ${path}`, { path }) });
      expect([path, answer.status, answer.json.error.code]).toEqual([path, 400, 'VALIDATION_ERROR']);
      expect(answer.json.error.details.problems).toEqual([
        expect.objectContaining({
          path: 'nodes[0].config.path',
          message: expect.stringContaining('none of them . or ..'),
        }),
      ]);
    }
    for (const path of ['..well-known', 'v1.2/orders...', 'a/.b']) {
      expect((await call('POST', '/api/gateway/flows', { body: triggerFlow(`dotted ${path}`, { path }) })).status).toBe(
        201,
      );
    }
  });

  it('stored before the rule: the flow reads, its door answers 404, a run and a save say what to correct', async () => {
    // As an older version saved it, past today's validation.
    const document = triggerFlow('saved-with-dots', { path: 'zz/../orders/created' });
    const stored = await store.flows.create('tenant-a', flowDocumentSchema.parse(document));
    await store.webhooks.replaceTriggers('tenant-a', stored.id, [{ nodeId: 't', path: 'zz/../orders/created' }]);

    const read = await call('GET', `/api/gateway/flows/${stored.id}`);
    expect(read.status).toBe(200);
    expect(read.json.data.webhookTriggers[0].path).toBe('zz/../orders/created');
    expect((await call('GET', '/api/gateway/flows')).status).toBe(200);

    await expect(
      engine.webhooks.trigger('zz/../orders/created', {
        rawBody: new Uint8Array(),
        headers: {},
        contentType: 'application/json',
      }),
    ).rejects.toMatchObject({ code: 'WEBHOOK_NOT_FOUND' });

    const run = await call('POST', `/api/gateway/flows/${stored.id}/run`, { body: {} });
    expect(run.status).toBe(400);
    expect(run.json.error.code).toBe('VALIDATION_ERROR');
    expect(run.json.error.details.problems[0].path).toBe('nodes[0].config.path');

    const again = await call('PUT', `/api/gateway/flows/${stored.id}`, { body: document });
    expect(again.status).toBe(400);
    expect(again.json.error.details.problems[0].path).toBe('nodes[0].config.path');
  });
});

describe('a webhook trigger that names a stored environment', () => {
  const withEnvironment = (name: string) => triggerFlow(name, { environment: 'prod' });

  it('needs executions:run as well as flows:write to create, upsert or update', async () => {
    const refused = await call('POST', '/api/gateway/flows', { body: withEnvironment('env-hook'), key: 'key-writer' });
    expect(refused.status).toBe(403);
    expect(refused.json.error).toMatchObject({
      code: 'INSUFFICIENT_SCOPE',
      message: expect.stringContaining('the webhook trigger "Hook" starts runs with the stored environment "prod"'),
      details: { requiredScope: 'executions:run', path: 'nodes[0].config.environment' },
    });
    const upsert = await call('POST', '/api/gateway/flows?upsert=true', {
      body: withEnvironment('env-hook'),
      key: 'key-writer',
    });
    expect(upsert.status).toBe(403);

    // Without the environment the writer saves it; naming one afterwards is refused the same way.
    const plain = await call('POST', '/api/gateway/flows', { body: triggerFlow('env-hook', {}), key: 'key-writer' });
    expect(plain.status).toBe(201);
    const update = await call('PUT', `/api/gateway/flows/${plain.json.data.id}`, {
      body: withEnvironment('env-hook'),
      key: 'key-writer',
    });
    expect(update.status).toBe(403);
    expect(update.json.error.details.requiredScope).toBe('executions:run');
    expect((await call('GET', `/api/gateway/flows/${plain.json.data.id}`)).json.data.version).toBe(1);

    // A wait reads its run's environment, not a stored one: flows:write is enough.
    const wait = await call('POST', '/api/gateway/flows', {
      body: {
        name: 'env-wait',
        nodes: [{ id: 'w', name: 'Wait', type: 'component-webhook', config: { mode: 'wait' } }],
        connections: [],
      },
      key: 'key-writer',
    });
    expect(wait.status).toBe(201);

    const granted = await call('PUT', `/api/gateway/flows/${plain.json.data.id}`, {
      body: withEnvironment('env-hook'),
    });
    expect(granted.status).toBe(200);
  });
});
