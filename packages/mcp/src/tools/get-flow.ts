import { z } from 'zod';
import { renderFlow } from '../render/render-flow.js';
import { storedFlowSchema, toStoredFlowView } from './flow-views.js';
import { guarded, type ToolContext } from './tool-context.js';
import { okResult, toolErrorSchema } from './tool-error.js';

export const flowIdSchema = z.string().min(1).max(128).describe('Id of the flow, e.g. "flw_…", as svc_list_flows answers it.');

const inputSchema = z.object({ flowId: flowIdSchema });

const outputSchema = z.object({
  flow: storedFlowSchema.optional().describe('The whole flow document'),
  error: toolErrorSchema.optional(),
});

export function registerGetFlow(context: ToolContext): void {
  context.server.registerTool(
    'svc_get_flow',
    {
      title: 'Get a flow',
      description:
        'Read one flow completely: its nodes with their step parameters (config, where {{…}} expressions bind one step to earlier ones), ' +
        'its wires (connections: source node id and handle → target node id), variables, inputs, outputs, frames (flowData.canvasGroups) ' +
        'and annotations. An unknown flowId answers FLOW_NOT_FOUND.',
      inputSchema,
      outputSchema,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    guarded(context, 'svc_get_flow', async (args: z.infer<typeof inputSchema>) => {
      const flow = toStoredFlowView(await context.api.getFlow(args.flowId));
      return okResult({ flow }, renderFlow(flow));
    }),
  );
}
