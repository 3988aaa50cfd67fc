import { SvcError } from '@svc/engine';
import type { z } from 'zod';

export interface RequestProblem {
  code: string;
  message: string;
  /** Where in the request: `query.limit`, `body.env`, `body.nodes[2].config.url`. */
  path: string;
}

function formatPath(root: string, path: readonly PropertyKey[]): string {
  let text = root;
  for (const segment of path) {
    if (typeof segment === 'number') text += `[${segment}]`;
    else if (typeof segment === 'string' && /^[A-Za-z_$][\w$]*$/.test(segment)) text += `.${segment}`;
    else text += `[${JSON.stringify(String(segment))}]`;
  }
  return text;
}

/**
 * Parses a part of the request with its zod schema; a failure is one `VALIDATION_ERROR` naming
 * every problem with its path, the same shape the engine gives for a flow that does not validate.
 */
export function parseRequest<Schema extends z.ZodType>(
  schema: Schema,
  value: unknown,
  where: 'query' | 'body' | 'header',
): z.infer<Schema> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const problems: RequestProblem[] = parsed.error.issues.map((issue) => ({
    code: 'INVALID_FIELD',
    message: issue.message,
    path: formatPath(where, issue.path),
  }));
  const shown = problems.slice(0, 5).map((problem) => `${problem.path}: ${problem.message}`);
  throw new SvcError(
    'VALIDATION_ERROR',
    `the request does not validate: ${shown.join('; ')}${problems.length > 5 ? ` (and ${problems.length - 5} more)` : ''}`,
    {
      details: { problems },
    },
  );
}
