const DAY_MS = 86_400_000;
const pad = (width: number) => Array.from({ length: 10 ** width }, (_, n) => String(n).padStart(width, '0'));
const TWO_DIGITS = pad(2);
const THREE_DIGITS = pad(3);

/** The UTC day last formatted: its first millisecond, and `YYYY-MM-DDT`. */
let dayStart = Number.NaN;
let dayPrefix = '';

/**
 * `new Date(ms).toISOString()`, without a `Date` for times on the day last formatted. A view of
 * an execution formats two times per step, and the steps of a run mostly share a day.
 * @example isoTime(0) // '1970-01-01T00:00:00.000Z'
 */
export function isoTime(ms: number): string {
  const sinceDayStart = ms - dayStart;
  if (sinceDayStart >= 0 && sinceDayStart < DAY_MS && Number.isInteger(ms)) {
    const seconds = Math.floor(sinceDayStart / 1000);
    return `${dayPrefix}${TWO_DIGITS[Math.floor(seconds / 3600)]}:${TWO_DIGITS[Math.floor(seconds / 60) % 60]}:${TWO_DIGITS[seconds % 60]}.${THREE_DIGITS[sinceDayStart % 1000]}Z`;
  }
  const text = new Date(ms).toISOString();
  // Four-digit years only: other years are written ±YYYYYY and are no day worth keeping.
  if (Number.isInteger(ms) && text.length === 24) {
    dayStart = ms - (((ms % DAY_MS) + DAY_MS) % DAY_MS);
    dayPrefix = text.slice(0, 11);
  }
  return text;
}
