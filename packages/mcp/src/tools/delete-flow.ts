import { z } from 'zod';
import { flowIdSchema } from './get-flow.js';
import { strictInput } from './strict-input.js';
import { guarded, type ToolContext } from './tool-context.js';
import { okResult, toolOutput } from './tool-error.js';

const inputSchema = strictInput({ flowId: flowIdSchema });

export function registerDeleteFlow(context: ToolContext): void {
  context.server.registerTool(
    'svc_delete_flow',
    {
      title: 'Delete a flow',
      description: 'Delete a flow. Its past executions stay readable by id.',
      inputSchema,
      outputSchema: toolOutput({ flowId: z.string(), name: z.string(), deleted: z.boolean() }),
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    },
    guarded(context, 'svc_delete_flow', async (args: z.infer<typeof inputSchema>) => {
      const flow = await context.api.resolveFlow(args.flowId);
      await context.api.deleteFlow(flow.id);
      return okResult({ flowId: flow.id, name: flow.name, deleted: true }, `Deleted flow "${flow.name}" (${flow.id}).`);
    }),
  );
}
