import { isObject } from '../catalog/json-pointer.js';
import { viewSchema, type SchemaView } from './json-schema.js';

/** A pattern from a spec compiled once; a pattern JavaScript cannot read checks nothing. */
const patterns = new Map<string, RegExp | null>();
export function compilePattern(pattern: string): RegExp | null {
  if (!patterns.has(pattern)) {
    let compiled: RegExp | null = null;
    try {
      compiled = new RegExp(pattern, 'u');
    } catch {
      try {
        compiled = new RegExp(pattern);
      } catch {
        compiled = null;
      }
    }
    patterns.set(pattern, compiled);
  }
  return patterns.get(pattern) ?? null;
}

function typeMatches(view: SchemaView, value: unknown): boolean {
  switch (view.type) {
    case undefined:
      return true;
    case 'string':
      return typeof value === 'string';
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value);
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'boolean':
      return typeof value === 'boolean';
    case 'array':
      return Array.isArray(value);
    case 'object':
      return isObject(value);
  }
}

/**
 * Whether a value satisfies a schema on the keywords the generators produce values for (type,
 * enum, bounds, lengths, pattern, items, required). The generators use it to keep a spec's own
 * example only when it is valid, and to check the values they build.
 * @example conformsTo({ type: 'integer', minimum: 1 }, 0) // false
 */
export function conformsTo(schema: unknown, value: unknown, depth = 0): boolean {
  const view = viewSchema(schema);
  if (value === null) return view.nullable || view.type === undefined;
  if (view.circular || depth > 12) return true;
  if (!typeMatches(view, value)) return false;
  if (view.enum !== undefined && !view.enum.some((option) => JSON.stringify(option) === JSON.stringify(value)))
    return false;
  if (typeof value === 'number') {
    if (view.minimum !== undefined && (view.exclusiveMinimum ? value <= view.minimum : value < view.minimum))
      return false;
    if (view.maximum !== undefined && (view.exclusiveMaximum ? value >= view.maximum : value > view.maximum))
      return false;
    if (view.multipleOf !== undefined && Math.abs(value / view.multipleOf - Math.round(value / view.multipleOf)) > 1e-9)
      return false;
  }
  if (typeof value === 'string') {
    const length = [...value].length;
    if (view.minLength !== undefined && length < view.minLength) return false;
    if (view.maxLength !== undefined && length > view.maxLength) return false;
    if (view.pattern !== undefined && compilePattern(view.pattern)?.test(value) === false) return false;
  }
  if (Array.isArray(value)) {
    if (view.minItems !== undefined && value.length < view.minItems) return false;
    if (view.maxItems !== undefined && value.length > view.maxItems) return false;
    if (view.items !== undefined && !value.every((item) => conformsTo(view.items, item, depth + 1))) return false;
  }
  if (isObject(value)) {
    if (!view.required.every((name) => name in value)) return false;
    for (const [name, propertySchema] of Object.entries(view.properties)) {
      if (name in value && !conformsTo(propertySchema, value[name], depth + 1)) return false;
    }
  }
  return true;
}
