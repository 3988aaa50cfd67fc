import { isObject } from '../catalog/json-pointer.js';
import type { JsonObject } from '../catalog/types.js';

/** The JSON types a schema can ask for, `null` aside. */
export type SchemaType = 'string' | 'number' | 'integer' | 'boolean' | 'array' | 'object';

/**
 * A schema reduced to what the test generators read: one primary type, `allOf` merged, the
 * first alternative of `oneOf`/`anyOf` taken, and the bounds in one form for 3.0 and 3.1.
 */
export interface SchemaView {
  /** Undefined when the schema does not say (any value is valid). */
  type: SchemaType | undefined;
  nullable: boolean;
  format: string | undefined;
  pattern: string | undefined;
  enum: unknown[] | undefined;
  /** `const`, `example`, the first of `examples` or `default`, in that order of preference. */
  example: { value: unknown } | undefined;
  /** Inclusive bounds, exclusive ones converted (`exclusiveMinimum: true` in 3.0, a number in 3.1). */
  minimum: number | undefined;
  maximum: number | undefined;
  exclusiveMinimum: boolean;
  exclusiveMaximum: boolean;
  multipleOf: number | undefined;
  minLength: number | undefined;
  maxLength: number | undefined;
  minItems: number | undefined;
  maxItems: number | undefined;
  uniqueItems: boolean;
  items: unknown;
  properties: Record<string, unknown>;
  required: string[];
  readOnly: boolean;
  writeOnly: boolean;
  /** A `$ref` kept where a recursive schema recursed: nothing more is known about it. */
  circular: boolean;
}

const SCHEMA_TYPES = new Set<string>(['string', 'number', 'integer', 'boolean', 'array', 'object']);

/** `allOf` parts merged into one object schema; later parts win on plain keywords. */
function flatten(schema: unknown, depth = 0): JsonObject {
  if (!isObject(schema)) return {};
  if (depth > 8) return schema;
  let base: JsonObject = { ...schema };
  if (Array.isArray(schema.allOf)) {
    delete base.allOf;
    for (const part of schema.allOf) base = mergeSchemas(base, flatten(part, depth + 1));
  }
  for (const key of ['oneOf', 'anyOf'] as const) {
    const alternatives = schema[key];
    if (!Array.isArray(alternatives)) continue;
    delete base[key];
    // The first alternative that is not just `null` is as good as any other and keeps output stable.
    const chosen = alternatives.find((alternative) => !(isObject(alternative) && alternative.type === 'null'));
    if (chosen !== undefined) base = mergeSchemas(base, flatten(chosen, depth + 1));
    if (alternatives.some((alternative) => isObject(alternative) && alternative.type === 'null')) base.nullable = true;
  }
  return base;
}

function mergeSchemas(left: JsonObject, right: JsonObject): JsonObject {
  const merged: JsonObject = { ...left, ...right };
  if (isObject(left.properties) || isObject(right.properties)) {
    merged.properties = {
      ...(isObject(left.properties) ? left.properties : {}),
      ...(isObject(right.properties) ? right.properties : {}),
    };
  }
  const required = [...stringList(left.required), ...stringList(right.required)];
  if (required.length > 0) merged.required = [...new Set(required)];
  return merged;
}

function stringList(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((element): element is string => typeof element === 'string') : [];
}

function finite(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

function count(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : undefined;
}

function inferType(schema: JsonObject): SchemaType | undefined {
  if (isObject(schema.properties)) return 'object';
  if (schema.items !== undefined) return 'array';
  const probe = Array.isArray(schema.enum) ? schema.enum.find((value) => value !== null) : schema.const;
  if (typeof probe === 'string') return 'string';
  if (typeof probe === 'boolean') return 'boolean';
  if (typeof probe === 'number') return Number.isInteger(probe) ? 'integer' : 'number';
  if (finite(schema.minimum) !== undefined || finite(schema.maximum) !== undefined) return 'number';
  if (
    count(schema.minLength) !== undefined ||
    count(schema.maxLength) !== undefined ||
    typeof schema.pattern === 'string' ||
    typeof schema.format === 'string'
  ) {
    return 'string';
  }
  return undefined;
}

/**
 * Reads a schema from the catalog as a `SchemaView`.
 * @example viewSchema({ type: ['integer', 'null'], exclusiveMinimum: 0 }) // { type: 'integer', nullable: true, minimum: 0, exclusiveMinimum: true, … }
 */
export function viewSchema(input: unknown): SchemaView {
  const schema = flatten(input);
  const types = (Array.isArray(schema.type) ? schema.type : [schema.type]).filter(
    (type): type is string => typeof type === 'string',
  );
  const primary = types.find((type) => SCHEMA_TYPES.has(type)) as SchemaType | undefined;
  let minimum = finite(schema.minimum);
  let maximum = finite(schema.maximum);
  let exclusiveMinimum = schema.exclusiveMinimum === true;
  let exclusiveMaximum = schema.exclusiveMaximum === true;
  // OpenAPI 3.1 (JSON Schema 2020-12) writes the exclusive bound itself as the number.
  if (finite(schema.exclusiveMinimum) !== undefined) {
    minimum = finite(schema.exclusiveMinimum);
    exclusiveMinimum = true;
  }
  if (finite(schema.exclusiveMaximum) !== undefined) {
    maximum = finite(schema.exclusiveMaximum);
    exclusiveMaximum = true;
  }
  let example: SchemaView['example'];
  if ('const' in schema) example = { value: schema.const };
  else if (schema.example !== undefined) example = { value: schema.example };
  else if (Array.isArray(schema.examples) && schema.examples.length > 0) example = { value: schema.examples[0] };
  else if (schema.default !== undefined) example = { value: schema.default };
  const enumValues = Array.isArray(schema.enum) ? schema.enum.filter((value) => value !== null) : undefined;
  return {
    type: primary ?? inferType(schema),
    nullable:
      schema.nullable === true || types.includes('null') || (Array.isArray(schema.enum) && schema.enum.includes(null)),
    format: typeof schema.format === 'string' ? schema.format : undefined,
    pattern: typeof schema.pattern === 'string' ? schema.pattern : undefined,
    enum: enumValues !== undefined && enumValues.length > 0 ? enumValues : undefined,
    example,
    minimum,
    maximum,
    exclusiveMinimum: exclusiveMinimum && minimum !== undefined,
    exclusiveMaximum: exclusiveMaximum && maximum !== undefined,
    multipleOf:
      finite(schema.multipleOf) !== undefined && (schema.multipleOf as number) > 0
        ? (schema.multipleOf as number)
        : undefined,
    minLength: count(schema.minLength),
    maxLength: count(schema.maxLength),
    minItems: count(schema.minItems),
    maxItems: count(schema.maxItems),
    uniqueItems: schema.uniqueItems === true,
    items: schema.items,
    properties: isObject(schema.properties) ? schema.properties : {},
    required: stringList(schema.required),
    readOnly: schema.readOnly === true,
    writeOnly: schema.writeOnly === true,
    circular: schema['x-circular'] === true,
  };
}

/** Properties a client sends: `readOnly` ones belong to answers only. */
export function requestProperties(view: SchemaView): [string, unknown][] {
  return Object.entries(view.properties).filter(([, schema]) => !viewSchema(schema).readOnly);
}

/** Properties a server answers with: `writeOnly` ones (passwords) never come back. */
export function responseProperties(view: SchemaView): [string, unknown][] {
  return Object.entries(view.properties).filter(([, schema]) => !viewSchema(schema).writeOnly);
}
