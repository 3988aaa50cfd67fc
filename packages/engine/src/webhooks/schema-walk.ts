/** A place inside a JSON value as RFC 6901 segments (unescaped). */
export type PointerSegments = readonly (string | number)[];

/** Keywords whose value is one subschema. */
const SCHEMA_KEYWORDS = [
  'additionalItems',
  'additionalProperties',
  'contains',
  'propertyNames',
  'not',
  'if',
  'then',
  'else',
] as const;
/** Keywords whose value is a list of subschemas (`items` may be one or a list). */
const SCHEMA_LIST_KEYWORDS = ['allOf', 'anyOf', 'oneOf', 'items'] as const;
/** Keywords whose value maps names to subschemas (`dependencies` values may be name lists). */
const SCHEMA_MAP_KEYWORDS = ['properties', 'patternProperties', 'definitions', '$defs', 'dependencies'] as const;

export interface SchemaVisit {
  schema: Record<string, unknown>;
  path: PointerSegments;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** The direct subschemas of a schema, with their places relative to it, in document order. */
export function subschemasOf(schema: Record<string, unknown>, path: PointerSegments = []): SchemaVisit[] {
  const children: SchemaVisit[] = [];
  const add = (value: unknown, at: PointerSegments) => {
    if (isObject(value)) children.push({ schema: value, path: at });
  };
  for (const keyword of SCHEMA_KEYWORDS) add(schema[keyword], [...path, keyword]);
  for (const keyword of SCHEMA_LIST_KEYWORDS) {
    const value = schema[keyword];
    if (Array.isArray(value)) value.forEach((item, index) => add(item, [...path, keyword, index]));
    else add(value, [...path, keyword]);
  }
  for (const keyword of SCHEMA_MAP_KEYWORDS) {
    const value = schema[keyword];
    if (isObject(value)) for (const [name, item] of Object.entries(value)) add(item, [...path, keyword, name]);
  }
  return children;
}

/**
 * Every subschema of a JSON Schema (draft-07 keywords) in document order, with its place; values
 * of `const`, `enum`, `default` and `examples` are data, not schemas, and are not entered. Keeps
 * its own stack: the caller has bounded the depth, but nothing here relies on it.
 */
export function* walkSchema(root: Record<string, unknown>): Generator<SchemaVisit> {
  const stack: SchemaVisit[] = [{ schema: root, path: [] }];
  while (stack.length > 0) {
    const visit = stack.pop()!;
    yield visit;
    const children = subschemasOf(visit.schema, visit.path);
    for (let index = children.length - 1; index >= 0; index -= 1) stack.push(children[index]!);
  }
}

/** `['properties', 'a/b', 0]` → `/properties/a~1b/0` (RFC 6901). */
export function toPointer(path: PointerSegments): string {
  return path.map((segment) => `/${String(segment).replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');
}

/** `/properties/a~1b/0` → `['properties', 'a/b', '0']`; undefined for text that is no pointer. */
export function fromPointer(pointer: string): string[] | undefined {
  if (pointer === '') return [];
  if (!pointer.startsWith('/')) return undefined;
  return pointer
    .slice(1)
    .split('/')
    .map((segment) => segment.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/**
 * The value a local `$ref` (`#` or `#/definitions/x`, percent-encoded as URI fragments are)
 * points at inside `root`; undefined when it points at nothing.
 */
export function resolveLocalRef(root: unknown, ref: string): unknown {
  if (!ref.startsWith('#')) return undefined;
  let fragment: string;
  try {
    fragment = decodeURIComponent(ref.slice(1));
  } catch {
    return undefined;
  }
  const segments = fromPointer(fragment);
  if (segments === undefined) return undefined;
  let at: unknown = root;
  for (const segment of segments) {
    if (Array.isArray(at) && /^(0|[1-9]\d*)$/.test(segment)) at = at[Number(segment)];
    else if (isObject(at) && Object.hasOwn(at, segment)) at = at[segment];
    else return undefined;
  }
  return at;
}
