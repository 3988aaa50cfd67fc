/**
 * The value below which `percent` % of the samples fall, by the nearest-rank method (always one
 * of the samples, never an interpolation); null without samples.
 * @example percentile([120, 80, 100, 300], 50) // 100
 */
export function percentile(samples: readonly number[], percent: number): number | null {
  if (samples.length === 0) return null;
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.ceil((percent / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1]!;
}

/** A share as a fraction from 0 to 1, to four decimals; 0 of 0 is 0. */
export function ratio(part: number, whole: number): number {
  return whole === 0 ? 0 : Math.round((part / whole) * 10_000) / 10_000;
}
