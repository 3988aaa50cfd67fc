import { createEgressPolicy, createEngine, type Engine, type ExecutionView } from '@svc/engine';
import { openSqliteStore } from '@svc/engine/sqlite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scaffoldFlow } from '../src/index.js';
import { fixtureEndpoints, shopRoadmap } from './helpers/roadmaps.js';
import { startShopApi, type ShopApi } from './helpers/shop-api.js';

const TENANT = 'scaffold-run';
const BEARER = 'tok_live_5b1e7c';
const WAREHOUSE_KEY = 'whk_9a3f21';
const shop = fixtureEndpoints('shop.openapi.yaml');

function stepsByName(execution: ExecutionView) {
  return Object.fromEntries((execution.steps ?? []).map((step) => [step.nodeName, step]));
}

/**
 * The scaffolded shop flow against a real local server that implements the shop spec, run by
 * the real engine on an in-memory SQLite store:
 * ```
 * CreateCustomer ─▶ CreateOrder ─▶ ShipOrder ─▶ GetOrder
 *   201 {id}        customerId=id   /orders/{id}/shipments   /orders/{id}
 * ```
 */
describe('a scaffolded flow runs', () => {
  let api: ShopApi;
  let engine: Engine;
  let store: ReturnType<typeof openSqliteStore>;
  let flowId: string;

  beforeAll(async () => {
    api = await startShopApi({ bearerToken: BEARER, warehouseKey: WAREHOUSE_KEY });
    store = openSqliteStore({ path: ':memory:' });
    // The flows here call a test server on loopback, which a developer's local policy allows.
    engine = await createEngine({ store, egress: createEgressPolicy({ mode: 'local' }) });
    flowId = (await engine.flows.create(TENANT, scaffoldFlow(shopRoadmap(shop), shop))).id;
  });
  afterAll(async () => {
    await engine?.stop();
    await store?.close();
    await api?.close();
  });

  const run = (env: Record<string, unknown>, inputs: Record<string, unknown>) =>
    engine.runFlow({ tenantId: TENANT, flowId, env: { baseUrl: api.url, ...env }, inputs, waitMs: 15_000 });

  it('completes, and the server sees the ids it created passed along the chain', async () => {
    const before = api.seen.length;
    const execution = await run({ bearerAuthToken: BEARER, warehouseApiKey: WAREHOUSE_KEY }, { sku: 'SKU-42' });
    expect(execution.error).toBeNull();
    expect(execution.status).toBe('Completed');
    expect(execution.nodesExecuted).toBe(4);

    const seen = api.seen.slice(before);
    const customerId = api.created.customers.at(-1)!;
    const orderId = api.created.orders.at(-1)!;
    expect(seen.map((request) => `${request.method} ${request.path} ${request.status}`)).toEqual([
      'POST /customers 201',
      'POST /orders 201',
      `POST /orders/${orderId}/shipments 202`,
      `GET /orders/${orderId} 200`,
    ]);
    expect(seen[0]!.body).toEqual({ name: 'Ada Lovelace', email: 'ada@example.com' });
    // The bound id arrives as the number the server answered, not as a string.
    expect(seen[1]!.body).toEqual({ customerId, items: [{ sku: 'SKU-42', quantity: 2 }] });
    expect(seen[1]!.headers.authorization).toBe(`Bearer ${BEARER}`);
    expect(seen[2]!.headers['x-warehouse-key']).toBe(WAREHOUSE_KEY);
    expect(seen[2]!.query).toEqual({ warehouse: 'AMS-1' });
    expect(stepsByName(execution).GetOrder!.response).toMatchObject({
      status: 200,
      body: { id: orderId, customerId, status: 'shipped' },
    });
  });

  it('takes input values over the examples', async () => {
    const before = api.seen.length;
    const execution = await run(
      { bearerAuthToken: BEARER, warehouseApiKey: WAREHOUSE_KEY },
      { sku: 'SKU-7', warehouse: 'BER-2', customerEmail: 'grace@example.com' },
    );
    expect(execution.status).toBe('Completed');
    const seen = api.seen.slice(before);
    expect(seen[0]!.body).toMatchObject({ email: 'grace@example.com' });
    expect(seen[2]!.query).toEqual({ warehouse: 'BER-2' });
  });

  it('fails visibly at the first step whose call does not succeed, and runs nothing after it', async () => {
    const before = api.seen.length;
    const execution = await run({ bearerAuthToken: 'wrong', warehouseApiKey: WAREHOUSE_KEY }, { sku: 'SKU-42' });
    expect(execution.status).toBe('Failed');
    const steps = stepsByName(execution);
    expect(steps.CreateCustomer).toMatchObject({ status: 'Failed', error: { code: 'ASSERTION_FAILED' } });
    expect(steps.CreateOrder).toMatchObject({ skipKind: 'failure' });
    expect(api.seen.slice(before).map((request) => `${request.method} ${request.path} ${request.status}`)).toEqual([
      'POST /customers 401',
    ]);
  });

  it('falls back to the default after ?? when the environment has no baseUrl', async () => {
    const flow = scaffoldFlow(shopRoadmap(shop), shop, { name: 'shop-with-default', baseUrl: { default: api.url } });
    const saved = await engine.flows.create(TENANT, flow);
    const execution = await engine.runFlow({
      tenantId: TENANT,
      flowId: saved.id,
      env: { bearerAuthToken: BEARER, warehouseApiKey: WAREHOUSE_KEY },
      inputs: { sku: 'SKU-1' },
      waitMs: 15_000,
    });
    expect(execution.status).toBe('Completed');
  });

  it('refuses to start without a required input', async () => {
    await expect(run({ bearerAuthToken: BEARER, warehouseApiKey: WAREHOUSE_KEY }, {})).rejects.toMatchObject({
      code: 'INVALID_INPUTS',
    });
  });
});
