import { z } from 'zod';
import { toExecutionResult } from './execution-views.js';
import { executionOutputSchema, executionToolResult } from './run-flow.js';
import { guarded, type ToolContext } from './tool-context.js';

const inputSchema = z.object({
  executionId: z.string().min(1).max(128).describe('Id of the execution (a UUID), as svc_run_flow answers it.'),
});

export function registerGetExecution(context: ToolContext): void {
  context.server.registerTool(
    'svc_get_execution',
    {
      title: 'Get an execution',
      description:
        'Read an execution of a flow: status, durationMs, node and step counts, and the per-step trace (status, HTTP status code, latency, request, ' +
        'response body, error). Use it to follow a run that outlasted svc_run_flow\'s wait, or to read a past run again. ' +
        'An unknown executionId answers EXECUTION_NOT_FOUND.',
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
