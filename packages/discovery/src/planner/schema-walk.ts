import { isObject } from '../catalog/json-pointer.js';
import type { JsonObject } from '../catalog/types.js';

/**
 * Reading resolved JSON schemas the way a planner needs: the properties an object has (through
 * `allOf`, and the first branch of `oneOf`/`anyOf`), the item schema of an array, and whether a
 * schema describes an array.
 */

export function schemaProperties(schema: unknown, depth = 0): Record<string, unknown> {
  if (!isObject(schema) || depth > 6) return {};
  const out: Record<string, unknown> = {};
  for (const part of asArray(schema.allOf)) Object.assign(out, schemaProperties(part, depth + 1));
  const alternative = asArray(schema.oneOf)[0] ?? asArray(schema.anyOf)[0];
  if (alternative !== undefined) Object.assign(out, schemaProperties(alternative, depth + 1));
  if (isObject(schema.properties)) Object.assign(out, schema.properties);
  return out;
}

export function requiredProperties(schema: unknown, depth = 0): string[] {
  if (!isObject(schema) || depth > 6) return [];
  const out = new Set<string>();
  for (const part of asArray(schema.allOf)) for (const name of requiredProperties(part, depth + 1)) out.add(name);
  if (Array.isArray(schema.required)) for (const name of schema.required) if (typeof name === 'string') out.add(name);
  return [...out];
}

/** The item schema when `schema` is an array (directly or through `allOf`), else undefined. */
export function arrayItems(schema: unknown, depth = 0): unknown {
  if (!isObject(schema) || depth > 6) return undefined;
  if (
    schema.type === 'array' ||
    (Array.isArray(schema.type) && schema.type.includes('array')) ||
    schema.items !== undefined
  ) {
    return schema.items ?? {};
  }
  for (const part of asArray(schema.allOf)) {
    const items = arrayItems(part, depth + 1);
    if (items !== undefined) return items;
  }
  return undefined;
}

export function schemaTitle(schema: unknown): string | undefined {
  if (!isObject(schema)) return undefined;
  if (typeof schema.title === 'string') return schema.title;
  if (typeof schema.$ref === 'string') return schema.$ref.slice(schema.$ref.lastIndexOf('/') + 1);
  return undefined;
}

/** The single value a `type`-like property is pinned to (`enum: ["patient"]`, `const`), if any. */
export function pinnedValue(schema: unknown): string | undefined {
  if (!isObject(schema)) return undefined;
  if (typeof schema.const === 'string') return schema.const;
  if (Array.isArray(schema.enum) && schema.enum.length === 1 && typeof schema.enum[0] === 'string')
    return schema.enum[0];
  return undefined;
}

/** The success response schema of an endpoint: the first declared 2XX with a schema. */
export function successSchema(responses: Record<string, { schema?: unknown }>): unknown {
  return successSchemas(responses)[0];
}

/** Every declared 2XX response schema, lowest status first (`200` and `201` of a create). */
export function successSchemas(responses: Record<string, { schema?: unknown }>): unknown[] {
  return Object.keys(responses)
    .filter((code) => /^2/.test(code))
    .sort()
    .map((code) => responses[code]?.schema)
    .filter((schema) => schema !== undefined);
}

function asArray(value: unknown): JsonObject[] {
  return Array.isArray(value) ? value.filter(isObject) : [];
}
