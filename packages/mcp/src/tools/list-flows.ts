import { z } from 'zod';
import { LIST_FLOWS_LIMIT } from '../api/svc-api.js';
import { renderFlowList } from '../render/render-flow.js';
import { toFlowSummaryView } from './flow-views.js';
import { strictInput } from './strict-input.js';
import { guarded, type ToolContext } from './tool-context.js';
import { okResult, toolOutput } from './tool-error.js';

const inputSchema = strictInput({
  folderId: z.string().min(1).max(128).optional().describe('Only flows in this folder.'),
  search: z
    .string()
    .max(200)
    .optional()
    .describe(
      'Case-insensitive text to find in flow names and descriptions, e.g. "checkout". Omit to list every flow.',
    ),
});

const outputSchema = toolOutput({
  flows: z.array(z.looseObject({ id: z.string(), name: z.string(), version: z.number(), updatedAt: z.string() })),
  hasMore: z.boolean(),
});

export function registerListFlows(context: ToolContext): void {
  context.server.registerTool(
    'svc_list_flows',
    {
      title: 'List flows',
      description:
        'List the flows (API workflows: DAGs of HTTP calls and logic) in the svc workspace, most recently modified first. ' +
        'Each entry has the flow id (use it as flowId in svc_get_flow and svc_run_flow), name, description, version, node count ' +
        `and last-modified time (updatedAt). Answers at most ${LIST_FLOWS_LIMIT} flows; hasMore says when a search should narrow it.`,
      inputSchema,
      outputSchema,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    guarded(context, 'svc_list_flows', async (args: z.infer<typeof inputSchema>) => {
      const { flows, hasMore } = await context.api.listFlows({ search: args.search, folderId: args.folderId });
      const views = flows.map(toFlowSummaryView);
      return okResult({ flows: views, hasMore }, renderFlowList(views, hasMore));
    }),
  );
}
