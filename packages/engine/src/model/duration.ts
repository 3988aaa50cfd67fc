import { z } from 'zod';

const UNIT_MS = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000 } as const;
const DURATION_PATTERN = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h)\s*$/;

/**
 * A duration is a number of milliseconds or a string with a unit: "500ms", "2s", "5m", "1h".
 * A string may also be a `{{…}}` template, resolved when the node runs.
 */
export const durationSchema = z.union([
  z.number().int().nonnegative(),
  z.string().refine((value) => value.includes('{{') || DURATION_PATTERN.test(value), {
    message: 'expected a duration such as 500, "500ms", "2s", "5m" or "1h"',
  }),
]);

export type Duration = z.infer<typeof durationSchema>;

/**
 * Milliseconds of a duration, or undefined when the value is not one.
 * @example parseDuration('2s') // 2000
 */
export function parseDuration(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) && value >= 0 ? Math.round(value) : undefined;
  if (typeof value !== 'string') return undefined;
  const match = DURATION_PATTERN.exec(value);
  if (!match) {
    const asNumber = Number(value);
    return value.trim() !== '' && Number.isFinite(asNumber) && asNumber >= 0 ? Math.round(asNumber) : undefined;
  }
  return Math.round(Number(match[1]) * UNIT_MS[match[2] as keyof typeof UNIT_MS]);
}
