import { z } from 'zod';

/** Iterates an array: `L` runs the body once per item, `D` runs after all items. */
export const forConfigSchema = z.strictObject({
  /** An expression yielding an array, e.g. "{{ListOrders.response.body.items}}". */
  items: z.union([z.string().min(1), z.array(z.unknown())]),
  /** Items run at once (default 1: in order). */
  concurrency: z.number().int().min(1).max(64).default(1),
});

export type ForConfig = z.infer<typeof forConfigSchema>;
