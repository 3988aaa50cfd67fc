import { buildPlannerIndex, planRoadmap, type CatalogEntry } from '@svc/discovery';

/**
 * The planner on a catalog of 1,000 operations: 200 resources, each with list, create, read,
 * update and delete, and the create of each nested under its parent (`/accounts/{account_id}/invoices`),
 * so plans need producers. Reports the time to index the catalog and to plan one requirement,
 * index included, against the 100 ms target.
 */
const NOUNS = [
  'account',
  'invoice',
  'customer',
  'order',
  'shipment',
  'product',
  'warehouse',
  'payment',
  'refund',
  'coupon',
];

function syntheticCatalog(resources: number): CatalogEntry[] {
  const endpoints: CatalogEntry[] = [];
  for (let index = 0; index < resources; index += 1) {
    const noun = `${NOUNS[index % NOUNS.length]}${Math.floor(index / NOUNS.length) || ''}`;
    const parent =
      index === 0 ? undefined : `${NOUNS[(index - 1) % NOUNS.length]}${Math.floor((index - 1) / NOUNS.length) || ''}`;
    const object = {
      type: 'object',
      properties: { id: { type: 'string' }, name: { type: 'string' }, status: { type: 'string' } },
    };
    const base = parent === undefined ? `/${noun}s` : `/${parent}s/{${parent}_id}/${noun}s`;
    const params = (path: string) =>
      [...path.matchAll(/\{(\w+)\}/g)].map((match) => ({
        name: match[1]!,
        in: 'path' as const,
        required: true,
        schema: { type: 'string' },
      }));
    const make = (method: string, path: string, summary: string, body: boolean, response: unknown): CatalogEntry => ({
      id: `${method.toLowerCase()}_${path.replace(/[^a-z0-9]+/gi, '_')}`,
      method,
      path,
      summary,
      description: `${summary}. Works on ${noun} records.`,
      tags: [noun],
      deprecated: false,
      parameters: params(path),
      requestBody: body
        ? {
            required: true,
            contentType: 'application/json',
            schema: { type: 'object', required: ['name'], properties: { name: { type: 'string' } } },
          }
        : null,
      responses: { '200': { description: 'ok', contentType: 'application/json', schema: response } },
      security: [],
      securitySchemes: {},
      servers: [],
      specId: 'synthetic',
    });
    endpoints.push(
      make('GET', base, `List ${noun}s`, false, { type: 'array', items: object }),
      make('POST', base, `Create a ${noun}`, true, object),
      make('GET', `/${noun}s/{${noun}_id}`, `Get a ${noun}`, false, object),
      make('PUT', `/${noun}s/{${noun}_id}`, `Update a ${noun}`, true, object),
      make('DELETE', `/${noun}s/{${noun}_id}`, `Delete a ${noun}`, false, object),
    );
  }
  return endpoints;
}

export function benchPlanner(): { operations: number; indexMs: number; planMs: number } {
  const catalog = syntheticCatalog(200);
  const requirements = [
    'create an invoice3 for the account3 and then get the invoice3',
    'update the order7 and delete its shipment7',
    'list payments and refund the first one',
  ];
  const indexTimes: number[] = [];
  const planTimes: number[] = [];
  for (let round = 0; round < 7; round += 1) {
    for (const requirement of requirements) {
      const started = performance.now();
      const index = buildPlannerIndex(catalog);
      const indexed = performance.now();
      planRoadmap(requirement, index);
      indexTimes.push(indexed - started);
      planTimes.push(performance.now() - started);
    }
  }
  const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  return { operations: catalog.length, indexMs: median(indexTimes), planMs: median(planTimes) };
}
