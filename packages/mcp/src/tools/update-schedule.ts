import { z } from 'zod';
import { scheduleFields } from './create-schedule.js';
import { scheduleLine, scheduleViewSchema } from './schedule-views.js';
import { strictInput } from './strict-input.js';
import { guarded, type ToolContext } from './tool-context.js';
import { okResult, toolOutput } from './tool-error.js';

export const scheduleIdSchema = z.string().min(1).describe('id or name');

const inputSchema = strictInput({
  scheduleId: scheduleIdSchema,
  name: scheduleFields.name.optional(),
  cron: scheduleFields.cron.optional(),
  target: scheduleFields.target.optional(),
  timezone: scheduleFields.timezone,
  environment: scheduleFields.environment,
  enabled: z.boolean().optional().describe('false pauses, true resumes'),
  overlap: scheduleFields.overlap,
  description: scheduleFields.description,
});

export function registerUpdateSchedule(context: ToolContext): void {
  context.server.registerTool(
    'svc_update_schedule',
    {
      title: 'Update a schedule',
      description: 'Change some fields of a schedule (the others are kept), pause or resume it.',
      inputSchema,
      outputSchema: toolOutput({ schedule: scheduleViewSchema }),
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    guarded(context, 'svc_update_schedule', async ({ scheduleId, ...changes }: z.infer<typeof inputSchema>) => {
      const current = await context.api.getSchedule(scheduleId);
      const { name, description, target, cron, timezone, environment, enabled, overlap } = current;
      const schedule = await context.api.updateSchedule(current.id, {
        ...{ name, description, target, cron, timezone, environment, enabled, overlap },
        ...Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined)),
      });
      return okResult({ schedule }, `Updated schedule ${scheduleLine(schedule)}.`);
    }),
  );
}
