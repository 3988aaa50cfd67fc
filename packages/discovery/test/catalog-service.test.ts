import { readFileSync } from 'node:fs';
import { createManualClock } from '@svc/engine';
import { openSqliteStore } from '@svc/engine/sqlite';
import { afterEach, describe, expect, it } from 'vitest';
import { createCatalogService } from '../src/index.js';

const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8');
const stores: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const store of stores.splice(0)) await store.close();
});

function open() {
  const store = openSqliteStore({ path: ':memory:' });
  stores.push(store);
  return { store, catalog: createCatalogService({ repository: store.catalog, clock: createManualClock(1_000) }) };
}

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
