import { z } from 'zod';

/**
 * Inside a loop body: gathers `source` each iteration. After the loop, read the result as
 * `{{ResponseBinding.<Collect>.body.items}}`: an array (Append, in iteration order) or one
 * object (Merge, later iterations win).
 */
export const collectConfigSchema = z.strictObject({
  mode: z.enum(['Append', 'Merge']).default('Append'),
  source: z.unknown(),
});

export type CollectConfig = z.infer<typeof collectConfigSchema>;
