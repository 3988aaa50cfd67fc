import { table } from '@svc/engine/text-table';
import { z } from 'zod';
import { LIST_EXECUTIONS_LIMIT } from '../api/svc-api.js';
import { flowIdSchema } from './get-flow.js';
import { strictInput } from './strict-input.js';
import { guarded, type ToolContext } from './tool-context.js';
import { okResult, toolOutput } from './tool-error.js';

const inputSchema = strictInput({
  flowId: flowIdSchema,
  limit: z.number().int().min(1).max(100).optional().describe(`Page size, default ${LIST_EXECUTIONS_LIMIT}`),
  cursor: z.string().min(1).max(512).optional().describe('nextCursor of the previous page'),
});

export function registerListExecutions(context: ToolContext): void {
  context.server.registerTool(
    'svc_list_executions',
    {
      title: 'List the executions of a flow',
      description:
        'List the runs of a flow, newest first, with status, duration and error; svc_get_execution reads one with its trace.',
      inputSchema,
      outputSchema: toolOutput({
        flowId: z.string(),
        executions: z.array(z.looseObject({ executionId: z.string(), status: z.string() })),
        nextCursor: z.string().nullable(),
      }),
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    guarded(context, 'svc_list_executions', async (args: z.infer<typeof inputSchema>) => {
      const flow = await context.api.resolveFlow(args.flowId);
      const page = await context.api.listExecutions(flow.id, {
        ...(args.limit ? { limit: args.limit } : {}),
        ...(args.cursor ? { cursor: args.cursor } : {}),
      });
      const executions = page.executions.map((execution) => ({
        executionId: execution.executionId,
        status: execution.status,
        durationMs: execution.durationMs ?? null,
        createdAt: execution.createdAt,
        nodesExecuted: execution.nodesExecuted,
        nodesSkipped: execution.nodesSkipped,
        error: execution.error ? { code: execution.error.code, message: execution.error.message } : null,
      }));
      const rows = [['EXECUTION', 'STATUS', 'DURATION', 'CREATED', 'ERROR']];
      for (const row of executions)
        rows.push([
          row.executionId,
          row.status,
          row.durationMs === null ? '-' : `${row.durationMs} ms`,
          row.createdAt,
          row.error?.code ?? '',
        ]);
      const text =
        executions.length === 0
          ? `Flow "${flow.name}" (${flow.id}) has no executions${args.cursor ? ' on this page' : ''}.`
          : `${executions.length} execution(s) of "${flow.name}" (${flow.id}), newest first:\n${table(rows)}${page.nextCursor ? `\nMore: pass cursor "${page.nextCursor}".` : ''}`;
      return okResult({ flowId: flow.id, executions, nextCursor: page.nextCursor }, text);
    }),
  );
}
