import { z } from 'zod';
import { environmentNameSchema } from '../environments/environment-schema.js';
import { OVERLAP_POLICIES, SCHEDULE_TARGET_TYPES } from '../store/types.js';
import { cronProblem, isTimeZone, MAX_CRON_LENGTH } from './cron.js';

/** A five-field cron expression; a mistake is answered with the field and why. */
export const cronExpressionSchema = z
  .string()
  .max(MAX_CRON_LENGTH)
  .superRefine((expression, context) => {
    const problem = cronProblem(expression);
    if (problem !== undefined) context.addIssue({ code: 'custom', message: `"${expression}": ${problem}` });
  });

/** `UTC` or an IANA zone name such as `Europe/Zurich`. */
export const timezoneSchema = z
  .string()
  .min(1)
  .max(64)
  .superRefine((timezone, context) => {
    if (!isTimeZone(timezone))
      context.addIssue({
        code: 'custom',
        message: `"${timezone}" is not a time zone: use UTC or an IANA name such as Europe/Zurich`,
      });
  });

/**
 * A schedule as a client sends it (REST body, MCP tool input). The target names a flow or a
 * suite of the tenant by id or by name; it is stored by id. Unknown fields are refused.
 */
export const scheduleBodySchema = z
  .object({
    name: z.string().trim().min(1).max(200),
    description: z.string().max(2000).default(''),
    target: z
      .object({
        type: z.enum(SCHEDULE_TARGET_TYPES),
        /** The flow's or suite's id, or its exact name. */
        id: z.string().min(1).max(200),
      })
      .strict(),
    cron: cronExpressionSchema,
    timezone: timezoneSchema.default('UTC'),
    /** A stored environment's name: what the runs read as `env.*`. */
    environment: environmentNameSchema.nullable().default(null),
    enabled: z.boolean().default(true),
    overlap: z.enum(OVERLAP_POLICIES).default('skip'),
  })
  .strict();

export type ScheduleBody = z.infer<typeof scheduleBodySchema>;
export type ScheduleBodyInput = z.input<typeof scheduleBodySchema>;

/** How many due times a listing shows per schedule: enough to see what the cron means. */
export const UPCOMING_DUE_TIMES = 3;
