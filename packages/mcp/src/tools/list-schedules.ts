import { z } from 'zod';
import { scheduleTable, scheduleViewSchema } from './schedule-views.js';
import { strictInput } from './strict-input.js';
import { guarded, type ToolContext } from './tool-context.js';
import { okResult, toolOutput } from './tool-error.js';

const inputSchema = strictInput({ all: z.boolean().optional().describe('Include paused schedules') });

const outputSchema = toolOutput({ schedules: z.array(scheduleViewSchema), hasMore: z.boolean() });

export function registerListSchedules(context: ToolContext): void {
  context.server.registerTool(
    'svc_list_schedules',
    {
      title: 'List schedules',
      description: 'List cron schedules of flows and suites, each with its next three due times and last run.',
      inputSchema,
      outputSchema,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    guarded(context, 'svc_list_schedules', async (args: z.infer<typeof inputSchema>) => {
      const { schedules, hasMore } = await context.api.listSchedules({ all: args.all === true });
      const text =
        schedules.length === 0
          ? `No ${args.all ? '' : 'active '}schedules; svc_create_schedule makes one.`
          : `${schedules.length} schedule(s), times in UTC:\n${scheduleTable(schedules)}${hasMore ? '\nMore schedules exist than shown.' : ''}`;
      return okResult({ schedules, hasMore }, text);
    }),
  );
}
