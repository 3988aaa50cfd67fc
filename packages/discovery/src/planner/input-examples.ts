import type { NeededInput } from './endpoint-profile.js';
import type { RequirementClause } from './parse-requirement.js';
import { SEARCH_PARAMS } from './producer-kinds.js';

/**
 * The value an input gets from the requirement (`set the dose to 60`, `named "Harbor"`, a name
 * to search for), else from its schema (example, default, first enum value). `used` keeps one
 * value of the clause from filling two inputs.
 */
export function exampleFromClause(need: NeededInput, clause: RequirementClause, used: Set<string>): unknown {
  const type = schemaType(need.schema);
  const take = (key: string, value: unknown): unknown => {
    used.add(key);
    return value;
  };
  if (type === 'integer' || type === 'number') {
    const index = clause.numbers.findIndex((_value, position) => !used.has(`n${position}`));
    return index >= 0 ? take(`n${index}`, clause.numbers[index]) : undefined;
  }
  if (type !== 'string' && type !== undefined) return undefined;
  if (SEARCH_PARAMS.test(need.name)) {
    const index = clause.names.findIndex((_value, position) => !used.has(`p${position}`));
    if (index >= 0) return take(`p${index}`, clause.names[index]);
  }
  const enumValues = enumOf(need.schema);
  if (enumValues !== undefined) return undefined;
  if (/name|title|label/i.test(need.name)) {
    const label = clause.labels.findIndex((_value, position) => !used.has(`l${position}`));
    if (label >= 0) return take(`l${label}`, clause.labels[label]);
  }
  const quoted = clause.quoted.findIndex(
    (value, position) => !used.has(`q${position}`) && !clause.labels.includes(value),
  );
  if (quoted >= 0 && /name|title|label|^q$|query|text/i.test(need.name))
    return take(`q${quoted}`, clause.quoted[quoted]);
  return undefined;
}

export function exampleFromSchema(schema: unknown): unknown {
  if (typeof schema !== 'object' || schema === null) return undefined;
  const record = schema as Record<string, unknown>;
  if (record.example !== undefined) return record.example;
  if (record.default !== undefined) return record.default;
  const values = enumOf(schema);
  return values?.[0];
}

function enumOf(schema: unknown): unknown[] | undefined {
  if (typeof schema !== 'object' || schema === null) return undefined;
  const values = (schema as Record<string, unknown>).enum;
  return Array.isArray(values) && values.length > 0 ? values : undefined;
}

function schemaType(schema: unknown): string | undefined {
  if (typeof schema !== 'object' || schema === null) return undefined;
  const type = (schema as Record<string, unknown>).type;
  return typeof type === 'string'
    ? type
    : Array.isArray(type)
      ? (type.find((t) => t !== 'null') as string | undefined)
      : undefined;
}
