import type { FlowDocument } from '@svc/engine';
import type { RoadmapInput } from '../planner/roadmap.js';
import { literal } from './templates.js';

type FlowInput = FlowDocument['inputs'][string];

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The flow input type of a JSON schema (`integer` is a number), else of the example, else `any`. */
export function inputTypeOf(schema: unknown, example: unknown): FlowInput['type'] {
  const type = isObject(schema)
    ? Array.isArray(schema.type)
      ? schema.type.find((entry) => entry !== 'null')
      : schema.type
    : undefined;
  switch (type) {
    case 'string':
    case 'boolean':
    case 'object':
    case 'array':
      return type;
    case 'integer':
    case 'number':
      return 'number';
  }
  if (example === undefined || example === null) return 'any';
  if (Array.isArray(example)) return 'array';
  const kind = typeof example;
  return kind === 'string' || kind === 'number' || kind === 'boolean' || kind === 'object' ? kind : 'any';
}

/** The example an input carries, else its schema's example or default. */
export function exampleOf(input: Pick<RoadmapInput, 'example' | 'schema'>): { value: unknown } | undefined {
  if (input.example !== undefined) return { value: input.example };
  if (isObject(input.schema)) {
    if (input.schema.example !== undefined) return { value: input.schema.example };
    if (Array.isArray(input.schema.examples) && input.schema.examples.length > 0)
      return { value: input.schema.examples[0] };
    if (input.schema.default !== undefined) return { value: input.schema.default };
  }
  return undefined;
}

/**
 * A roadmap input as the flow declares it: a `variables` default (its example, when known) and an
 * `inputs` entry with its type and description. An input with an example is not required, since
 * the example already fills it; one without stays required when the roadmap says so, so a run that
 * leaves it out fails at the start with `INVALID_INPUTS` rather than halfway.
 */
export function declareInput(input: Pick<RoadmapInput, 'example' | 'schema' | 'required' | 'description'>): {
  variable?: { value: unknown };
  declaration: FlowInput;
} {
  const example = exampleOf(input);
  const declaration: FlowInput = {
    type: inputTypeOf(input.schema, example?.value),
    required: input.required && example === undefined,
  };
  if (input.description !== '') declaration.description = input.description;
  if (example === undefined) return { declaration };
  const value = literal(structuredClone(example.value));
  declaration.default = value;
  return { variable: { value }, declaration };
}
