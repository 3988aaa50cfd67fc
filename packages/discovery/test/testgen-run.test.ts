import { createEgressPolicy, createEngine, validateFlow, type Engine, type ExecutionView } from '@svc/engine';
import { openSqliteStore } from '@svc/engine/sqlite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createSamplingTestCaseGenerator,
  generateSchemaTestCases,
  testCaseToFlow,
  type CatalogEntry,
  type GeneratedTestCase,
} from '../src/index.js';
import { GOOD_API_KEY, GOOD_BEARER_TOKEN, startOrdersApi, type OrdersApi } from './helpers/orders-api.js';
import { fixtureEndpoints } from './helpers/roadmaps.js';

const TENANT = 'testgen';
const endpoints = fixtureEndpoints('orders-testgen.openapi.yaml');

let engine: Engine;
let store: ReturnType<typeof openSqliteStore>;
let strict: OrdersApi;
let lax: OrdersApi;

beforeAll(async () => {
  store = openSqliteStore({ path: ':memory:' });
  // The flows here call a test server on loopback, which a developer's local policy allows.
  engine = await createEngine({ store, egress: createEgressPolicy({ mode: 'local' }) });
  [strict, lax] = await Promise.all([startOrdersApi(), startOrdersApi({ lax: true })]);
});

afterAll(async () => {
  await engine.stop();
  await store.close();
  await Promise.all([strict.close(), lax.close()]);
});

interface Outcome {
  flowName: string;
  status: ExecutionView['status'];
  error: string | undefined;
}

/** Every case of every endpoint as a flow, saved and run against `api` with good credentials. */
async function runSuite(api: OrdersApi, folder: string): Promise<Outcome[]> {
  const outcomes: Outcome[] = [];
  for (const endpoint of endpoints) {
    for (const testCase of generateSchemaTestCases(endpoint)) {
      const flow = {
        ...testCaseToFlow(testCase, endpoint),
        name: `${folder} ${testCaseToFlow(testCase, endpoint).name}`,
      };
      const saved = await engine.flows.create(TENANT, flow);
      const execution = await engine.runFlow({
        tenantId: TENANT,
        flowId: saved.id,
        env: { baseUrl: api.url, bearerAuthToken: GOOD_BEARER_TOKEN, apiKeyAuth: GOOD_API_KEY },
        waitMs: 10_000,
      });
      const failed = execution.steps?.find((step) => step.error !== undefined && step.error !== null);
      outcomes.push({
        flowName: flow.name.slice(folder.length + 1),
        status: execution.status,
        error: failed?.error?.message,
      });
    }
  }
  return outcomes;
}

function entry(id: string): CatalogEntry {
  const endpoint = endpoints.find((candidate) => candidate.id === id);
  if (endpoint === undefined) throw new Error(`no endpoint ${id}`);
  return endpoint;
}

describe('generated schema tests run against the real API', () => {
  it('every generated flow validates, and every one passes against an API that implements the spec', async () => {
    for (const endpoint of endpoints) {
      for (const testCase of generateSchemaTestCases(endpoint)) {
        const result = validateFlow(testCaseToFlow(testCase, endpoint), engine.nodeTypes);
        expect(result.problems, `${endpoint.id} · ${testCase.name}`).toEqual([]);
      }
    }
    const outcomes = await runSuite(strict, 'strict');
    expect(outcomes.length).toBeGreaterThan(50);
    expect(outcomes.filter((outcome) => outcome.status !== 'Completed')).toEqual([]);
    // Each flow made its one request, and the API answered every kind of status the spec declares.
    expect(strict.log).toHaveLength(outcomes.length);
    expect(new Set(strict.log.map((line) => line.split(' → ')[1]))).toEqual(
      new Set(['200', '201', '400', '401', '403']),
    );
  });

  it('the negative and security tests fail against an API that takes a missing customerId and lets anyone in', async () => {
    const outcomes = await runSuite(lax, 'lax');
    const failed = outcomes.filter((outcome) => outcome.status !== 'Completed').map((outcome) => outcome.flowName);
    expect(failed.sort()).toEqual(
      [
        'createOrder · missing body.customerId',
        'createOrder · no credentials',
        'createOrder · invalid credentials',
        'listOrders · no credentials',
        'listOrders · invalid credentials',
        'getOrder · no credentials',
        'getOrder · invalid credentials',
      ].sort(),
    );
    const missing = outcomes.find((outcome) => outcome.flowName === 'createOrder · missing body.customerId');
    expect(missing?.error).toMatch(/statusCode == 400 \(got 201\)/);
    const anonymous = outcomes.find((outcome) => outcome.flowName === 'getOrder · no credentials');
    expect(anonymous?.error).toMatch(/statusCode >= 401/);
    expect(anonymous?.error).toMatch(/got 200/);
  });

  it('a flow sends the case as written: credentials from the environment, path parameters in the URL', () => {
    const getOrder = entry('getOrder');
    const [valid] = generateSchemaTestCases(getOrder, { categories: ['positive'] }) as [GeneratedTestCase];
    const flow = testCaseToFlow(valid, getOrder);
    expect(flow.name).toBe('getOrder · valid request');
    expect(flow.description).toContain('Environment: baseUrl, apiKeyAuth.');
    expect(flow.nodes).toHaveLength(1);
    expect(flow.nodes[0]).toMatchObject({
      name: 'GetOrder',
      type: 'endpoint',
      config: {
        method: 'GET',
        url: '{{env.baseUrl}}/orders/500000',
        headers: { 'X-API-Key': '{{env.apiKeyAuth}}' },
        assertions: [
          { target: 'statusCode', operator: '==', value: 200 },
          { target: 'headers.content-type', operator: 'contains', value: 'json' },
          { target: 'body.id', operator: 'is_not_empty' },
          { target: 'body.status', operator: 'is_not_empty' },
          { target: 'body', operator: 'contains', value: 'customerId' },
          { target: 'body.currency', operator: 'is_not_empty' },
          { target: 'body.total', operator: 'is_not_empty' },
        ],
      },
    });

    const createOrder = entry('createOrder');
    const cases = generateSchemaTestCases(createOrder);
    const bad = testCaseToFlow(
      cases.find((testCase) => testCase.name === 'invalid credentials')!,
      createOrder,
      { baseUrl: 'http://127.0.0.1:9/' },
    );
    expect(bad.nodes[0]!.config).toMatchObject({
      url: 'http://127.0.0.1:9/orders',
      headers: { Authorization: 'Bearer svc-testgen-invalid-token' },
    });
    expect(bad.description).not.toMatch(/baseUrl|bearerAuthToken/);
    const placeOrder = testCaseToFlow(cases[0]!, createOrder);
    expect(placeOrder.nodes[0]!.config).toMatchObject({
      headers: { Authorization: 'Bearer {{env.bearerAuthToken}}', 'X-Request-Id': 'samplexx' },
    });
    expect(placeOrder.description).toContain('Environment: baseUrl, bearerAuthToken.');
    const anonymous = testCaseToFlow(
      cases.find((testCase) => testCase.name === 'no credentials')!,
      createOrder,
    );
    expect(Object.keys(anonymous.nodes[0]!.config.headers as object)).toEqual(['X-Request-Id']);
    const malformed = testCaseToFlow(
      cases.find((testCase) => testCase.name === 'malformed JSON body')!,
      createOrder,
    );
    expect(malformed.nodes[0]!.config).toMatchObject({ bodyType: 'json', body: expect.stringMatching(/,$/) });
    expect(() => JSON.parse(malformed.nodes[0]!.config.body as string)).toThrow();
  });

  it("a model's cases run the same way: they pass against the API that implements the spec", async () => {
    const createOrder = entry('createOrder');
    const answer = [
      {
        name: 'valid order',
        category: 'positive',
        request: {
          headers: { 'X-Request-Id': 'req-00001' },
          body: { customerId: 'cus_1', currency: 'EUR', items: [{ sku: 'A', quantity: 2 }] },
        },
        expect: { status: 201, assertions: [{ target: 'body.total', operator: '==', value: 20 }] },
      },
      {
        name: 'yen',
        category: 'negative',
        request: {
          headers: { 'X-Request-Id': 'req-00002' },
          body: { customerId: 'cus_1', currency: 'JPY', items: [{ sku: 'A', quantity: 1 }] },
        },
        expect: { status: 400, assertions: [{ target: 'body.code', operator: '==', value: 'INVALID_REQUEST' }] },
      },
      {
        name: 'stranger',
        category: 'security',
        request: { badAuth: true, headers: { 'X-Request-Id': 'req-00003' } },
        expect: { status: [401, 403] },
      },
    ];
    const cases = await createSamplingTestCaseGenerator({ sample: async () => JSON.stringify(answer) }).generate(
      createOrder,
    );
    for (const testCase of cases) {
      const saved = await engine.flows.create(TENANT, {
        ...testCaseToFlow(testCase, createOrder),
        name: `model ${testCase.name}`,
      });
      const execution = await engine.runFlow({
        tenantId: TENANT,
        flowId: saved.id,
        env: { baseUrl: strict.url, bearerAuthToken: GOOD_BEARER_TOKEN },
        waitMs: 10_000,
      });
      expect(execution.status, testCase.name).toBe('Completed');
    }
  });
});
