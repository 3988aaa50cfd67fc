import type { JsonObject } from '../catalog/types.js';

/** Deep enough for any hand-written body; a deeper (or recursive) schema stops with a placeholder. */
const MAX_DEPTH = 8;

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The example a schema gives: `example`, else the first of `examples` (OpenAPI 3.1 / JSON Schema). */
export function schemaExample(schema: unknown): { value: unknown } | undefined {
  if (!isObject(schema)) return undefined;
  if (schema.example !== undefined) return { value: structuredClone(schema.example) };
  if (Array.isArray(schema.examples) && schema.examples.length > 0)
    return { value: structuredClone(schema.examples[0]) };
  return undefined;
}

function typeOf(schema: JsonObject): string | undefined {
  if (typeof schema.type === 'string') return schema.type;
  if (Array.isArray(schema.type))
    return schema.type.find((type): type is string => typeof type === 'string' && type !== 'null');
  if (isObject(schema.properties)) return 'object';
  if (schema.items !== undefined) return 'array';
  return undefined;
}

/** A stand-in for a string with no example: fits common formats and a minimum length. */
function stringPlaceholder(schema: JsonObject): string {
  switch (schema.format) {
    case 'email':
      return 'user@example.com';
    case 'date-time':
      return '2024-01-01T00:00:00Z';
    case 'date':
      return '2024-01-01';
    case 'uuid':
      return '00000000-0000-4000-8000-000000000000';
    case 'uri':
    case 'url':
      return 'https://example.com';
  }
  const minLength = typeof schema.minLength === 'number' ? Math.min(schema.minLength, 64) : 0;
  return 'x'.repeat(minLength);
}

function numberPlaceholder(schema: JsonObject, integer: boolean): number {
  let value = 0;
  if (typeof schema.minimum === 'number') value = schema.minimum;
  if (typeof schema.exclusiveMinimum === 'number') value = schema.exclusiveMinimum + (integer ? 1 : 0.5);
  else if (schema.exclusiveMinimum === true) value += integer ? 1 : 0.5;
  if (typeof schema.maximum === 'number' && value > schema.maximum) value = schema.maximum;
  return integer ? Math.ceil(value) : value;
}

/**
 * A property is written when a value is bound to it, or when it is required or carries its own
 * example and is not read-only (a server sets those; requests leave them out).
 */
function wanted(name: string, property: unknown, required: ReadonlySet<string>, keep: ReadonlySet<string>): boolean {
  if (keep.has(name)) return true;
  if (isObject(property) && property.readOnly === true) return false;
  return required.has(name) || schemaExample(property) !== undefined;
}

export interface SkeletonOptions {
  /** Dotted paths (`items[0].sku`) that will be bound: their parents are written even when optional. */
  keep?: ReadonlyArray<ReadonlyArray<string | number>>;
}

/**
 * A request body that a schema accepts, for a person to read and adjust: the schema's example
 * when it has one, else its required fields (and optional fields that carry an example) filled
 * from examples, defaults, enums or type placeholders. Read-only properties are left out.
 *
 * @example
 * bodySkeleton({ type: 'object', required: ['name'], properties: { name: { type: 'string', example: 'Ada' }, note: { type: 'string' } } })
 * // { name: 'Ada' }
 */
export function bodySkeleton(schema: unknown, options: SkeletonOptions = {}): unknown {
  return build(schema, options.keep ?? [], 0);
}

function childKeeps(keep: ReadonlyArray<ReadonlyArray<string | number>>, key: string | number) {
  return keep.filter((path) => path[0] === key && path.length > 1).map((path) => path.slice(1));
}

function build(schema: unknown, keep: ReadonlyArray<ReadonlyArray<string | number>>, depth: number): unknown {
  if (!isObject(schema) || depth > MAX_DEPTH || schema['x-circular'] === true) return null;
  const example = schemaExample(schema);
  // Bound values are written over the example afterwards, so an example always wins here.
  if (example !== undefined) return example.value;
  if (schema.default !== undefined && keep.length === 0) return structuredClone(schema.default);
  if (schema.const !== undefined) return structuredClone(schema.const);
  if (Array.isArray(schema.enum) && schema.enum.length > 0)
    return structuredClone(schema.enum.find((value) => value !== null) ?? schema.enum[0]);

  if (Array.isArray(schema.allOf)) {
    const parts = schema.allOf.map((part) => build(part, keep, depth + 1));
    const own =
      typeOf(schema) === 'object' || isObject(schema.properties)
        ? build({ ...schema, allOf: undefined }, keep, depth + 1)
        : undefined;
    const objects = [...parts, own].filter(isObject);
    if (objects.length > 0) return Object.assign({}, ...objects);
    return parts.find((part) => part !== null) ?? null;
  }
  for (const key of ['oneOf', 'anyOf'] as const) {
    const options = schema[key];
    if (Array.isArray(options) && options.length > 0) {
      const first = options.find((option) => !(isObject(option) && option.type === 'null')) ?? options[0];
      return build(
        isObject(schema.properties) ? { ...(first as JsonObject), ...schema, [key]: undefined } : first,
        keep,
        depth + 1,
      );
    }
  }

  switch (typeOf(schema)) {
    case 'object': {
      const result: JsonObject = {};
      const properties = isObject(schema.properties) ? schema.properties : {};
      const required = new Set(
        Array.isArray(schema.required)
          ? schema.required.filter((name): name is string => typeof name === 'string')
          : [],
      );
      const kept = new Set(keep.map((path) => path[0]).filter((key): key is string => typeof key === 'string'));
      for (const [name, property] of Object.entries(properties)) {
        if (!wanted(name, property, required, kept)) continue;
        result[name] = build(property, childKeeps(keep, name), depth + 1);
      }
      // Required names the schema does not describe still need a value.
      for (const name of required) if (!(name in properties)) result[name] = null;
      return result;
    }
    case 'array': {
      const itemKeeps = keep.filter((path) => typeof path[0] === 'number');
      const items = schema.items;
      const minItems = typeof schema.minItems === 'number' ? schema.minItems : 0;
      const structured =
        isObject(items) &&
        (typeOf(items) === 'object' ||
          Array.isArray(items.allOf) ||
          Array.isArray(items.oneOf) ||
          Array.isArray(items.anyOf));
      const count = Math.max(
        Math.min(minItems, 3),
        structured ? 1 : 0,
        ...itemKeeps.map((path) => (path[0] as number) + 1),
      );
      return Array.from({ length: count }, (_, index) => build(items, childKeeps(itemKeeps, index), depth + 1));
    }
    case 'string':
      return stringPlaceholder(schema);
    case 'integer':
      return numberPlaceholder(schema, true);
    case 'number':
      return numberPlaceholder(schema, false);
    case 'boolean':
      return false;
    case 'null':
      return null;
    default:
      return null;
  }
}

/**
 * Writes `value` at a field path inside `target` (which it returns), creating objects and
 * arrays on the way. `[]` (the whole body) answers the value itself.
 */
export function setAtPath(target: unknown, path: ReadonlyArray<string | number>, value: unknown): unknown {
  if (path.length === 0) return value;
  const [head, ...rest] = path as [string | number, ...Array<string | number>];
  const container: Record<string | number, unknown> =
    typeof head === 'number'
      ? ((Array.isArray(target) ? target : []) as unknown as Record<number, unknown>)
      : isObject(target)
        ? target
        : {};
  if (typeof head === 'number' && Array.isArray(container)) {
    while ((container as unknown[]).length < head) (container as unknown[]).push(null);
  }
  container[head] = setAtPath(container[head], rest, value);
  return container;
}
