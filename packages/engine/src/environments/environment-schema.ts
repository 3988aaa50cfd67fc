import { z } from 'zod';
import { SvcError } from '../errors.js';
import type { ValidationProblem } from '../model/validate-flow.js';
import { formatJsonPath } from '../model/walk-strings.js';
import { SECRET_MASK } from '../store/types.js';

/** How many variables one environment may hold. */
export const MAX_ENVIRONMENT_VARIABLES = 200;

/** `staging`, `prod-eu`, `qa.2`: what a run's `env` string and `--environment` name. */
export const environmentNameSchema = z
  .string()
  .regex(
    /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/,
    'must be 1–64 letters, digits, "_", "." or "-", starting with a letter or digit',
  );

/** A key read as `{{env.<key>}}`. */
export const variableKeySchema = z
  .string()
  .regex(/^[A-Za-z_][A-Za-z0-9_-]{0,99}$/, 'must be 1–100 letters, digits, "_" or "-", not starting with a digit')
  .refine((key) => key !== '__proto__' && key !== 'constructor' && key !== 'prototype', 'is reserved');

const variablesSchema = z
  .record(variableKeySchema, z.unknown())
  .refine(
    (variables) => Object.keys(variables).length <= MAX_ENVIRONMENT_VARIABLES,
    `at most ${MAX_ENVIRONMENT_VARIABLES} variables`,
  );

/**
 * An environment as the REST API reads and writes it: `variables` holds every value and
 * `secretKeys` names those that are secret. Reads answer `***` for a secret; sending `***` back
 * for a secret key (a PUT of what a GET answered) keeps the value stored. `***` is never stored as
 * a plain value: for a key left out of `secretKeys` it is a secret read back, and storing it would
 * replace the secret with the mask.
 */
export const environmentBodySchema = z
  .object({
    name: environmentNameSchema,
    description: z.string().max(2000).default(''),
    variables: variablesSchema.default({}),
    secretKeys: z.array(variableKeySchema).max(MAX_ENVIRONMENT_VARIABLES).default([]),
  })
  .strict()
  .superRefine((body, context) => {
    body.secretKeys.forEach((key, index) => {
      if (!Object.hasOwn(body.variables, key))
        context.addIssue({
          code: 'custom',
          path: ['secretKeys', index],
          message: `"${key}" is not a key of variables`,
        });
    });
    for (const [key, value] of Object.entries(body.variables)) {
      if (value === SECRET_MASK && !body.secretKeys.includes(key))
        context.addIssue({
          code: 'custom',
          path: ['variables', key],
          message: `"${SECRET_MASK}" is the mask of a secret, not a value: list "${key}" in secretKeys to keep its stored secret, or send its value`,
        });
    }
  });

export type EnvironmentBody = z.output<typeof environmentBodySchema>;
export type EnvironmentBodyInput = z.input<typeof environmentBodySchema>;

/**
 * Sets variables of an environment, creating it when it does not exist (MCP `svc_set_environment`,
 * `svc env set`): the keys given are written, the others kept, `unset` removed.
 */
export const setEnvironmentSchema = z
  .object({
    name: environmentNameSchema.describe('e.g. "staging"; created when missing'),
    description: z.string().max(2000).optional(),
    variables: variablesSchema.optional(),
    secrets: variablesSchema.optional().describe('Encrypted at rest, shown as ***'),
    unset: z.array(variableKeySchema).max(MAX_ENVIRONMENT_VARIABLES).optional(),
  })
  .strict()
  .superRefine((request, context) => {
    for (const [key, value] of Object.entries(request.variables ?? {})) {
      if (value === SECRET_MASK)
        context.addIssue({
          code: 'custom',
          path: ['variables', key],
          message: `"${SECRET_MASK}" is the mask of a secret, not a value: leave "${key}" out to keep its stored secret, or send its value`,
        });
    }
    for (const key of Object.keys(request.secrets ?? {})) {
      if (request.variables !== undefined && Object.hasOwn(request.variables, key)) {
        context.addIssue({
          code: 'custom',
          path: ['secrets', key],
          message: `"${key}" is given both as a variable and as a secret`,
        });
      }
      if (request.secrets?.[key] === SECRET_MASK)
        context.addIssue({
          code: 'custom',
          path: ['secrets', key],
          message: `"${SECRET_MASK}" is the mask of a secret, not a value`,
        });
    }
  });

export type SetEnvironmentRequest = z.output<typeof setEnvironmentSchema>;

/**
 * `input` checked against one of the schemas above; `VALIDATION_ERROR` with every problem's path
 * otherwise.
 * @example
 * const request = parseEnvironmentInput(setEnvironmentSchema, { name: 'staging', secrets: { apiToken } });
 */
export function parseEnvironmentInput<Schema extends z.ZodType>(schema: Schema, input: unknown): z.output<Schema> {
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  // Messages and paths only: a problem never repeats a value, which may be a secret.
  const problems: ValidationProblem[] = parsed.error.issues.flatMap((issue): ValidationProblem[] =>
    issue.code === 'unrecognized_keys'
      ? issue.keys.map((key) => ({
          code: 'UNKNOWN_FIELD',
          message: `unknown field "${key}"`,
          path: formatJsonPath([...issue.path, key]),
        }))
      : [{ code: 'INVALID_FIELD', message: issue.message, path: formatJsonPath(issue.path) }],
  );
  const shown = problems.slice(0, 5).map((problem) => `${problem.path}: ${problem.message}`);
  const more = problems.length > 5 ? ` (and ${problems.length - 5} more)` : '';
  throw new SvcError('VALIDATION_ERROR', `the environment does not validate: ${shown.join('; ')}${more}`, {
    details: { problems },
  });
}
