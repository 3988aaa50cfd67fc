import { z } from 'zod';

/** Runs the body a number of times: `L` per cycle, `D` after the last. */
export const repeatConfigSchema = z.strictObject({
  /** A number, or an expression yielding one. */
  count: z.union([z.number().int().nonnegative(), z.string().min(1)]),
  /**
   * Checked after each cycle; when it holds, no further cycle runs. Either a template yielding
   * true ("{{Poll.response.body.done}}") or, without braces, a JavaScript boolean run in the
   * sandbox ("Poll.response.body.status === 'COMPLETED'").
   */
  breakWhen: z.string().min(1).optional(),
  /** The largest count allowed (default 10,000): a runaway count is an error, not a hang. */
  maxCount: z.number().int().min(1).max(1_000_000).default(10_000),
});

export type RepeatConfig = z.infer<typeof repeatConfigSchema>;
