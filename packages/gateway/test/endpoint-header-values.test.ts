import { createEgressPolicy, createEngine, type Engine } from '@svc/engine';
import { openSqliteStore } from '@svc/engine/sqlite';
import { createApp } from '@svc/gateway';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiCaller, type Json } from './api-call.js';
import { stubAuthenticator } from './stub-authenticator.js';

let store: ReturnType<typeof openSqliteStore>;
let engine: Engine;
let app: ReturnType<typeof createApp>;
const call = apiCaller(() => app, 'key');

beforeAll(async () => {
  store = openSqliteStore({ path: ':memory:' });
  engine = await createEngine({ store, egress: createEgressPolicy({ mode: 'service' }) });
  app = createApp({ engine, authenticator: stubAuthenticator({ key: { tenantId: 'tenant-a' } }) });
});

afterAll(async () => {
  await engine?.stop();
  await store?.close();
});

const callWith = (headers: Record<string, string>, pollingHeaders?: Record<string, string>) => ({
  name: `headers ${JSON.stringify([headers, pollingHeaders])}`,
  nodes: [
    {
      id: 'c',
      name: 'Call',
      type: 'endpoint',
      config: {
        url: 'https://api.example.com/jobs',
        headers,
        ...(pollingHeaders === undefined
          ? {}
          : {
              polling: {
                request: { url: 'https://api.example.com/jobs/1', headers: pollingHeaders },
                stopWhen: [{ target: 'body.done', operator: 'EXISTS' }],
              },
            }),
      },
    },
  ],
});

describe('endpoint header values', () => {
  it('refuses a literal value no request could send (☃, a control character) with 400 naming the header', async () => {
    for (const value of ['☃', 'a\u0001b']) {
      const refused = await call('POST', '/api/gateway/flows', { body: callWith({ 'X-Note': value }) });
      expect(refused.status, JSON.stringify(value)).toBe(400);
      expect(refused.json.error.code).toBe('VALIDATION_ERROR');
      expect(refused.json.error.details.problems.map((problem: Json) => problem.path)).toEqual([
        'nodes[0].config.headers["X-Note"]',
      ]);
    }
    const polling = await call('POST', '/api/gateway/flows', { body: callWith({}, { 'X-Note': 'a\nb' }) });
    expect(polling.status).toBe(400);
    expect(polling.json.error.details.problems.map((problem: Json) => problem.path)).toEqual([
      'nodes[0].config.polling.request.headers["X-Note"]',
    ]);

    // A tab, Latin-1 (obs-text) and templates, which resolve when the node runs, are taken.
    const saved = await call('POST', '/api/gateway/flows', {
      body: callWith({ 'X-Note': 'café\tok', Authorization: 'Bearer {{env.token}}' }),
    });
    expect(saved.status, JSON.stringify(saved.json)).toBe(201);
  });
});
