import { createEngine, type Engine } from '@svc/engine';
import { openSqliteStore } from '@svc/engine/sqlite';
import { createApp } from '@svc/gateway';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stubAuthenticator } from './stub-authenticator.js';
import { apiCaller, type Json } from './api-call.js';

/*
 * The REST doors a pipeline's `svc` uses in remote mode: saving flows and suites by name
 * (`?upsert=true`, flows and suites as code) and listing the tenant's executions.
 */

function flow(name: string, url = 'http://127.0.0.1:9/x') {
  return { name, nodes: [{ id: 'n1', name: 'Call', type: 'endpoint', config: { url } }], connections: [] };
}

describe('flows and suites as code over REST', () => {
  let store: ReturnType<typeof openSqliteStore>;
  let engine: Engine;
  let app: ReturnType<typeof createApp>;
  const authenticator = stubAuthenticator({
    'key-a': { tenantId: 'tenant-a' },
    'key-b': { tenantId: 'tenant-b' },
    'key-c': { tenantId: 'tenant-c' },
    'key-a-run': { tenantId: 'tenant-a', scopes: ['suites:read', 'suites:run', 'flows:read'] },
  });

  const call = apiCaller(() => app);

  beforeAll(async () => {
    store = openSqliteStore({ path: ':memory:' });
    engine = await createEngine({ store });
    app = createApp({ engine, authenticator, store });
  });
  afterAll(async () => {
    await engine?.stop();
    await store?.close();
  });

  it('saves a flow by name: created once, a new version only when it changed', async () => {
    const first = await call('POST', '/api/gateway/flows?upsert=true', { body: flow('as-code') });
    expect(first.status).toBe(200);
    expect(first.json.data).toMatchObject({ name: 'as-code', version: 1 });
    const again = await call('POST', '/api/gateway/flows?upsert=true', { body: flow('as-code') });
    expect(again.json.data).toMatchObject({ id: first.json.data.id, version: 1 });
    const changed = await call('POST', '/api/gateway/flows?upsert=true', {
      body: flow('as-code', 'http://127.0.0.1:9/y'),
    });
    expect(changed.json.data).toMatchObject({ id: first.json.data.id, version: 2 });
    // Without the flag, a second flow of that name is refused as before.
    expect((await call('POST', '/api/gateway/flows', { body: flow('as-code') })).status).toBe(409);
  });

  it('creates a flow again under the id of one deleted, by POST and by upsert, keeping what its runs ran', async () => {
    // A tenant of its own, so that its run is not among the executions other tests list.
    const id = 'flw_mine_aaaaaaaaaaaaaaa';
    const first = await call('POST', '/api/gateway/flows', { key: 'key-c', body: { id, ...flow('mine') } });
    expect(first.status, JSON.stringify(first.json)).toBe(201);
    const run = await call('POST', `/api/gateway/flows/${id}/run?waitMs=5000`, { key: 'key-c', body: {} });
    const executionId = run.json.data.executionId as string;
    expect((await call('DELETE', `/api/gateway/flows/${id}`, { key: 'key-c' })).status).toBe(200);
    expect((await call('GET', `/api/gateway/flows/${id}`, { key: 'key-c' })).status).toBe(404);

    const again = await call('POST', '/api/gateway/flows', {
      key: 'key-c',
      body: { id, ...flow('mine', 'http://127.0.0.1:9/again') },
    });
    expect(again.status, JSON.stringify(again.json)).toBe(201);
    expect(again.json.data).toMatchObject({ id, name: 'mine', version: 2 });
    expect(again.headers.get('etag')).toBe('"2"');
    expect(Date.parse(again.json.data.createdAt)).toBeGreaterThanOrEqual(Date.parse(first.json.data.createdAt));
    expect((await call('GET', `/api/gateway/flows/${id}`, { key: 'key-c' })).json.data).toMatchObject({
      version: 2,
      createdAt: again.json.data.createdAt,
    });
    const listed = (await call('GET', '/api/gateway/flows?search=mine', { key: 'key-c' })).json.data.items;
    expect(listed.map((item: Json) => [item.id, item.version])).toEqual([[id, 2]]);

    expect((await call('DELETE', `/api/gateway/flows/${id}`, { key: 'key-c' })).status).toBe(200);
    const upserted = await call('POST', '/api/gateway/flows?upsert=true', {
      key: 'key-c',
      body: { id, ...flow('mine') },
    });
    expect(upserted.status, JSON.stringify(upserted.json)).toBe(200);
    expect(upserted.json.data).toMatchObject({ id, version: 3 });
    // The run of the first flow still names the version it ran, and that version is kept.
    expect((await call('GET', `/api/gateway/executions/${executionId}`, { key: 'key-c' })).json.data).toMatchObject({
      flowId: id,
      flowVersion: 1,
    });
    expect(await store.flows.getVersion('tenant-c', id, 1)).toMatchObject({ nodes: flow('mine').nodes });
    expect(await store.flows.getVersion('tenant-c', id, 2)).toMatchObject({
      nodes: flow('mine', 'http://127.0.0.1:9/again').nodes,
    });
    // A live flow's id is still refused.
    const taken = await call('POST', '/api/gateway/flows', { key: 'key-c', body: { id, ...flow('mine-too') } });
    expect(taken.status).toBe(409);
    expect(taken.json.error.code).toBe('CONFLICT');
  });

  it('refuses a flow that does not validate with every problem, and a bad flag, saving nothing', async () => {
    const bad = await call('POST', '/api/gateway/flows?upsert=true', {
      body: { name: 'broken', nodes: [{ id: 'n1', name: 'A', type: 'nope' }] },
    });
    expect(bad.status).toBe(400);
    expect(bad.json.error.code).toBe('VALIDATION_ERROR');
    expect(bad.json.error.details.problems[0].path).toBe('nodes[0].type');
    const flag = await call('POST', '/api/gateway/flows?upsert=yes', { body: flow('broken') });
    expect(flag.status).toBe(400);
    expect(flag.json.error.message).toMatch(/upsert/);
    const listed = await call('GET', '/api/gateway/flows?search=broken');
    expect(listed.json.data.items).toEqual([]);
  });

  it('saves a suite by name: 201 when created, 200 after, the definition replaced only when it changed', async () => {
    const one = (await call('POST', '/api/gateway/flows?upsert=true', { body: flow('one') })).json.data.id as string;
    const two = (await call('POST', '/api/gateway/flows?upsert=true', { body: flow('two') })).json.data.id as string;
    const created = await call('POST', '/api/gateway/suites?upsert=true', { body: { name: 'gate', flowIds: [one] } });
    expect(created.status).toBe(201);
    expect(created.headers.get('location')).toBe(`/api/gateway/suites/${created.json.data.id}`);
    const same = await call('POST', '/api/gateway/suites?upsert=true', { body: { name: 'gate', flowIds: [one] } });
    expect(same.status).toBe(200);
    expect(same.json.data.updatedAt).toBe(created.json.data.updatedAt);
    const changed = await call('POST', '/api/gateway/suites?upsert=true', {
      body: { name: 'gate', flowIds: [one, two], mode: 'parallel' },
    });
    expect(changed.json.data).toMatchObject({ id: created.json.data.id, flowIds: [one, two], mode: 'parallel' });
    const missing = await call('POST', '/api/gateway/suites?upsert=true', {
      body: { name: 'gate', flowIds: [one, 'flw_nope'] },
    });
    expect(missing.status).toBe(400);
    expect(missing.json.error.details.problems).toEqual([expect.objectContaining({ path: 'flowIds[1]' })]);
    expect((await call('GET', `/api/gateway/suites/${created.json.data.id}`)).json.data.flowIds).toEqual([one, two]);
    // Saving decides what a gate checks: a client that may only run suites may not.
    const runner = await call('POST', '/api/gateway/suites?upsert=true', {
      body: { name: 'gate', flowIds: [one] },
      key: 'key-a-run',
    });
    expect(runner.status).toBe(403);
  });

  it("lists the tenant's executions newest first, of one flow or with one status, and never another tenant's", async () => {
    const id = (await call('POST', '/api/gateway/flows?upsert=true', { body: flow('listed') })).json.data.id as string;
    const ran: string[] = [];
    for (let run = 0; run < 3; run += 1) {
      ran.push((await call('POST', `/api/gateway/flows/${id}/run`, { body: {} })).json.data.executionId as string);
    }
    const all = await call('GET', '/api/gateway/executions?limit=2', { key: 'key-a-run' });
    expect(all.status).toBe(200);
    expect(all.json.data.items.map((item: Json) => item.executionId)).toEqual([ran[2], ran[1]]);
    expect(all.json.data.items[0].steps).toBeUndefined();
    const next = await call('GET', `/api/gateway/executions?limit=2&cursor=${all.json.data.nextCursor}`);
    expect(next.json.data.items.map((item: Json) => item.executionId)).toEqual([ran[0]]);
    const failed = await call('GET', `/api/gateway/executions?flowId=${id}&status=Failed`);
    expect(failed.json.data.items).toHaveLength(3);
    expect((await call('GET', `/api/gateway/executions?flowId=${id}&status=Completed`)).json.data.items).toEqual([]);
    const bad = await call('GET', '/api/gateway/executions?status=Done');
    expect(bad.status).toBe(400);
    expect(bad.json.error.details.problems[0].path).toBe('query.status');
    expect((await call('GET', '/api/gateway/executions', { key: 'key-b' })).json.data.items).toEqual([]);
  });

  it('is described in the OpenAPI document', async () => {
    const document = (await (await app.request('/api/openapi.json')).json()) as Json;
    expect(document.paths['/api/gateway/executions'].get.parameters.map((p: Json) => p.name)).toEqual(
      expect.arrayContaining(['flowId', 'status', 'limit', 'cursor']),
    );
    expect(document.paths['/api/gateway/flows'].post.parameters.map((p: Json) => p.name)).toContain('upsert');
    expect(document.paths['/api/gateway/suites'].post.responses['200']).toBeDefined();
  });
});
