import { createNodeRegistry, validateFlow } from '@svc/engine';
import { describe, expect, it } from 'vitest';
import {
  generatedTestCaseSchema,
  generateSchemaTestCases,
  resolveTestCaseGenerator,
  testCaseToFlow,
  TEST_GENERATION_ENGINES,
  type CatalogEndpoint,
  type GeneratedTestCase,
} from '../src/index.js';
import { fixtureEndpoints } from './helpers/roadmaps.js';

const FIXTURES = [
  'orders-testgen.openapi.yaml',
  'pet-coupons.openapi.yaml',
  'shop.openapi.yaml',
  'spotify-subset.json',
  'swagger2-shop.json',
  'cyclic-tree.yaml',
];
const registry = createNodeRegistry();
const orders = fixtureEndpoints('orders-testgen.openapi.yaml');

function endpoint(partial: Partial<CatalogEndpoint>): CatalogEndpoint {
  return {
    id: 'op',
    operationId: 'op',
    method: 'POST',
    path: '/things',
    summary: '',
    description: '',
    tags: [],
    deprecated: false,
    parameters: [],
    requestBody: null,
    responses: { '200': { description: 'ok' } },
    security: [],
    securitySchemes: {},
    servers: [],
    ...partial,
  };
}

function named(cases: GeneratedTestCase[], name: string): GeneratedTestCase {
  const found = cases.find((testCase) => testCase.name === name);
  if (found === undefined) throw new Error(`no case "${name}" in ${cases.map((testCase) => testCase.name).join(', ')}`);
  return found;
}

describe('schema engine', () => {
  it('answers the same cases in the same order for the same endpoint', () => {
    for (const file of FIXTURES) {
      for (const entry of fixtureEndpoints(file)) {
        expect(JSON.stringify(generateSchemaTestCases(entry))).toBe(
          JSON.stringify(generateSchemaTestCases(structuredClone(entry))),
        );
      }
    }
  });

  it('turns every endpoint of every fixture into valid cases with unique names and flows that validate', () => {
    let total = 0;
    for (const file of FIXTURES) {
      for (const entry of fixtureEndpoints(file)) {
        const cases = generateSchemaTestCases(entry);
        expect(cases.length, `${file} ${entry.id}`).toBeGreaterThan(0);
        expect(new Set(cases.map((testCase) => testCase.name)).size).toBe(cases.length);
        for (const testCase of cases) {
          expect(generatedTestCaseSchema.safeParse(testCase).success).toBe(true);
          const result = validateFlow(testCaseToFlow(testCase, entry), registry);
          expect(result.problems, `${file} ${entry.id} · ${testCase.name}`).toEqual([]);
        }
        total += cases.length;
      }
    }
    expect(total).toBeGreaterThan(150);
  });

  it('covers each category for an operation with required fields, enums, bounds and credentials', () => {
    const cases = generateSchemaTestCases(orders.find((entry) => entry.id === 'createOrder')!);
    const byCategory = (category: string) =>
      cases.filter((testCase) => testCase.category === category).map((testCase) => testCase.name);
    expect(byCategory('positive')).toEqual([
      'valid request (documented examples)',
      'valid request (schema values)',
      'valid request (required fields only)',
    ]);
    expect(byCategory('negative')).toEqual(
      expect.arrayContaining([
        'missing body',
        'missing header.X-Request-Id',
        'missing body.customerId',
        'missing body.items[0].quantity',
        'wrong type body.items[0].quantity',
        'body.currency not in enum',
        'malformed JSON body',
      ]),
    );
    expect(byCategory('boundary')).toEqual(
      expect.arrayContaining([
        'body.items[0].quantity at maximum',
        'body.items[0].quantity past maximum',
        'body.items past maxItems',
      ]),
    );
    expect(byCategory('security')).toEqual(['no credentials', 'invalid credentials']);

    expect(named(cases, 'valid request (documented examples)')).toMatchObject({
      request: { body: { customerId: 'cus_123', currency: 'EUR', items: [{ sku: 'SKU-1', quantity: 50 }] } },
      expect: { status: 201 },
    });
    expect(named(cases, 'missing body.customerId').request.body).not.toHaveProperty('customerId');
    expect(named(cases, 'missing body.customerId').expect).toEqual({ status: 400, assertions: [] });
    // exclusiveMaximum: 50 → the last valid number is 49.99, the first invalid one 50.
    expect(named(cases, 'body.discount at maximum').request.body).toMatchObject({ discount: 49.99 });
    expect(named(cases, 'body.discount past maximum').request.body).toMatchObject({ discount: 50 });
    expect(named(cases, 'body.items past maxItems').request.body).toMatchObject({
      items: [{}, {}, {}, {}].map(() => expect.any(Object)),
    });
    expect(named(cases, 'no credentials')).toMatchObject({
      request: { omitAuth: true },
      expect: { status: [401, 403] },
    });
  });

  it('leaves security cases out where the operation needs no credentials, and keeps categories and counts as asked', () => {
    const health = orders.find((entry) => entry.id === 'health')!;
    expect(generateSchemaTestCases(health).map((testCase) => testCase.category)).toEqual(['positive']);
    const createOrder = orders.find((entry) => entry.id === 'createOrder')!;
    const chosen = generateSchemaTestCases(createOrder, { categories: ['security', 'boundary'], maxCases: 3 });
    expect(chosen.map((testCase) => testCase.category)).toEqual(['boundary', 'boundary', 'boundary']);
  });

  it('takes expected statuses from the declared responses', () => {
    const body = {
      required: true,
      contentType: 'application/json',
      schema: { type: 'object', required: ['a'], properties: { a: { type: 'string' } } },
    };
    const statuses = (responses: CatalogEndpoint['responses']) => {
      const cases = generateSchemaTestCases(endpoint({ requestBody: body, responses }));
      return {
        valid: named(cases, 'valid request').expect.status,
        missing: named(cases, 'missing body.a').expect.status,
        malformed: named(cases, 'malformed JSON body').expect.status,
      };
    };
    expect(statuses({ '201': { description: '' }, '400': { description: '' } })).toEqual({
      valid: 201,
      missing: 400,
      malformed: 400,
    });
    expect(statuses({ '200': { description: '' }, '202': { description: '' }, '422': { description: '' } })).toEqual({
      valid: [200, 202],
      missing: 422,
      malformed: 422,
    });
    expect(statuses({ '200': { description: '' }, '400': { description: '' }, '422': { description: '' } })).toEqual({
      valid: 200,
      missing: [400, 422],
      malformed: 400,
    });
    expect(statuses({ '2XX': { description: '' }, default: { description: '' } })).toEqual({
      valid: '2XX',
      missing: '4XX',
      malformed: '4XX',
    });
  });

  it('reads OpenAPI 3.1 bounds, nullable types, allOf and oneOf', () => {
    const cases = generateSchemaTestCases(
      endpoint({
        requestBody: {
          required: true,
          contentType: 'application/json',
          schema: {
            allOf: [
              {
                type: 'object',
                required: ['size'],
                properties: { size: { type: 'integer', exclusiveMinimum: 0, exclusiveMaximum: 10 } },
              },
              {
                type: 'object',
                required: ['label'],
                properties: { label: { type: ['string', 'null'], minLength: 2 } },
              },
            ],
            properties: { shape: { oneOf: [{ type: 'null' }, { type: 'string', enum: ['round', 'square'] }] } },
          },
        },
      }),
    );
    expect(named(cases, 'valid request').request.body).toEqual({ size: 5, label: 'sample', shape: 'round' });
    expect(named(cases, 'body.size at minimum').request.body).toMatchObject({ size: 1 });
    expect(named(cases, 'body.size past minimum').request.body).toMatchObject({ size: 0 });
    expect(named(cases, 'body.size past maximum').request.body).toMatchObject({ size: 10 });
    expect(named(cases, 'body.shape not in enum').request.body).toMatchObject({ shape: 'NOT_A_LISTED_VALUE' });
    expect(cases.map((testCase) => testCase.name)).toContain('missing body.label');
  });

  it('sends each kind of declared credential as an environment placeholder', () => {
    const secured = (scheme: Record<string, unknown>) =>
      testCaseToFlow(
        generateSchemaTestCases(endpoint({ security: [{ s: [] }], securitySchemes: { s: scheme } }))[0]!,
        endpoint({ security: [{ s: [] }], securitySchemes: { s: scheme } }),
      ).nodes[0]!.config;
    // Named as scaffolded flows name them, so one environment runs both.
    expect(secured({ type: 'http', scheme: 'bearer' })).toMatchObject({
      headers: { Authorization: 'Bearer {{env.sToken}}' },
    });
    expect(secured({ type: 'http', scheme: 'basic' })).toMatchObject({
      headers: { Authorization: 'Basic {{env.sCredentials}}' },
    });
    expect(secured({ type: 'oauth2', flows: {} })).toMatchObject({
      headers: { Authorization: 'Bearer {{env.sToken}}' },
    });
    expect(secured({ type: 'apiKey', in: 'query', name: 'api_key' })).toMatchObject({
      query: { api_key: '{{env.sApiKey}}' },
    });
    expect(secured({ type: 'apiKey', in: 'cookie', name: 'session' })).toMatchObject({
      headers: { Cookie: 'session={{env.sApiKey}}' },
    });
    const spoiled = (scheme: Record<string, unknown>) => {
      const entry = endpoint({ security: [{ s: [] }], securitySchemes: { s: scheme } });
      return testCaseToFlow(
        generateSchemaTestCases(entry).find((testCase) => testCase.name === 'invalid credentials')!,
        entry,
      ).nodes[0]!.config;
    };
    expect(spoiled({ type: 'http', scheme: 'basic' })).toMatchObject({
      headers: { Authorization: 'Basic aW52YWxpZDppbnZhbGlk' },
    });
    expect(spoiled({ type: 'apiKey', in: 'query', name: 'api_key' })).toMatchObject({
      query: { api_key: 'svc-testgen-invalid-key' },
    });
    const optional = endpoint({
      security: [{ s: [] }, {}],
      securitySchemes: { s: { type: 'http', scheme: 'bearer' } },
    });
    expect(generateSchemaTestCases(optional).some((testCase) => testCase.category === 'security')).toBe(false);
  });

  it('refuses test data holding "{{", which a flow would read as an expression', () => {
    const entry = endpoint({ method: 'GET', responses: { '200': { description: '' } } });
    const testCase = generatedTestCaseSchema.parse({
      name: 'x',
      category: 'positive',
      request: { query: { q: '{{env.secret}}' } },
      expect: { status: 200 },
    });
    expect(() => testCaseToFlow(testCase, entry)).toThrow(
      expect.objectContaining({ code: 'TESTGEN_TEMPLATE_IN_VALUE' }),
    );
  });

  it('names the engines and refuses an unknown one', () => {
    expect(TEST_GENERATION_ENGINES).toEqual(['schema', 'sampling', 'openai']);
    expect(resolveTestCaseGenerator('schema').name).toBe('schema');
    expect(() => resolveTestCaseGenerator('gpt')).toThrow(
      expect.objectContaining({
        code: 'UNKNOWN_ENGINE',
        message: expect.stringContaining('allowed: schema, sampling, openai'),
      }),
    );
  });
});
