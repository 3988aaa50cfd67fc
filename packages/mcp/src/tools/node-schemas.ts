import type { NodeRegistry } from '@svc/engine';
import { z } from 'zod';
import { strictInput } from './strict-input.js';

/**
 * Keys of a generated JSON Schema that say nothing a client needs to build a valid value (a
 * `pattern` is checked when the flow is saved, and its problem answered with the path).
 */
const NOISE = new Set(['$schema', 'default', 'propertyNames', 'minLength', 'maxLength', 'pattern']);

/** A JSON Schema without noise: defaults, `propertyNames`, and the safe-integer bounds zod writes on every int. */
function compact(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(compact);
  if (typeof schema !== 'object' || schema === null) return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (NOISE.has(key)) continue;
    if (
      (key === 'maximum' && value === Number.MAX_SAFE_INTEGER) ||
      (key === 'minimum' && value === Number.MIN_SAFE_INTEGER)
    )
      continue;
    out[key] = compact(value);
  }
  return out;
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
