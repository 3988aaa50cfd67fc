import type { Ajv, ErrorObject, ValidateFunction } from 'ajv';
import { loadAjv } from './lazy-libraries.js';
import { BoundedMap } from '../bounded-map.js';
import { SvcError } from '../errors.js';
import { checkJsonShape, MAX_JSON_DEPTH } from '../model/json-depth.js';
import { compileLinearRegExp, linearRegExpEngine } from './linear-regexp.js';
import { payloadFormats } from './payload-formats.js';
import { resolveLocalRef, subschemasOf, toPointer, walkSchema, type PointerSegments } from './schema-walk.js';
import { uniqueItemsKeyword } from './unique-items.js';

/**
 * A problem with a payload (or with a payload schema). `path` is an RFC 6901 JSON Pointer into
 * the value checked: `""` is the whole value, `/items/0/sku` the `sku` of the first item. For a
 * missing required property or a property `additionalProperties` forbids, it points at that
 * property (`/customer/email`), not at the object holding it.
 */
export interface PayloadProblem {
  path: string;
  message: string;
}

/** Longest payload schema, as JSON text. */
export const MAX_PAYLOAD_SCHEMA_BYTES = 64 * 1024;
/** Deepest nesting of a payload schema's JSON (a nested object property takes two levels). */
export const MAX_PAYLOAD_SCHEMA_DEPTH = 32;
/**
 * Most subschemas validation may apply at one place in a payload, counting a `$ref` as a copy
 * of what it points at: `$ref`s shared through `anyOf` double at each level (`d1: anyOf[d0, d0]`,
 * `d2: anyOf[d1, d1]` …), so a 1 KB schema could otherwise make each payload value cost 2^30.
 */
export const MAX_EXPANDED_SUBSCHEMAS = 5_000;
/** Problems answered for one payload; the rest are counted in the last one. */
export const MAX_PAYLOAD_PROBLEMS = 100;

/** Keywords that annotate and validate nothing: allowed beside ajv's own, as are `x-…` extensions. */
const ANNOTATIONS = new Set([
  '$id',
  '$schema',
  'definitions',
  '$defs',
  'title',
  'description',
  'default',
  'examples',
  'example',
  'readOnly',
  'writeOnly',
  'deprecated',
  'contentMediaType',
  'contentEncoding',
]);

const DRAFT_07 = 'http://json-schema.org/draft-07/schema';

function createAjv(): Ajv {
  const ajv = new (loadAjv().Ajv)({
    allErrors: true,
    // Unknown keywords are reported by checkPayloadSchema with their place, which ajv's strict
    // mode does not give; the type checks of strict mode only warn.
    strictSchema: false,
    strictTypes: false,
    strictTuples: false,
    strictRequired: false,
    allowUnionTypes: true,
    // A schema's `$id` is not registered in the shared instance, so two flows (of any tenants)
    // using the same `$id` never collide.
    addUsedSchema: false,
    formats: { ...payloadFormats() },
    code: { regExp: linearRegExpEngine },
    logger: false,
  });
  ajv.removeKeyword('uniqueItems');
  ajv.addKeyword(uniqueItemsKeyword);
  return ajv;
}

/** The instance that checks schemas against the meta-schema: it holds only the meta-schema. */
let schemaChecker: Ajv | undefined;

/**
 * Checks a payload schema when a flow is saved: it must be a draft-07 JSON Schema ajv compiles,
 * within the size and depth limits, whose `pattern`s and `patternProperties` fit the linear-time
 * regular expression engine, whose `format`s are known, whose `$ref`s point inside it and never
 * back at themselves, and whose keywords are known (`x-…` extensions and annotations aside).
 * Answers every problem with its JSON Pointer into the schema; [] when it is fine.
 *
 * @example
 * checkPayloadSchema({ type: 'object', properties: { id: { pattern: '^(a+)+$' } } }); // []
 * checkPayloadSchema({ properties: { id: { type: 'strnig' } } });
 * // [{ path: '/properties/id/type', message: 'must be equal to one of the allowed values: …' }]
 */
export function checkPayloadSchema(schema: Record<string, unknown>): PayloadProblem[] {
  const shape = checkJsonShape(schema, { maxDepth: MAX_PAYLOAD_SCHEMA_DEPTH });
  if (shape !== undefined) {
    return [
      shape.kind === 'too-deep'
        ? { path: toPointer(shape.path), message: `nests deeper than ${MAX_PAYLOAD_SCHEMA_DEPTH} levels` }
        : { path: shape.kind === 'cycle' ? toPointer(shape.path) : '', message: 'refers to itself' },
    ];
  }
  const bytes = Buffer.byteLength(JSON.stringify(schema), 'utf8');
  if (bytes > MAX_PAYLOAD_SCHEMA_BYTES) {
    return [
      { path: '', message: `is ${bytes} bytes of JSON; a payload schema holds at most ${MAX_PAYLOAD_SCHEMA_BYTES}` },
    ];
  }
  schemaChecker ??= createAjv();
  const problems = [...metaSchemaProblems(schemaChecker, schema), ...keywordProblems(schemaChecker, schema)];
  if (problems.length === 0) problems.push(...referenceProblems(schema));
  if (problems.length === 0) {
    try {
      schemaChecker.compile(schema);
    } catch (error) {
      problems.push({
        path: '',
        message: `does not compile: ${error instanceof Error ? error.message : String(error)}`,
      });
    } finally {
      schemaChecker.removeSchema(schema);
    }
  }
  return problems;
}

function metaSchemaProblems(ajv: Ajv, schema: Record<string, unknown>): PayloadProblem[] {
  const declared = schema.$schema;
  if (declared !== undefined && (typeof declared !== 'string' || declared.replace(/#$/, '') !== DRAFT_07)) {
    return [
      {
        path: '/$schema',
        message: `payload schemas are JSON Schema draft-07: "$schema" is "${DRAFT_07}#" or left out`,
      },
    ];
  }
  if (ajv.validateSchema(schema) === true) return [];
  const errors = ajv.errors ?? [];
  // `type: "strnig"` fails the enum and the array branch of an anyOf, and the anyOf itself: the
  // anyOf line says nothing more where its branches have already spoken.
  const specific = new Set(errors.filter((error) => error.keyword !== 'anyOf').map((error) => error.instancePath));
  return errors
    .filter((error) => error.keyword !== 'anyOf' || !specific.has(error.instancePath))
    .map((error) => ({ path: error.instancePath, message: describeError(error) }));
}

function describeError(error: ErrorObject): string {
  const message = error.message ?? `fails ${error.keyword}`;
  const allowed = (error.params as { allowedValues?: unknown }).allowedValues;
  return Array.isArray(allowed) ? `${message}: ${allowed.map((value) => JSON.stringify(value)).join(', ')}` : message;
}

function keywordProblems(ajv: Ajv, root: Record<string, unknown>): PayloadProblem[] {
  const problems: PayloadProblem[] = [];
  const at = (path: PointerSegments, message: string) => problems.push({ path: toPointer(path), message });
  for (const { schema, path } of walkSchema(root)) {
    for (const keyword of Object.keys(schema)) {
      if (!ANNOTATIONS.has(keyword) && !keyword.startsWith('x-') && ajv.getKeyword(keyword) === false) {
        at([...path, keyword], `unknown keyword "${keyword}" (a typo? extensions are named x-…)`);
      }
    }
    if (path.length > 0 && schema.$id !== undefined) {
      at([...path, '$id'], 'only the root of a payload schema may have an $id');
    }
    if (typeof schema.pattern === 'string') {
      const problem = regexpProblem(schema.pattern);
      if (problem) at([...path, 'pattern'], problem);
    }
    const patterned = schema.patternProperties;
    if (patterned !== null && typeof patterned === 'object' && !Array.isArray(patterned)) {
      for (const pattern of Object.keys(patterned)) {
        const problem = regexpProblem(pattern);
        if (problem) at([...path, 'patternProperties', pattern], problem);
      }
    }
    if (typeof schema.format === 'string' && !Object.hasOwn(payloadFormats(), schema.format)) {
      at(
        [...path, 'format'],
        `unknown format "${schema.format}"; known formats: ${Object.keys(payloadFormats()).join(', ')}`,
      );
    }
  }
  return problems;
}

function regexpProblem(pattern: string): string | undefined {
  try {
    compileLinearRegExp(pattern);
    return undefined;
  } catch (error) {
    const reason = error instanceof Error ? error.message.replace(/^error parsing regexp: /, '') : String(error);
    return `pattern "${pattern}" is not supported: ${reason} (patterns run on a linear-time engine, which has no lookahead, lookbehind or backreferences)`;
  }
}

/**
 * `$ref`s must point inside the schema, and what validation expands them to must stay bounded:
 * no reference may lead back to a schema it is part of (a recursive schema applies itself once
 * per level of the payload, and twice per level through an `anyOf` of two references), and the
 * expansion counted with each reference as a copy of its target stays under
 * `MAX_EXPANDED_SUBSCHEMAS`.
 */
function referenceProblems(root: Record<string, unknown>): PayloadProblem[] {
  const paths = new Map<object, PointerSegments>();
  const problems: PayloadProblem[] = [];
  for (const { schema, path } of walkSchema(root)) {
    if (!paths.has(schema)) paths.set(schema, path);
    const ref = schema.$ref;
    if (typeof ref !== 'string') continue;
    const target = resolveLocalRef(root, ref);
    if (target === undefined) {
      problems.push({
        path: toPointer([...path, '$ref']),
        message: `"${ref}" points at nothing in this schema (references are local, #/definitions/…; nothing is fetched)`,
      });
    }
  }
  if (problems.length > 0) return problems;

  const edges = (schema: Record<string, unknown>): Record<string, unknown>[] => {
    const next = subschemasOf(schema).map((child) => child.schema);
    if (typeof schema.$ref === 'string') {
      const target = resolveLocalRef(root, schema.$ref);
      if (target !== null && typeof target === 'object' && !Array.isArray(target))
        next.push(target as Record<string, unknown>);
    }
    return next;
  };
  const cost = new Map<object, number>();
  const onPath = new Set<object>();
  const stack: { schema: Record<string, unknown>; entered: boolean }[] = [{ schema: root, entered: false }];
  while (stack.length > 0) {
    const frame = stack[stack.length - 1]!;
    if (frame.entered) {
      stack.pop();
      onPath.delete(frame.schema);
      const total = edges(frame.schema).reduce((sum, child) => sum + cost.get(child)!, 1);
      if (total > MAX_EXPANDED_SUBSCHEMAS) {
        return [
          {
            path: toPointer(paths.get(frame.schema) ?? []),
            message: `expands to more than ${MAX_EXPANDED_SUBSCHEMAS} subschemas once its $refs are followed; share less through $ref`,
          },
        ];
      }
      cost.set(frame.schema, total);
      continue;
    }
    if (cost.has(frame.schema)) {
      stack.pop();
      continue;
    }
    frame.entered = true;
    onPath.add(frame.schema);
    for (const child of edges(frame.schema)) {
      if (onPath.has(child)) {
        const path = paths.get(frame.schema) ?? [];
        return [
          {
            path: toPointer(typeof frame.schema.$ref === 'string' ? [...path, '$ref'] : path),
            message: `"${String(frame.schema.$ref)}" leads back to a schema that contains it; recursive payload schemas are not supported (their cost grows with the payload's depth)`,
          },
        ];
      }
      if (!cost.has(child)) stack.push({ schema: child, entered: false });
    }
  }
  return [];
}

type CompiledSchema = { validate: ValidateFunction } | { problems: PayloadProblem[] };

/**
 * A payload checker: compiles each distinct schema once (keeping the `maxCachedSchemas` most
 * recently used, default 100) and answers every problem of a body with its JSON Pointer, [] when
 * it is valid, at most `MAX_PAYLOAD_PROBLEMS` (the last one says how many more there were). A
 * schema that `checkPayloadSchema` refuses is never compiled: `check` throws `VALIDATION_ERROR`
 * with its problems in `details.problems` (a flow saved before that check existed).
 *
 * @example
 * const payloads = createPayloadValidator();
 * payloads.check({ type: 'object', required: ['id'] }, {}); // [{ path: '/id', message: 'is required' }]
 */
export function createPayloadValidator(options: { maxCachedSchemas?: number } = {}): {
  check(schema: Record<string, unknown>, body: unknown): PayloadProblem[];
} {
  // Made on the first schema to compile: a service whose triggers and waits check no payload
  // schema never holds one (an instance with its meta-schema compiled is a few megabytes).
  let ajv: Ajv | undefined;
  const compiled = new BoundedMap<string, CompiledSchema>(Math.max(2, options.maxCachedSchemas ?? 100));

  const compile = (schema: Record<string, unknown>, key: string): CompiledSchema => {
    const problems = checkPayloadSchema(schema);
    if (problems.length > 0) return { problems };
    // A copy: the caller may change its object later, and ajv's own cache, keyed by the
    // object, is emptied at once so that only this bounded map holds compiled schemas.
    const own = JSON.parse(key) as Record<string, unknown>;
    try {
      ajv ??= createAjv();
      return { validate: ajv.compile(own) };
    } finally {
      ajv?.removeSchema(own);
    }
  };

  return {
    check(schema, body) {
      const shape = checkJsonShape(schema, { maxDepth: MAX_PAYLOAD_SCHEMA_DEPTH });
      const key = shape === undefined ? JSON.stringify(schema) : undefined;
      let entry = key === undefined ? undefined : compiled.get(key);
      if (entry === undefined) {
        entry = compile(schema, key ?? '{}');
        if (key !== undefined) compiled.set(key, entry);
      }
      if ('problems' in entry) {
        const first = entry.problems[0]!;
        throw new SvcError('VALIDATION_ERROR', `the payload schema is invalid: ${first.path || '/'} ${first.message}`, {
          details: { problems: entry.problems },
        });
      }
      const bodyShape = checkJsonShape(body, { maxDepth: MAX_JSON_DEPTH });
      if (bodyShape !== undefined) {
        return [
          {
            path: bodyShape.kind === 'too-many-values' ? '' : toPointer(bodyShape.path),
            message: bodyShape.kind === 'too-deep' ? `nests deeper than ${MAX_JSON_DEPTH} levels` : 'refers to itself',
          },
        ];
      }
      if (entry.validate(body)) return [];
      return payloadProblems(entry.validate.errors ?? []);
    },
  };
}

function payloadProblems(errors: ErrorObject[]): PayloadProblem[] {
  const problems = errors.slice(0, MAX_PAYLOAD_PROBLEMS).map(toProblem);
  if (errors.length > MAX_PAYLOAD_PROBLEMS) {
    const last = problems[MAX_PAYLOAD_PROBLEMS - 1]!;
    last.message += ` (and ${errors.length - MAX_PAYLOAD_PROBLEMS} more problems not listed)`;
  }
  return problems;
}

function toProblem(error: ErrorObject): PayloadProblem {
  const params = error.params as { missingProperty?: string; additionalProperty?: string };
  if (error.keyword === 'required' && params.missingProperty !== undefined)
    return { path: `${error.instancePath}${toPointer([params.missingProperty])}`, message: 'is required' };
  if (error.keyword === 'additionalProperties' && params.additionalProperty !== undefined)
    return {
      path: `${error.instancePath}${toPointer([params.additionalProperty])}`,
      message: 'is not an allowed property',
    };
  return { path: error.instancePath, message: describeError(error) };
}
