import { z } from 'zod';

/**
 * Runs another flow of the tenant as a child execution. What happens when the child does not
 * complete: `halt` (default) fails this node and the parent; `fallback` routes to this node's
 * `error` handle; `continue` completes with the child's error as the output.
 */
export const subflowConfigSchema = z.strictObject({
  flowId: z.string().min(1),
  /** A saved version of the child to run; the current one when absent. */
  version: z.number().int().positive().optional(),
  /** Values for the child's declared inputs (it reads them as flowVars); expressions allowed. */
  inputs: z.record(z.string(), z.unknown()).default({}),
  onFailure: z.enum(['halt', 'fallback', 'continue']).default('halt'),
});

export type SubflowConfig = z.infer<typeof subflowConfigSchema>;
