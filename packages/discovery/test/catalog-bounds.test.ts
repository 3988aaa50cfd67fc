import { describe, expect, it } from 'vitest';
import type { CatalogEntry } from '../src/index.js';
import { catalogStores } from './helpers/catalog-stores.js';
import { fanOutSpec, schemaWeight, sharedResponsesSpec, weigh } from './helpers/fan-out-specs.js';

const open = catalogStores();

async function allEndpoints(catalog: ReturnType<typeof open>['catalog']): Promise<CatalogEntry[]> {
  const all: CatalogEntry[] = [];
  let cursor: string | undefined;
  do {
    const page = await catalog.listEndpoints('t1', { limit: 500, ...(cursor === undefined ? {} : { cursor }) });
    all.push(...page.items);
    cursor = page.nextCursor ?? undefined;
  } while (cursor !== undefined);
  return all;
}

const MARKER = { 'x-truncated': true };

/** Fifty schemas, each with a property for every one of them, and `operations` answering them in turn. */
function ringSpec(operations: number): string {
  const schemas = Object.fromEntries(
    Array.from({ length: 50 }, (_, i) => [
      `S${i}`,
      {
        type: 'object',
        properties: Object.fromEntries(
          Array.from({ length: 50 }, (_, j) => [`r${j}`, { $ref: `#/components/schemas/S${j}` }]),
        ),
      },
    ]),
  );
  const paths = Object.fromEntries(
    Array.from({ length: operations }, (_, i) => [
      `/s${i}`,
      {
        get: {
          responses: {
            '200': {
              description: 'ok',
              content: { 'application/json': { schema: { $ref: `#/components/schemas/S${i % 50}` } } },
            },
          },
        },
      },
    ]),
  );
  return JSON.stringify({ openapi: '3.0.3', info: { title: 'Ring', version: '1' }, paths, components: { schemas } });
}

describe('CatalogService on documents whose references fan out', () => {
  it("keeps one endpoint's schemas within 10,000 values with every marker counted, the upper levels whole", async () => {
    const { catalog } = open();
    // Written out, the one response holds 500 × 500 values.
    await catalog.importOpenApi('t1', fanOutSpec(500, 1));
    const endpoint = await catalog.getEndpoint('t1', 'get_f0');
    expect(schemaWeight(endpoint)).toBeLessThanOrEqual(10_000);
    const schema = endpoint.responses['200']!.schema as {
      properties: Record<string, { type: string; properties: Record<string, unknown> }>;
    };
    const ys = Object.values(schema.properties);
    expect(ys).toHaveLength(500);
    expect(ys.every((y) => y.type === 'object')).toBe(true);
    // A level that does not fit is one marker, not one per value left out.
    const whole = ys.filter((y) => Object.keys(y.properties).length === 500);
    const cut = ys.filter((y) => JSON.stringify(y.properties) === JSON.stringify(MARKER));
    expect(whole.length).toBeGreaterThan(0);
    expect(whole.length + cut.length).toBe(500);
    expect(whole[0]!.properties.q0).toEqual({ type: 'string' });
  });

  it('imports 20 operations answering a schema that fans out 2,000 × 2,000, within the per-endpoint and document caps', async () => {
    const { catalog } = open();
    const document = fanOutSpec(2000, 20);
    expect(document.length).toBeLessThan(200_000);
    const result = await catalog.importOpenApi('t1', document);
    expect(result.spec.endpointCount).toBe(20);
    const endpoints = await allEndpoints(catalog);
    expect(endpoints).toHaveLength(20);
    for (const endpoint of endpoints) expect(schemaWeight(endpoint)).toBeLessThanOrEqual(10_000);
    const { specId: _, ...stored } = endpoints[0]!;
    expect(JSON.stringify(stored).length).toBeLessThan(200_000);
    expect(endpoints.reduce((sum, endpoint) => sum + weigh(endpoint), 0)).toBeLessThanOrEqual(1_000_000);
  });

  it('counts a long string by its length: a description that thousands of places share is not kept thousands of times', async () => {
    const { catalog } = open();
    const document = fanOutSpec(300, 1, 3_000);
    expect(document.length).toBeLessThan(50_000);
    await catalog.importOpenApi('t1', document);
    const endpoint = await catalog.getEndpoint('t1', 'get_f0');
    expect(schemaWeight(endpoint)).toBeLessThanOrEqual(10_000);
    // 10,000 values of at most 32 characters each, with their keys and punctuation.
    expect(JSON.stringify(endpoint.responses).length).toBeLessThan(700_000);
  });

  it("lowers every endpoint's budget so that the document keeps at most 1,000,000 values", async () => {
    const { catalog } = open();
    await catalog.importOpenApi('t1', ringSpec(1_000));
    const endpoints = await allEndpoints(catalog);
    expect(endpoints).toHaveLength(1_000);
    expect(endpoints.reduce((sum, endpoint) => sum + weigh(endpoint), 0)).toBeLessThanOrEqual(1_000_000);
    // Each still keeps its schema's first level.
    for (const endpoint of endpoints) {
      const schema = endpoint.responses['200']!.schema as { properties: Record<string, unknown> };
      expect(Object.keys(schema.properties)).toHaveLength(50);
    }
  });

  it('refuses a document whose operations share more than the document may keep, saying where, and writes nothing', async () => {
    const { catalog, store } = open();
    // Each of 300 operations keeps the 1,000 responses it shares with the others; cut schemas do not shrink them.
    const document = sharedResponsesSpec(1_000, 300);
    expect(document.length).toBeLessThan(150_000);
    const refused = await catalog.importOpenApi('t1', document).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(refused).toMatchObject({
      code: 'INVALID_OPENAPI',
      details: {
        problems: [
          {
            path: expect.stringMatching(/^#\/paths\/~1p\d+\/get$/),
            message: expect.stringContaining('more than 1000000 values'),
          },
        ],
      },
    });
    expect(await store.catalog.listSpecs('t1')).toEqual([]);
  });
});
