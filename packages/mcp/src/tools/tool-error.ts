import { isSvcError, type ValidationProblem } from '@svc/engine';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';

export const problemSchema = z.object({
  code: z.string().describe('e.g. UNKNOWN_NODE_TYPE, CYCLE, NOT_UPSTREAM, INVALID_CONFIG'),
  message: z.string(),
  path: z.string().describe('Where in the flow document, e.g. nodes[2].config.url'),
});

export const toolErrorSchema = z
  .object({
    code: z.string().describe('Stable UPPER_SNAKE code: FLOW_NOT_FOUND, VALIDATION_ERROR, EXECUTION_NOT_FOUND, SERVICE_UNREACHABLE, …'),
    message: z.string(),
    problems: z.array(problemSchema).optional().describe('VALIDATION_ERROR: every problem of the document, each with its path'),
    retryable: z.boolean().optional().describe('True when the same call may succeed later'),
  })
  .describe('Present instead of the result when the call failed (isError is true)');

export type ToolError = z.infer<typeof toolErrorSchema>;

function problemsOf(details: unknown): ValidationProblem[] | undefined {
  const problems = (details as { problems?: unknown } | undefined)?.problems;
  if (!Array.isArray(problems)) return undefined;
  return problems
    .filter((problem): problem is Record<string, unknown> => typeof problem === 'object' && problem !== null)
    .map((problem) => ({ code: String(problem.code ?? 'INVALID'), message: String(problem.message ?? ''), path: String(problem.path ?? '') }));
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
  const lines = error.problems.map((problem) => `- ${problem.path || '(document)'}: ${problem.code}: ${problem.message}`);
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

/** A successful call: the structured result, and the same for a person to read. */
export function okResult(structured: Record<string, unknown>, text: string): CallToolResult {
  return { content: [{ type: 'text', text }], structuredContent: structured };
}
