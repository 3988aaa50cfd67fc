import { z } from 'zod';
import { renderFlow } from '../render/render-flow.js';
import { flowOutputViewSchema, toStoredFlowView } from './flow-views.js';
import { strictInput } from './strict-input.js';
import { guarded, type ToolContext } from './tool-context.js';
import { okResult, toolOutput } from './tool-error.js';

export const flowIdSchema = z.string().min(1).max(200).describe('Flow id ("flw_…") or its exact name');

const inputSchema = strictInput({ flowId: flowIdSchema });

export function registerGetFlow(context: ToolContext): void {
  context.server.registerTool(
    'svc_get_flow',
    {
      title: 'Get a flow',
      description:
        'Read a whole flow: nodes with their config, wires, variables, inputs, outputs, frames, and its version (svc_update_flow needs it).',
      inputSchema,
      outputSchema: toolOutput({ flow: flowOutputViewSchema }),
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    guarded(context, 'svc_get_flow', async (args: z.infer<typeof inputSchema>) => {
      const flow = toStoredFlowView(await context.api.resolveFlow(args.flowId));
      return okResult({ flow }, renderFlow(flow));
    }),
  );
}
