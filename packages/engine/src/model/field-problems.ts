import type { z } from 'zod';
import { SvcError } from '../errors.js';
import type { ValidationProblem } from './validate-flow.js';
import { formatJsonPath } from './walk-strings.js';

/** A zod error as problems with paths: one per unknown field, at its own path, and one per other issue. */
export function fieldProblems(error: z.ZodError): ValidationProblem[] {
  return error.issues.flatMap((issue): ValidationProblem[] =>
    issue.code === 'unrecognized_keys'
      ? issue.keys.map((key) => ({
          code: 'UNKNOWN_FIELD',
          message: `unknown field "${key}"`,
          path: formatJsonPath([...issue.path, key]),
        }))
      : [{ code: 'INVALID_FIELD', message: issue.message, path: formatJsonPath(issue.path) }],
  );
}

/**
 * `VALIDATION_ERROR` for a body that does not validate: the first five problems in the message,
 * every one in `details.problems`.
 * @example
 * throw validationError('suite', fieldProblems(parsed.error));
 */
export function validationError(what: string, problems: ValidationProblem[]): SvcError {
  const shown = problems.slice(0, 5).map((problem) => `${problem.path}: ${problem.message}`);
  const more = problems.length > 5 ? ` (and ${problems.length - 5} more)` : '';
  return new SvcError('VALIDATION_ERROR', `the ${what} does not validate: ${shown.join('; ')}${more}`, {
    details: { problems },
  });
}
