import { z } from 'zod';
import { toExecutionResult } from './execution-views.js';
import { executionIdSchema } from './get-execution.js';
import { executionOutputSchema, executionToolResult } from './run-flow.js';
import { strictInput } from './strict-input.js';
import { guarded, type ToolContext } from './tool-context.js';

const inputSchema = strictInput({ executionId: executionIdSchema });

export function registerCancelExecution(context: ToolContext): void {
  context.server.registerTool(
    'svc_cancel_execution',
    {
      title: 'Cancel an execution',
      description:
        'Cancel a running or waiting execution: no further step starts and it ends Cancelled. An ended execution is answered as it is.',
      inputSchema,
      outputSchema: executionOutputSchema,
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    },
    guarded(context, 'svc_cancel_execution', async (args: z.infer<typeof inputSchema>) => {
      const result = toExecutionResult(await context.api.cancelExecution(args.executionId));
      return executionToolResult(
        result,
        `The execution is still ${result.status}; read it again with svc_get_execution.`,
      );
    }),
  );
}
