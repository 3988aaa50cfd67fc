import { readFileSync } from 'node:fs';
import { createManualClock } from '@svc/engine';
import { describe, expect, it } from 'vitest';
import { catalogStores } from './helpers/catalog-stores.js';

const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8');
const open = catalogStores({ clock: createManualClock(1_000) });

describe('CatalogService', () => {
  it('imports a document into the tenant catalog and finds its endpoints', async () => {
    const { catalog } = open();
    const result = await catalog.importOpenApi('t1', fixture('spotify-subset.json'));
    expect(result.spec).toMatchObject({
      id: 'spotify-web-api',
      title: 'Spotify Web API',
      sourceVersion: '3.0',
      endpointCount: 5,
      importedAt: 1_000,
    });
    expect(result.added).toHaveLength(5);
    expect(result.removed).toEqual([]);
    const page = await catalog.listEndpoints('t1', { search: 'playlist' });
    expect(page.items.map((item) => `${item.method} ${item.path}`)).toContain('POST /users/{user_id}/playlists');
    const endpoint = await catalog.getEndpoint('t1', 'create-playlist');
    expect(endpoint).toMatchObject({
      specId: 'spotify-web-api',
      method: 'POST',
      requestBody: { contentType: 'application/json' },
    });
    await expect(catalog.getEndpoint('t2', 'create-playlist')).rejects.toMatchObject({ code: 'ENDPOINT_NOT_FOUND' });
  });

  it('refuses an endpoint id two specs share, listing the spec:id candidates, and finds each by spec:id', async () => {
    const { catalog } = open();
    const shop = fixture('swagger2-shop.json');
    await catalog.importOpenApi('t1', shop, { name: 'shop' });
    await catalog.importOpenApi('t1', shop, { name: 'shop-eu' });
    await expect(catalog.getEndpoint('t1', 'createOrder')).rejects.toMatchObject({
      code: 'ENDPOINT_AMBIGUOUS',
      message: 'endpoint id "createOrder" is in 2 specs; give one of: shop:createOrder, shop-eu:createOrder',
      details: { candidates: ['shop:createOrder', 'shop-eu:createOrder'] },
    });
    expect((await catalog.getEndpoint('t1', 'shop-eu:createOrder')).specId).toBe('shop-eu');
  });

  it('re-importing a changed version answers what was added, removed and changed', async () => {
    const { catalog } = open();
    const original = JSON.parse(fixture('swagger2-shop.json'));
    await catalog.importOpenApi('t1', JSON.stringify(original), { name: 'shop' });
    const next = structuredClone(original);
    delete next.paths['/orders/{orderId}/attachments'];
    next.paths['/orders'].post.summary = 'Place an order';
    next.paths['/orders/{orderId}'].delete = {
      operationId: 'cancelOrder',
      responses: { '204': { description: 'cancelled' } },
    };
    const result = await catalog.importOpenApi('t1', JSON.stringify(next), { name: 'shop' });
    expect(result).toMatchObject({ added: ['cancelOrder'], removed: ['attachFile'], changed: ['createOrder'] });
    expect((await catalog.getEndpoint('t1', 'createOrder')).summary).toBe('Place an order');
  });

  it('writes nothing for a broken document and keeps the previous version', async () => {
    const { catalog, store } = open();
    await catalog.importOpenApi('t1', fixture('cyclic-tree.yaml'), { name: 'tree' });
    const broken = fixture('cyclic-tree.yaml').replace(
      "$ref: '#/components/schemas/Node'",
      "$ref: '#/components/schemas/Gone'",
    );
    await expect(catalog.importOpenApi('t1', broken, { name: 'tree' })).rejects.toMatchObject({
      code: 'INVALID_OPENAPI',
      details: {
        problems: [expect.objectContaining({ message: expect.stringContaining('#/components/schemas/Gone') })],
      },
    });
    expect((await store.catalog.listSpecs('t1')).map((spec) => spec.endpointCount)).toEqual([2]);
  });
});

/**
 * Schemas that refer to one another: each of `count` schemas has a property for every other one
 * (written out as a tree, more values than atoms in the universe), and a lattice where each of
 * `depth` levels refers to the next twice (2^depth values written out). A few kilobytes each.
 */
function hostileSchemas(count: number, depth: number): string {
  const schemas: Record<string, unknown> = {};
  for (let i = 0; i < count; i += 1) {
    const properties: Record<string, unknown> = { name: { type: 'string' } };
    for (let j = 0; j < count; j += 1) if (j !== i) properties[`s${j}`] = { $ref: `#/components/schemas/S${j}` };
    schemas[`S${i}`] = { type: 'object', properties };
  }
  for (let level = 0; level < depth; level += 1)
    schemas[`L${level}`] =
      level === depth - 1
        ? { type: 'string' }
        : {
            type: 'object',
            properties: {
              left: { $ref: `#/components/schemas/L${level + 1}` },
              right: { $ref: `#/components/schemas/L${level + 1}` },
            },
          };
  const answer = (ref: string) => ({
    '200': { description: 'ok', content: { 'application/json': { schema: { $ref: ref } } } },
  });
  return JSON.stringify({
    openapi: '3.0.3',
    info: { title: 'Graph', version: '1' },
    paths: {
      '/nodes/{id}': {
        get: {
          operationId: 'get-node',
          parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
          responses: answer('#/components/schemas/S0'),
        },
      },
      '/lattice': { get: { operationId: 'get-lattice', responses: answer('#/components/schemas/L0') } },
    },
    components: { schemas },
  });
}

describe('CatalogService on schemas that refer to one another', () => {
  it('imports a chain of 20,000 references, each inside the last, cut where the references nest too deep', async () => {
    const { catalog } = open();
    const schemas: Record<string, unknown> = { [`S${20_000}`]: { type: 'string' } };
    for (let i = 0; i < 20_000; i += 1)
      schemas[`S${i}`] = { type: 'object', properties: { next: { $ref: `#/components/schemas/S${i + 1}` } } };
    const document = JSON.stringify({
      openapi: '3.0.3',
      info: { title: 'Chain', version: '1' },
      paths: {
        '/a': {
          get: {
            operationId: 'get-a',
            responses: {
              '200': {
                description: 'ok',
                content: { 'application/json': { schema: { $ref: '#/components/schemas/S0' } } },
              },
            },
          },
        },
      },
      components: { schemas },
    });
    await catalog.importOpenApi('t1', document);
    let schema = (await catalog.getEndpoint('t1', 'get-a')).responses['200']!.schema as Record<string, unknown>;
    let depth = 0;
    while (isRecord(schema.properties) && isRecord(schema.properties.next)) {
      schema = schema.properties.next;
      depth += 1;
    }
    expect(depth).toBe(64);
    expect(schema).toEqual({ $ref: '#/components/schemas/S64', 'x-truncated': true });
  });

  it("imports them with each endpoint's schemas cut breadth first to a bounded size, the upper levels kept", async () => {
    const { catalog } = open();
    const document = hostileSchemas(24, 60);
    expect(document.length).toBeLessThan(50_000);
    const result = await catalog.importOpenApi('t1', document);
    expect(result.spec.endpointCount).toBe(2);
    for (const id of ['get-node', 'get-lattice']) {
      const endpoint = await catalog.getEndpoint('t1', id);
      const written = JSON.stringify(endpoint);
      expect(written.length).toBeLessThan(1_000_000);
      expect(written).toContain('"x-truncated":true');
    }
    const node = await catalog.getEndpoint('t1', 'get-node');
    const schema = node.responses['200']!.schema as { properties: Record<string, { properties?: object }> };
    // The first levels are whole: S0 has S1…S23, and S1 has its own properties (S0 there marks the cycle).
    expect(Object.keys(schema.properties)).toHaveLength(24);
    expect(schema.properties.s1!.properties).toMatchObject({ name: { type: 'string' }, s0: { 'x-circular': true } });
    const lattice = (await catalog.getEndpoint('t1', 'get-lattice')).responses['200']!.schema as {
      properties: { left: { properties: { right: { type: string } } } };
    };
    expect(lattice.properties.left.properties.right.type).toBe('object');
  });
});

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
