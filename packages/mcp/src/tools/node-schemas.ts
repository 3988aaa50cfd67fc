import type { NodeRegistry } from '@svc/engine';
import { z } from 'zod';
import { strictInput } from './strict-input.js';

/**
 * Keys of a generated JSON Schema that say nothing a client needs to build a valid value: the
 * engine checks lengths, counts and patterns when the flow is saved, naming the path of each problem.
 */
const NOISE = new Set(['$schema', 'default', 'propertyNames', 'minLength', 'maxLength', 'maxItems', 'pattern']);

/** Keys a schema member of `anyOf` may have and still be folded into a list of types. */
const FOLDABLE = new Set(['type', 'minimum', 'maximum']);

/**
 * `anyOf: [{ type: 'integer', minimum: 0 }, { type: 'string' }]` (a duration) as
 * `type: ['integer', 'string']`: the same shapes in a third of the bytes; the bounds dropped are
 * checked when the flow is saved.
 */
function foldTypes(anyOf: unknown): string[] | undefined {
  if (!Array.isArray(anyOf)) return undefined;
  const types: string[] = [];
  for (const member of anyOf) {
    if (typeof member !== 'object' || member === null) return undefined;
    const { type } = member as { type?: unknown };
    if (typeof type !== 'string' || !Object.keys(member).every((key) => FOLDABLE.has(key))) return undefined;
    types.push(type);
  }
  return types;
}

/**
 * A JSON Schema without noise: defaults, `propertyNames`, the safe-integer bounds zod writes on
 * every int, the `type` an `enum` implies, empty `properties`, `additionalProperties: {}` (any
 * value, the default), and unions of plain types folded into one list of types.
 */
function compact(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(compact);
  if (typeof schema !== 'object' || schema === null) return schema;
  const source = schema as Record<string, unknown>;
  const folded = foldTypes(source.anyOf);
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(source)) {
    if (NOISE.has(key)) continue;
    if (
      (key === 'maximum' && value === Number.MAX_SAFE_INTEGER) ||
      (key === 'minimum' && value === Number.MIN_SAFE_INTEGER)
    )
      continue;
    if (key === 'type' && value === 'string' && Array.isArray(source.enum)) continue;
    if ((key === 'properties' || key === 'additionalProperties' || key === 'items') && isEmptyObject(value)) continue;
    if (key === 'anyOf' && folded !== undefined) {
      out.type = folded;
      continue;
    }
    out[key] = key === 'properties' ? compactProperties(value as Record<string, unknown>) : compact(value);
  }
  return out;
}

/**
 * Properties, each written once: a property whose schema is the same as an earlier sibling's
 * (polling's `stopWhen` and `continueWhen`) says so instead of repeating it.
 */
function compactProperties(properties: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const seen = new Map<string, string>();
  for (const [name, schema] of Object.entries(properties)) {
    const compacted = compact(schema) as Record<string, unknown>;
    const text = JSON.stringify(compacted);
    const twin = seen.get(text);
    if (twin !== undefined && text.length > 200) {
      out[name] = { type: compacted.type, description: `the same schema as ${twin}` };
      continue;
    }
    seen.set(text, name);
    out[name] = compacted;
  }
  return out;
}

function isEmptyObject(value: unknown): boolean {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && Object.keys(value).length === 0;
}

/**
 * The config of one node type as tool input: its JSON Schema (from the engine's own zod schema,
 * the one that validates it on save) so a client checks it before calling. The value passes
 * through as given: the engine validates it with the rest of the flow and answers every problem
 * with its path in one go.
 */
function configFor(configSchema: z.ZodType) {
  const json = compact(z.toJSONSchema(configSchema, { io: 'input', unrepresentable: 'any' })) as Record<
    string,
    unknown
  >;
  return z.unknown().meta(json);
}

/**
 * A node as tool input: a union discriminated by `type`, one member per registered node type,
 * each with that type's config schema. An unknown `type` is refused naming the known ones.
 */
export function nodeInputSchema(registry: NodeRegistry) {
  const types = [...registry.keys()];
  const members = [...registry.values()].map((definition) =>
    strictInput({
      id: z.string(),
      name: z.string(),
      type: z.literal(definition.type),
      position: z.looseObject({}).optional(),
      config: configFor(definition.configSchema),
      description: z.string().optional(),
    }).describe(definition.description),
  );
  return z.discriminatedUnion(
    'type',
    members as unknown as [ReturnType<typeof strictInput>, ...ReturnType<typeof strictInput>[]],
    {
      error: (issue) =>
        issue.code === 'invalid_union' ? `unknown node type; type is one of: ${types.join(', ')}` : undefined,
    },
  );
}
