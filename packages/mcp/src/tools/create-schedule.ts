import { OVERLAP_POLICIES, SCHEDULE_TARGET_TYPES } from '@svc/engine';
import { z } from 'zod';
import { scheduleLine, scheduleViewSchema } from './schedule-views.js';
import { strictInput } from './strict-input.js';
import { guarded, type ToolContext } from './tool-context.js';
import { okResult, toolOutput } from './tool-error.js';

/*
 * The fields of a schedule, plain (and lean: tools/list has a size budget): the engine checks them in full (cron field by field, the time
 * zone, the target and the environment) and answers VALIDATION_ERROR with every problem's path.
 */
export const scheduleFields = {
  name: z.string(),
  cron: z.string().describe('5 fields, e.g. "30 8 * * 1-5"'),
  target: z.strictObject({ type: z.enum(SCHEDULE_TARGET_TYPES), id: z.string().describe('id or name') }),
  timezone: z.string().optional().describe('IANA zone; default UTC'),
  environment: z.string().nullable().optional().describe('stored environment name'),
  enabled: z.boolean().optional(),
  overlap: z.enum(OVERLAP_POLICIES).optional().describe('skip (default): no run while the last runs'),
  description: z.string().optional(),
};

const inputSchema = strictInput(scheduleFields);

export function registerCreateSchedule(context: ToolContext): void {
  context.server.registerTool(
    'svc_create_schedule',
    {
      title: 'Create a schedule',
      description: 'Schedule a flow or suite on a cron expression (svc serve fires it); answers the next due times.',
      inputSchema,
      outputSchema: toolOutput({ schedule: scheduleViewSchema }),
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    },
    guarded(context, 'svc_create_schedule', async (args: z.infer<typeof inputSchema>) => {
      const schedule = await context.api.createSchedule(args);
      return okResult({ schedule }, `Created schedule ${scheduleLine(schedule)}.`);
    }),
  );
}
