import type { CatalogEndpoint } from '../catalog/types.js';
import { responseProperties, viewSchema } from './json-schema.js';
import type { ExpectedStatus, TestAssertion } from './test-case.js';

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** `body.id`, or `body['x-id']` for a key that is not an identifier. */
export function bodyTarget(key: string): string {
  return IDENTIFIER.test(key) ? `body.${key}` : `body['${key.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}']`;
}

/** Whether a valid value of the schema can never be "empty" in the node's sense ("", [], {}, null). */
function neverEmpty(schema: unknown): boolean {
  const view = viewSchema(schema);
  if (view.nullable || view.circular) return false;
  switch (view.type) {
    case 'number':
    case 'integer':
    case 'boolean':
      return true;
    case 'string':
      return (
        (view.minLength ?? 0) > 0 || (view.enum !== undefined && !view.enum.includes('')) || view.format !== undefined
      );
    case 'array':
      return (view.minItems ?? 0) > 0;
    case 'object':
      return view.required.length > 0;
    case undefined:
      return false;
  }
}

/**
 * Checks on a successful answer taken from the response the spec declares for the expected
 * code: a JSON content type, and each required top-level field present (and not empty where
 * its schema rules emptiness out).
 * @example successBodyChecks(createOrder, 201) // [{ target: 'headers.content-type', operator: 'contains', value: 'json' }, { target: 'body.id', operator: 'is_not_empty' }, …]
 */
export function successBodyChecks(endpoint: CatalogEndpoint, expected: ExpectedStatus): TestAssertion[] {
  const code =
    typeof expected === 'number'
      ? expected
      : Array.isArray(expected) && expected.length === 1
        ? expected[0]
        : undefined;
  // With several possible codes the body to expect is not known.
  if (code === undefined) return [];
  const response = endpoint.responses[String(code)];
  if (response === undefined || code === 204 || endpoint.method === 'HEAD') return [];
  const checks: TestAssertion[] = [];
  if (response.contentType !== undefined && /\bjson\b/i.test(response.contentType)) {
    checks.push({
      target: 'headers.content-type',
      operator: 'contains',
      value: 'json',
      description: `answer is ${response.contentType}`,
    });
  }
  if (response.schema === undefined) return checks;
  const view = viewSchema(response.schema);
  if (view.type !== 'object' && view.type !== undefined) return checks;
  const required = new Set(view.required);
  for (const [property, schema] of responseProperties(view)) {
    if (!required.has(property)) continue;
    checks.push(
      neverEmpty(schema)
        ? { target: bodyTarget(property), operator: 'is_not_empty', description: `required field ${property} is set` }
        : {
            target: 'body',
            operator: 'contains',
            value: property,
            description: `required field ${property} is present`,
          },
    );
  }
  return checks;
}
