import { z } from 'zod';
import { toExecutionResult } from './execution-views.js';
import { executionOutputSchema, executionToolResult } from './run-flow.js';
import { strictInput } from './strict-input.js';
import { guarded, type ToolContext } from './tool-context.js';

export const executionIdSchema = z
  .string()
  .min(1)
  .max(128)
  .describe('Execution id (a UUID), as svc_run_flow or svc_list_executions answers it');

const inputSchema = strictInput({ executionId: executionIdSchema });

export function registerGetExecution(context: ToolContext): void {
  context.server.registerTool(
    'svc_get_execution',
    {
      title: 'Get an execution',
      description:
        'Read an execution: status, duration, and the per-step trace (status code, latency, request, response body, assertion results, error). ' +
        'Follows a run that outlasted svc_run_flow, or reads a past one again. A Waiting execution lists its waits: ' +
        'a webhook wait with the callbackUrl that resumes it (POST JSON), or a timer with its due time.',
      inputSchema,
      outputSchema: executionOutputSchema,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    guarded(context, 'svc_get_execution', async (args: z.infer<typeof inputSchema>) => {
      const result = toExecutionResult(await context.api.getExecution(args.executionId));
      return executionToolResult(
        result,
        `The execution is still ${result.status}; call svc_get_execution again in a few seconds to read its end.`,
      );
    }),
  );
}
