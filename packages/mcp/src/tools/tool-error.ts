import { isSvcError, type ValidationProblem } from '@svc/engine';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';

export const problemSchema = z.object({ code: z.string(), message: z.string(), path: z.string() });

/** Present instead of the result when a call failed (isError): a stable code, and for VALIDATION_ERROR every problem with its path. */
export const toolErrorSchema = z.object({
  code: z.string(),
  message: z.string(),
  problems: z.array(problemSchema).optional(),
  retryable: z.boolean().optional(),
});

export type ToolError = z.infer<typeof toolErrorSchema>;

function problemsOf(details: unknown): ValidationProblem[] | undefined {
  const problems = (details as { problems?: unknown } | undefined)?.problems;
  if (!Array.isArray(problems)) return undefined;
  return problems
    .filter((problem): problem is Record<string, unknown> => typeof problem === 'object' && problem !== null)
    .map((problem) => ({
      code: String(problem.code ?? 'INVALID'),
      message: String(problem.message ?? ''),
      path: String(problem.path ?? ''),
    }));
}

export function toToolError(error: unknown): ToolError {
  if (isSvcError(error)) {
    const problems = problemsOf(error.details);
    return {
      code: error.code,
      message: error.message,
      ...(problems ? { problems } : {}),
      ...(error.retryable ? { retryable: true } : {}),
    };
  }
  return { code: 'INTERNAL_ERROR', message: error instanceof Error ? error.message : String(error) };
}

export function renderToolError(error: ToolError): string {
  if (!error.problems?.length) return `${error.code}: ${error.message}`;
  const count = error.problems.length;
  const lines = error.problems.map(
    (problem) => `- ${problem.path || '(document)'}: ${problem.code}: ${problem.message}`,
  );
  const what = error.code === 'INVALID_OPENAPI' ? 'the OpenAPI document is not valid' : 'the flow does not validate';
  return `${error.code}: ${what} (${count} problem${count === 1 ? '' : 's'}):\n${lines.join('\n')}`;
}

/** A failed call as a tool result: the code and message for the assistant, `isError` for the client. */
export function errorResult(error: unknown): CallToolResult {
  const toolError = toToolError(error);
  return {
    content: [{ type: 'text', text: renderToolError(toolError) }],
    structuredContent: { error: toolError },
    isError: true,
  };
}

/**
 * A tool's output schema: each field of its answer, all optional because a failed call carries
 * `error` instead.
 */
export function toolOutput<S extends z.ZodRawShape>(shape: S) {
  const optional = Object.fromEntries(
    Object.entries(shape).map(([key, schema]) => [key, (schema as z.ZodType).optional()]),
  ) as unknown as {
    [K in keyof S]: z.ZodOptional<S[K]>;
  };
  // The error's shape is documented once (docs/mcp.md) rather than in every tool's schema.
  return z.object({ ...optional, error: z.looseObject({ code: z.string(), message: z.string() }).optional() });
}

/** A successful call: the structured result, and the same for a person to read. */
export function okResult(structured: Record<string, unknown>, text: string): CallToolResult {
  return { content: [{ type: 'text', text }], structuredContent: structured };
}
