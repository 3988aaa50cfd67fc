import { readFileSync } from 'node:fs';
import { createEngine, type Engine } from '@svc/engine';
import { openSqliteStore } from '@svc/engine/sqlite';
import { createApp } from '@svc/gateway';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stubAuthenticator } from './stub-authenticator.js';
import { apiCaller } from './api-call.js';

const ordersSpec = readFileSync(
  new URL('../../discovery/test/fixtures/orders-testgen.openapi.yaml', import.meta.url),
  'utf8',
);

describe('REST /api/gateway/testgen/jobs', () => {
  let engine: Engine;
  let store: ReturnType<typeof openSqliteStore>;
  let app: ReturnType<typeof createApp>;
  let endpointId: string;
  const authenticator = stubAuthenticator({
    'key-a': { tenantId: 'tenant-a' },
    'key-b': { tenantId: 'tenant-b' },
    'key-a-read': { tenantId: 'tenant-a', scopes: ['catalog:read'] },
  });

  const call = apiCaller(() => app);

  beforeAll(async () => {
    store = openSqliteStore({ path: ':memory:' });
    engine = await createEngine({ store });
    app = createApp({ engine, authenticator, store });
    expect((await call('POST', '/api/gateway/catalog/import', { body: { document: ordersSpec } })).status).toBe(200);
    const page = await call('GET', '/api/gateway/catalog/endpoints?search=createOrder');
    endpointId = page.json.data.items[0].id;
  });
  afterAll(async () => {
    await engine.stop();
    await store.close();
  });

  it('answers 202 with the job, which completes with a generated suite', async () => {
    const started = await call('POST', '/api/gateway/testgen/jobs', { body: { endpointId, engine: 'schema' } });
    expect(started.status).toBe(202);
    expect(started.json.data).toMatchObject({ kind: 'testgen', input: { endpointId, engine: 'schema' } });
    expect(started.json.data).not.toHaveProperty('owner');
    expect(started.headers.get('location')).toBe(`/api/gateway/testgen/jobs/${started.json.data.id}`);

    await engine.jobs.wait('tenant-a', started.json.data.id, { timeoutMs: 10_000 });
    const read = await call('GET', `/api/gateway/testgen/jobs/${started.json.data.id}`, { key: 'key-a-read' });
    expect(read.status).toBe(200);
    expect(read.json.data.status).toBe('Completed');
    const suite = await call('GET', `/api/gateway/suites/${read.json.data.result.suiteId}`);
    expect(suite.json.data).toMatchObject({
      kind: 'generated',
      source: { endpointId, engine: 'schema', jobId: started.json.data.id },
    });
  });

  it('answers 400 UNKNOWN_ENGINE with the allowed names, 404 for an unknown endpoint, 400 for sampling over REST', async () => {
    const unknown = await call('POST', '/api/gateway/testgen/jobs', { body: { endpointId, engine: 'magic' } });
    expect(unknown.status).toBe(400);
    expect(unknown.json.error).toMatchObject({
      code: 'UNKNOWN_ENGINE',
      details: { allowed: ['schema', 'sampling', 'openai'] },
    });
    const missing = await call('POST', '/api/gateway/testgen/jobs', { body: { endpointId: 'nope', engine: 'schema' } });
    expect([missing.status, missing.json.error.code]).toEqual([404, 'ENDPOINT_NOT_FOUND']);
    const sampling = await call('POST', '/api/gateway/testgen/jobs', { body: { endpointId, engine: 'sampling' } });
    expect([sampling.status, sampling.json.error.code]).toEqual([400, 'SAMPLING_UNAVAILABLE']);
    const invalid = await call('POST', '/api/gateway/testgen/jobs', { body: { engine: 'schema' } });
    expect([invalid.status, invalid.json.error.code]).toEqual([400, 'VALIDATION_ERROR']);
  });

  it('needs catalog:write to start, and keeps jobs to their tenant', async () => {
    const refused = await call('POST', '/api/gateway/testgen/jobs', {
      body: { endpointId, engine: 'schema' },
      key: 'key-a-read',
    });
    expect([refused.status, refused.json.error.code]).toEqual([403, 'INSUFFICIENT_SCOPE']);
    const started = await call('POST', '/api/gateway/testgen/jobs', { body: { endpointId, engine: 'schema' } });
    const other = await call('GET', `/api/gateway/testgen/jobs/${started.json.data.id}`, { key: 'key-b' });
    expect([other.status, other.json.error.code]).toEqual([404, 'JOB_NOT_FOUND']);
    await engine.jobs.wait('tenant-a', started.json.data.id, { timeoutMs: 10_000 });
  });
});
