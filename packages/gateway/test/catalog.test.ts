import { readFileSync } from 'node:fs';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEngine, type Engine } from '@svc/engine';
import { openSqliteStore } from '@svc/engine/sqlite';
import { createApp } from '@svc/gateway';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnSvc } from './cli.js';
import { stubAuthenticator } from './stub-authenticator.js';
import { apiCaller, type Json } from './api-call.js';
import { fanOutSpec, schemaWeight, sharedResponsesSpec } from '../../discovery/test/helpers/fan-out-specs.js';

const swagger = readFileSync(new URL('../../discovery/test/fixtures/swagger2-shop.json', import.meta.url), 'utf8');
const tree = readFileSync(new URL('../../discovery/test/fixtures/cyclic-tree.yaml', import.meta.url), 'utf8');

describe('REST /api/gateway/catalog', () => {
  let engine: Engine;
  let store: ReturnType<typeof openSqliteStore>;
  let app: ReturnType<typeof createApp>;
  const authenticator = stubAuthenticator({
    'key-a': { tenantId: 'tenant-a' },
    'key-b': { tenantId: 'tenant-b' },
    'key-a-read': { tenantId: 'tenant-a', scopes: ['catalog:read'] },
    'key-a-flows': { tenantId: 'tenant-a', scopes: ['flows:read', 'flows:write'] },
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

  it('imports a Swagger 2.0 document and lists, searches and reads its endpoints in the tenant only', async () => {
    const imported = await call('POST', '/api/gateway/catalog/import', { body: { document: swagger, name: 'shop' } });
    expect(imported.status, JSON.stringify(imported.json)).toBe(200);
    expect(imported.json.data).toMatchObject({
      spec: { id: 'shop', title: 'Shop', sourceVersion: '2.0', endpointCount: 4 },
      added: ['get_orders', 'createOrder', 'getOrder', 'attachFile'],
      removed: [],
      changed: [],
    });
    const all = await call('GET', '/api/gateway/catalog/endpoints?limit=2', { key: 'key-a-read' });
    expect(all.json.data.items.map((item: Json) => item.id)).toEqual(['get_orders', 'createOrder']);
    expect(typeof all.json.data.nextCursor).toBe('string');
    const next = await call('GET', `/api/gateway/catalog/endpoints?limit=2&cursor=${all.json.data.nextCursor}`);
    expect(next.json.data.items.map((item: Json) => item.id)).toEqual(['getOrder', 'attachFile']);
    const found = await call('GET', '/api/gateway/catalog/endpoints?search=attach');
    expect(found.json.data.items).toEqual([
      expect.objectContaining({ id: 'attachFile', specId: 'shop', method: 'POST' }),
    ]);
    const one = await call('GET', '/api/gateway/catalog/endpoints/getOrder');
    expect(one.json.data).toMatchObject({
      path: '/orders/{orderId}',
      servers: ['https://shop.example.com/v2', 'http://shop.example.com/v2'],
    });
    expect((await call('GET', '/api/gateway/catalog/endpoints', { key: 'key-b' })).json.data.items).toEqual([]);
    const missing = await call('GET', '/api/gateway/catalog/endpoints/getOrder', { key: 'key-b' });
    expect(missing).toMatchObject({ status: 404, json: { success: false, error: { code: 'ENDPOINT_NOT_FOUND' } } });
  });

  it('answers a broken document with 400 INVALID_OPENAPI and its problems, and a bad body with VALIDATION_ERROR', async () => {
    const broken = await call('POST', '/api/gateway/catalog/import', {
      body: { document: '{"openapi": "3.0.0", "paths": {}}' },
    });
    expect(broken.status).toBe(400);
    expect(broken.json.error).toMatchObject({
      code: 'INVALID_OPENAPI',
      details: { problems: [{ path: '#/info', message: 'info is missing' }] },
    });
    const badBody = await call('POST', '/api/gateway/catalog/import', { body: { text: 'x' } });
    expect(badBody).toMatchObject({ status: 400, json: { error: { code: 'VALIDATION_ERROR' } } });
  });

  it('is described in the gateway’s OpenAPI document with its scopes and the same body schema', async () => {
    const document = (await (await app.request('/api/openapi.json')).json()) as Json;
    expect(document.paths['/api/gateway/catalog/import'].post.security[0]).toEqual({ oauth2: ['catalog:write'] });
    expect(document.paths['/api/gateway/catalog/endpoints'].get.security[0]).toEqual({ oauth2: ['catalog:read'] });
    expect(
      document.paths['/api/gateway/catalog/endpoints'].get.parameters.map((parameter: Json) => parameter.name),
    ).toEqual(['search', 'specId', 'limit', 'cursor']);
    expect(document.components.schemas.ImportOpenApiBody).toMatchObject({
      required: ['document'],
      additionalProperties: false,
    });
    expect(document.paths['/api/gateway/catalog/import'].post.responses['400'].description).toContain(
      'INVALID_OPENAPI',
    );
  });

  it('keeps what a document of schemas that fan out stands for within the caps, and answers 400 where no cutting would', async () => {
    // 20 operations whose one response holds 2,000 × 2,000 values written out: ran the process out of memory.
    const fan = await call('POST', '/api/gateway/catalog/import', {
      key: 'key-b',
      body: { document: fanOutSpec(2000, 20) },
    });
    expect(fan.status, fan.text.slice(0, 300)).toBe(200);
    expect(fan.json.data.spec.endpointCount).toBe(20);
    const one = await call('GET', '/api/gateway/catalog/endpoints/get_f19', { key: 'key-b' });
    expect(schemaWeight(one.json.data)).toBeLessThanOrEqual(10_000);
    expect(one.text.length).toBeLessThan(200_000);
    const shared = await call('POST', '/api/gateway/catalog/import', {
      key: 'key-b',
      body: { document: sharedResponsesSpec(1_000, 300), name: 'shared' },
    });
    expect(shared.status).toBe(400);
    expect(shared.json.error).toMatchObject({
      code: 'INVALID_OPENAPI',
      details: { problems: [{ path: expect.stringMatching(/^#\/paths\/~1p\d+\/get$/) }] },
    });
  });

  it('requires catalog:write to import and catalog:read to list', async () => {
    const readOnly = await call('POST', '/api/gateway/catalog/import', { key: 'key-a-read', body: { document: tree } });
    expect(readOnly).toMatchObject({ status: 403, json: { error: { code: 'INSUFFICIENT_SCOPE' } } });
    const flowsOnly = await call('GET', '/api/gateway/catalog/endpoints', { key: 'key-a-flows' });
    expect(flowsOnly).toMatchObject({ status: 403, json: { error: { code: 'INSUFFICIENT_SCOPE' } } });
  });
});

describe('svc catalog import | list', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'svc-catalog-cli-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('imports a file into the embedded store, says what a re-import changed, and lists with a search', async () => {
    const env = { SVC_DB: join(dir, 'svc.db') };
    const file = join(dir, 'tree.yaml');
    writeFileSync(file, tree);
    const first = await spawnSvc(['catalog', 'import', file], env).done;
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    expect(first.stdout).toContain('imported "Tree" 1 as tree: 2 endpoint(s)');
    expect(first.stdout).toContain('added: get_nodes_nodeid, replaceNode');

    writeFileSync(file, tree.replace('operationId: replaceNode', 'operationId: putNode'));
    const second = await spawnSvc(['catalog', 'import', file, '--json'], env).done;
    expect(second.code).toBe(0);
    expect(JSON.parse(second.stdout)).toMatchObject({ added: ['putNode'], removed: ['replaceNode'], changed: [] });

    const listed = await spawnSvc(['catalog', 'list', '--search', 'PUT'], env).done;
    expect(listed.code).toBe(0);
    expect(listed.stdout.trim().split('\n')).toEqual([
      expect.stringMatching(/^PUT\s+\/nodes\/\{nodeId\}\s+putNode\s+\(tree\)$/),
    ]);
    const json = JSON.parse((await spawnSvc(['catalog', 'list', '--json'], env).done).stdout);
    expect(json.items.map((item: Json) => item.id)).toEqual(['get_nodes_nodeid', 'putNode']);
  });

  it('exits 1 with every problem of a broken document on stderr', async () => {
    const file = join(dir, 'broken.yaml');
    writeFileSync(file, 'openapi: 3.0.0\ninfo: { version: "1" }\n');
    const result = await spawnSvc(['catalog', 'import', file], { SVC_DB: join(dir, 'svc.db') }).done;
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('INVALID_OPENAPI');
    expect(result.stderr).toContain('#/info/title: info.title is missing');
    expect(result.stderr).toContain('#/paths: paths is missing');
  });
});
