import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEngine } from '@svc/engine';
import { openSqliteStore } from '@svc/engine/sqlite';
import { createLocalApi, createRemoteApi } from '@svc/mcp';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { connect, openMemoryEngine, structured, textOf, type Connected } from './helpers.js';

const shopYaml = (extra = '') => `openapi: 3.0.3
info:
  title: Shop API
  version: "1.0"
servers:
  - url: https://shop.example.com
paths:
  /orders:
    post:
      operationId: createOrder
      summary: Create an order
      tags: [orders]
      requestBody:
        content:
          application/json:
            schema: { $ref: '#/components/schemas/Order' }
      responses:
        '201': { description: created }
  /orders/{orderId}:
    get:
      summary: Read an order
      parameters:
        - { name: orderId, in: path, required: true, schema: { type: string } }
        - { name: expand, in: query, schema: { type: boolean } }
      responses:
        '200': { description: the order }
${extra}components:
  schemas:
    Order: { type: object, properties: { customerId: { type: string } } }
`;

describe('catalog tools over a real MCP client (local mode)', () => {
  let memory: Awaited<ReturnType<typeof openMemoryEngine>>;
  let mcp: Connected;
  let dir: string;
  beforeEach(async () => {
    memory = await openMemoryEngine();
    mcp = await connect(memory.api);
    dir = mkdtempSync(join(tmpdir(), 'svc-catalog-'));
  });
  afterEach(async () => {
    await mcp.close();
    await memory.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('imports a document given as text, lists its endpoints, and answers what a re-import changed', async () => {
    const first = await mcp.call('svc_import_openapi', { document: shopYaml() });
    expect(first.isError).toBeFalsy();
    expect(structured(first)).toEqual({
      spec: {
        id: 'shop-api',
        name: 'Shop API',
        title: 'Shop API',
        version: '1.0',
        sourceVersion: '3.0',
        endpointCount: 2,
      },
      added: ['createOrder', 'get_orders_orderid'],
      removed: [],
      changed: [],
    });
    expect(textOf(first)).toContain('Imported "Shop API" 1.0 as spec shop-api: 2 endpoint(s).');

    const list = await mcp.call('svc_list_endpoints', { search: 'order' });
    expect(structured(list)).toEqual({
      hasMore: false,
      endpoints: [
        {
          id: 'createOrder',
          specId: 'shop-api',
          method: 'POST',
          path: '/orders',
          summary: 'Create an order',
          tags: ['orders'],
          parameters: [],
          hasRequestBody: true,
        },
        {
          id: 'get_orders_orderid',
          specId: 'shop-api',
          method: 'GET',
          path: '/orders/{orderId}',
          summary: 'Read an order',
          tags: [],
          parameters: ['path:orderId', 'query:expand?'],
          hasRequestBody: false,
        },
      ],
    });
    expect(textOf(list)).toMatch(/get_orders_orderid\s+GET\s+\/orders\/\{orderId\}\s+shop-api\s+Read an order/);

    const file = join(dir, 'shop.yaml');
    writeFileSync(
      file,
      shopYaml(
        "  /health:\n    get:\n      operationId: health\n      responses:\n        '200': { description: ok }\n",
      ).replace('Create an order', 'Place an order'),
    );
    const second = await mcp.call('svc_import_openapi', { path: file });
    expect(structured(second)).toMatchObject({ added: ['health'], removed: [], changed: ['createOrder'] });
    expect(structured(await mcp.call('svc_list_endpoints', { search: 'HEALTH' }))).toMatchObject({
      endpoints: [{ id: 'health' }],
    });
  });

  it('answers a broken document with INVALID_OPENAPI and every problem, and imports nothing', async () => {
    const broken = shopYaml()
      .replace("$ref: '#/components/schemas/Order'", "$ref: '#/components/schemas/Gone'")
      .replace('  title: Shop API\n', '');
    const result = await mcp.call('svc_import_openapi', { document: broken });
    expect(result.isError).toBe(true);
    const error = structured<{ error: { code: string; problems: Array<{ path: string; message: string }> } }>(
      result,
    ).error;
    expect(error.code).toBe('INVALID_OPENAPI');
    expect(error.problems.map((problem) => problem.path)).toEqual([
      '#/info/title',
      '#/paths/~1orders/post/requestBody/content/application~1json/schema',
    ]);
    expect(textOf(result)).toContain('the OpenAPI document is not valid (2 problems)');
    expect(textOf(await mcp.call('svc_list_endpoints', {}))).toContain('The catalog is empty');
  });

  it('needs exactly one of document and path, and says when a file cannot be read', async () => {
    const neither = await mcp.call('svc_import_openapi', {});
    expect(structured(neither)).toMatchObject({ error: { code: 'VALIDATION_ERROR' } });
    const both = await mcp.call('svc_import_openapi', { document: shopYaml(), path: join(dir, 'x.yaml') });
    expect(structured(both)).toMatchObject({ error: { code: 'VALIDATION_ERROR' } });
    const missing = await mcp.call('svc_import_openapi', { path: join(dir, 'missing.yaml') });
    expect(structured(missing)).toMatchObject({
      error: { code: 'FILE_NOT_READABLE', message: expect.stringContaining('no such file') },
    });
  });

  it('reads regular files only (a FIFO would never end), and never quotes a file it cannot parse', async () => {
    const fifo = join(dir, 'spec.fifo');
    execFileSync('mkfifo', [fifo]);
    const pipe = await mcp.call('svc_import_openapi', { path: fifo });
    expect(structured(pipe)).toMatchObject({
      error: { code: 'FILE_NOT_READABLE', message: expect.stringContaining('not a regular file') },
    });
    const secretLike = join(dir, 'credentials');
    writeFileSync(secretLike, 'a: 1\n\tapi_key: SECRETKEY123\n');
    const yaml = await mcp.call('svc_import_openapi', { path: secretLike });
    expect(structured(yaml)).toMatchObject({ error: { code: 'INVALID_OPENAPI' } });
    expect(JSON.stringify(yaml)).toMatch(/line 2, column 1/);
    expect(JSON.stringify(yaml)).not.toContain('SECRETKEY');
    writeFileSync(secretLike, '{"api_key": SECRETKEY123}');
    const json = await mcp.call('svc_import_openapi', { path: secretLike });
    expect(structured(json)).toMatchObject({ error: { code: 'INVALID_OPENAPI' } });
    expect(JSON.stringify(json)).not.toContain('SECRETKEY');
  });
});

describe('catalog tools in remote mode', () => {
  it('refuses a local path, since the gateway cannot read this machine’s files', async () => {
    const api = createRemoteApi({ baseUrl: 'http://127.0.0.1:9' });
    const mcp = await connect(api);
    try {
      const result = await mcp.call('svc_import_openapi', { path: '/etc/hostname' });
      expect(structured(result)).toMatchObject({ error: { code: 'PATH_NOT_SUPPORTED' } });
    } finally {
      await mcp.close();
    }
  });

  it('a local API without a catalog says so', async () => {
    const store = openSqliteStore({ path: ':memory:' });
    const engine = await createEngine({ store });
    const mcp = await connect(createLocalApi({ engine }));
    try {
      expect(structured(await mcp.call('svc_list_endpoints', {}))).toMatchObject({
        error: { code: 'CATALOG_NOT_AVAILABLE' },
      });
    } finally {
      await mcp.close();
      await engine.stop();
      await store.close();
    }
  });
});
