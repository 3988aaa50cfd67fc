import { z } from 'zod';
import { strictInput } from './strict-input.js';
import { guarded, type ToolContext } from './tool-context.js';
import { okResult, toolOutput } from './tool-error.js';
import { scheduleIdSchema } from './update-schedule.js';

export function registerDeleteSchedule(context: ToolContext): void {
  const deleteInput = strictInput({ scheduleId: scheduleIdSchema });
  context.server.registerTool(
    'svc_delete_schedule',
    {
      title: 'Delete a schedule',
      description: 'Delete a schedule; runs it already started stay readable as executions.',
      inputSchema: deleteInput,
      outputSchema: toolOutput({ scheduleId: z.string(), name: z.string(), deleted: z.boolean() }),
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    },
    guarded(context, 'svc_delete_schedule', async (args: z.infer<typeof deleteInput>) => {
      const deleted = await context.api.deleteSchedule(args.scheduleId);
      return okResult(
        { scheduleId: deleted.id, name: deleted.name, deleted: true },
        `Deleted schedule "${deleted.name}" (${deleted.id}).`,
      );
    }),
  );
}
