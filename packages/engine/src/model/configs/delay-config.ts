import { z } from 'zod';
import { durationSchema } from '../duration.js';

/** Pauses the branch; the wait is stored with a due time, so it survives a restart. */
export const delayConfigSchema = z.strictObject({ duration: durationSchema });

export type DelayConfig = z.infer<typeof delayConfigSchema>;
