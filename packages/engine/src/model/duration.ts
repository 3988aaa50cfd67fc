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

/**
 * A duration between `minMs` and `maxMs` (inclusive). A `{{…}}` template passes here and is
 * checked against the same bounds when the node runs.
 */
export function durationWithin(bounds: { minMs: number; maxMs: number }) {
  const { minMs, maxMs } = bounds;
  const range = `between ${formatDuration(minMs)} and ${formatDuration(maxMs)}`;
  // One issue per bad value: the format and the range are checked together.
  return z.union([z.number().int().nonnegative(), z.string()]).superRefine((value, issues) => {
    if (typeof value === 'string' && value.includes('{{')) return;
    if (typeof value === 'string' && !DURATION_PATTERN.test(value)) {
      issues.addIssue({ code: 'custom', message: `expected a duration such as "2s" or "5m", ${range}` });
      return;
    }
    const ms = parseDuration(value);
    if (ms === undefined || ms < minMs || ms > maxMs)
      issues.addIssue({ code: 'custom', message: `expected a duration ${range}` });
  });
}

/**
 * A duration as a person reads it, in its largest whole units.
 * @example formatDuration(90_000) // "1m 30s"
 */
export function formatDuration(ms: number): string {
  if (ms < 1_000) return `${Math.round(ms)}ms`;
  if (ms < 60_000) return `${Math.round(ms / 100) / 10}s`;
  const units: [string, number][] = [
    ['d', 86_400_000],
    ['h', 3_600_000],
    ['m', 60_000],
    ['s', 1_000],
  ];
  const parts: string[] = [];
  let left = Math.round(ms / 1_000) * 1_000;
  for (const [unit, size] of units) {
    const count = Math.floor(left / size);
    if (count > 0) parts.push(`${count}${unit}`);
    left -= count * size;
  }
  return parts.slice(0, 2).join(' ');
}
