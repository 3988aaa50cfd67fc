/**
 * OpenAPI documents of a few hundred kilobytes that stand for far more once their references
 * are followed, and what the catalog keeps of them weighed as its docs count it.
 */

const json = (schema: unknown) => ({ description: 'ok', content: { 'application/json': { schema } } });

/**
 * Three schemas: X has `width` properties, each a `$ref` to Y; Y has `width`, each a `$ref` to
 * Z, which is small (a string with a description of `description` characters). `operations`
 * GET operations answer X: written out, each holds about width² values.
 */
export function fanOutSpec(width: number, operations: number, description = 0): string {
  const properties = (target: string, prefix: string) =>
    Object.fromEntries(
      Array.from({ length: width }, (_, i) => [`${prefix}${i}`, { $ref: `#/components/schemas/${target}` }]),
    );
  return JSON.stringify({
    openapi: '3.0.3',
    info: { title: 'Fan', version: '1' },
    paths: Object.fromEntries(
      Array.from({ length: operations }, (_, i) => [
        `/f${i}`,
        { get: { responses: { '200': json({ $ref: '#/components/schemas/X' }) } } },
      ]),
    ),
    components: {
      schemas: {
        X: { type: 'object', properties: properties('Y', 'p') },
        Y: { type: 'object', properties: properties('Z', 'q') },
        Z: { type: 'string', ...(description > 0 ? { description: 'd'.repeat(description) } : {}) },
      },
    },
  });
}

/**
 * `operations` GET operations whose `responses` is one `$ref` to a map of `count` responses:
 * each operation keeps all of them, a schema each, which no cutting of schemas makes smaller.
 */
export function sharedResponsesSpec(count: number, operations: number): string {
  return JSON.stringify({
    openapi: '3.0.3',
    info: { title: 'Shared', version: '1' },
    paths: Object.fromEntries(
      Array.from({ length: operations }, (_, i) => [
        `/p${i}`,
        { get: { responses: { $ref: '#/components/x-responses' } } },
      ]),
    ),
    components: {
      'x-responses': Object.fromEntries(
        Array.from({ length: count }, (_, i) => [`${200 + i}`, json({ type: 'string' })]),
      ),
    },
  });
}

/**
 * The values `value` holds written out, as the catalog's docs count them: every value, a string
 * one more for every 32 characters, a key as many as its length in 32s.
 */
export function weigh(value: unknown): number {
  if (typeof value === 'string') return 1 + Math.floor(value.length / 32);
  if (value === null || typeof value !== 'object') return 1;
  if (Array.isArray(value)) return value.reduce<number>((sum, item) => sum + weigh(item), 1);
  return Object.entries(value).reduce((sum, [key, item]) => sum + Math.floor(key.length / 32) + weigh(item), 1);
}

/** What an endpoint's parameters, request body and responses hold, written out. */
export function schemaWeight(endpoint: {
  parameters: Array<{ schema: unknown }>;
  requestBody: { schema: unknown } | null;
  responses: Record<string, { schema?: unknown }>;
}): number {
  const roots = [
    ...endpoint.parameters.map((parameter) => parameter.schema),
    ...(endpoint.requestBody === null ? [] : [endpoint.requestBody.schema]),
    ...Object.values(endpoint.responses).map((response) => response.schema),
  ];
  return roots.reduce<number>((sum, root) => sum + (root === undefined ? 0 : weigh(root)), 0);
}
