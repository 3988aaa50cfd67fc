import { conformsTo, compilePattern } from './check-value.js';
import { requestProperties, viewSchema, type SchemaView } from './json-schema.js';

export interface SampleOptions {
  /** `all` fills every property a client may send; `required` only the required ones. */
  fields: 'all' | 'required';
  /** Take the spec's valid `example`/`examples`/`default` where it has one. */
  useExamples: boolean;
}

const MAX_DEPTH = 6;

const FORMAT_SAMPLES: Record<string, string> = {
  'date-time': '2024-01-15T10:30:00Z',
  date: '2024-01-15',
  time: '10:30:00Z',
  email: 'user@example.com',
  'idn-email': 'user@example.com',
  uuid: '3fa85f64-5717-4562-b3fc-2c963f66afa6',
  uri: 'https://example.com/resource',
  url: 'https://example.com/resource',
  iri: 'https://example.com/resource',
  'uri-reference': '/resource',
  hostname: 'example.com',
  ipv4: '192.0.2.10',
  ipv6: '2001:db8::10',
  byte: 'c2FtcGxl',
  binary: 'sample',
  password: 'Sample-Passw0rd',
  duration: 'PT1H',
};

/** Candidates tried in order when a pattern rejects the usual sample. */
const PATTERN_CANDIDATES = [
  'sample',
  'abc',
  'ABC',
  'abc123',
  'ABC123',
  '123',
  '1',
  'a',
  'A',
  'a-b',
  'a_b',
  'AB-123',
  'sample@example.com',
];

/** Rounds away float noise (0.1 + 0.2) so samples print as a person would write them. */
export function tidyNumber(value: number): number {
  return Number(value.toFixed(10));
}

/** The smallest step between two distinct valid numbers of a schema. */
export function numberStep(view: SchemaView): number {
  if (view.multipleOf !== undefined)
    return view.type === 'integer' ? Math.max(1, Math.ceil(view.multipleOf)) : view.multipleOf;
  return view.type === 'integer' ? 1 : 0.01;
}

/** The lowest and highest valid numbers, exclusive bounds moved inwards by one step. */
export function inclusiveBounds(view: SchemaView): { low: number | undefined; high: number | undefined } {
  const step = numberStep(view);
  let low = view.minimum;
  let high = view.maximum;
  if (low !== undefined && view.type === 'integer') low = Math.ceil(low);
  if (high !== undefined && view.type === 'integer') high = Math.floor(high);
  if (low !== undefined && view.exclusiveMinimum) low = tidyNumber(low + step);
  if (high !== undefined && view.exclusiveMaximum) high = tidyNumber(high - step);
  if (view.multipleOf !== undefined) {
    if (low !== undefined) low = tidyNumber(Math.ceil(tidyNumber(low / view.multipleOf)) * view.multipleOf);
    if (high !== undefined) high = tidyNumber(Math.floor(tidyNumber(high / view.multipleOf)) * view.multipleOf);
  }
  return { low, high };
}

function sampleNumber(view: SchemaView): number {
  const { low, high } = inclusiveBounds(view);
  const integer = view.type === 'integer';
  let value: number;
  if (low !== undefined && high !== undefined) value = integer ? low + Math.floor((high - low) / 2) : (low + high) / 2;
  else if (low !== undefined) value = low;
  else if (high !== undefined) value = Math.min(high, integer ? 1 : 1.5);
  else value = integer ? 1 : 1.5;
  if (view.multipleOf !== undefined) {
    value = Math.ceil(tidyNumber(value / view.multipleOf)) * view.multipleOf;
    if (high !== undefined && value > high) value = high;
  }
  return tidyNumber(integer ? Math.round(value) : value);
}

/** A string of exactly `length` characters built from `base` (cut, or padded with `x`). */
export function stringOfLength(base: string, length: number): string {
  const chars = [...base];
  if (chars.length >= length) return chars.slice(0, length).join('');
  const at = base.indexOf('@');
  // An email keeps its domain: the local part grows.
  if (at > 0) return base.slice(0, at) + 'x'.repeat(length - chars.length) + base.slice(at);
  return base + 'x'.repeat(length - chars.length);
}

function sampleString(view: SchemaView, name: string | undefined): string {
  let value =
    (view.format !== undefined ? FORMAT_SAMPLES[view.format] : undefined) ??
    (name !== undefined && /e-?mail/i.test(name) ? 'user@example.com' : 'sample');
  if (view.minLength !== undefined && [...value].length < view.minLength) value = stringOfLength(value, view.minLength);
  if (view.maxLength !== undefined && [...value].length > view.maxLength) value = stringOfLength(value, view.maxLength);
  const pattern = view.pattern !== undefined ? compilePattern(view.pattern) : null;
  if (pattern !== null && !pattern.test(value)) {
    const fitting = PATTERN_CANDIDATES.map((candidate) => fitLength(view, candidate)).find((candidate) =>
      pattern.test(candidate),
    );
    if (fitting !== undefined) value = fitting;
  }
  return value;
}

function fitLength(view: SchemaView, value: string): string {
  if (view.minLength !== undefined && [...value].length < view.minLength) return stringOfLength(value, view.minLength);
  if (view.maxLength !== undefined && [...value].length > view.maxLength) return stringOfLength(value, view.maxLength);
  return value;
}

/**
 * The `index`-th distinct sample of a scalar schema, for arrays with `uniqueItems` and for
 * boundary cases that need several different items.
 */
export function sampleVariant(schema: unknown, index: number, options: SampleOptions, name?: string): unknown {
  const base = sampleValue(schema, options, name);
  if (index === 0) return base;
  const view = viewSchema(schema);
  if (view.enum !== undefined) return view.enum[index % view.enum.length];
  if (typeof base === 'number') {
    const { high } = inclusiveBounds(view);
    const candidate = tidyNumber(base + index * numberStep(view));
    return high !== undefined && candidate > high ? tidyNumber(base - index * numberStep(view)) : candidate;
  }
  if (typeof base === 'string') {
    const suffix = String(index + 1);
    const length = [...base].length;
    const room = view.maxLength !== undefined ? Math.min(length, view.maxLength - suffix.length) : length;
    return [...base].slice(0, Math.max(0, room)).join('') + suffix;
  }
  return base;
}

/** How many items a sample array gets: at least one, within `minItems`..`maxItems`. */
function itemCount(view: SchemaView): number {
  const wanted = Math.max(view.minItems ?? 1, 1);
  return view.maxItems !== undefined ? Math.min(wanted, view.maxItems) : wanted;
}

/**
 * A value that satisfies the schema, built the same way every time: the spec's example when it
 * has a valid one (and `useExamples`), else the first enum value, else a value made from the
 * type, format and bounds.
 * @example sampleValue({ type: 'integer', minimum: 1, maximum: 100 }, { fields: 'all', useExamples: true }) // 50
 */
export function sampleValue(schema: unknown, options: SampleOptions, name?: string, depth = 0): unknown {
  const view = viewSchema(schema);
  const wholeExample =
    view.example !== undefined && options.useExamples && !(view.type === 'object' && options.fields === 'required');
  if (
    wholeExample &&
    view.example !== undefined &&
    view.example.value !== null &&
    conformsTo(schema, view.example.value)
  ) {
    return structuredClone(view.example.value);
  }
  if (view.enum !== undefined) return structuredClone(view.enum[0]);
  if (view.circular) return view.nullable ? null : {};
  switch (view.type) {
    case 'string':
      return sampleString(view, name);
    case 'integer':
    case 'number':
      return sampleNumber(view);
    case 'boolean':
      return true;
    case 'array': {
      if (depth >= MAX_DEPTH) return [];
      const count = itemCount(view);
      return Array.from({ length: count }, (_, index) =>
        view.uniqueItems
          ? sampleVariant(view.items, index, options, name)
          : sampleValue(view.items, options, name, depth + 1),
      );
    }
    case 'object':
      return sampleObject(view, options, depth);
    case undefined:
      return Object.keys(view.properties).length > 0 ? sampleObject(view, options, depth) : 'sample';
  }
}

function sampleObject(view: SchemaView, options: SampleOptions, depth: number): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  if (depth >= MAX_DEPTH) return result;
  const required = new Set(view.required);
  for (const [property, propertySchema] of requestProperties(view)) {
    if (options.fields === 'required' && !required.has(property)) continue;
    result[property] = sampleValue(propertySchema, options, property, depth + 1);
  }
  // A required name the schema does not describe still has to be sent.
  for (const property of view.required) {
    if (!(property in result) && !(property in view.properties)) result[property] = 'sample';
  }
  return result;
}
