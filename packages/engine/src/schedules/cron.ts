import { Cron } from 'croner';
import { BoundedMap } from '../bounded-map.js';

/*
 * Five-field cron expressions (minute hour day-of-month month day-of-week), checked field by field
 * so that a mistake is answered with the field and why, then evaluated by croner. Times are
 * milliseconds since the epoch; `timezone` is `UTC` or an IANA zone name.
 */

interface CronField {
  name: string;
  min: number;
  max: number;
  /** Names accepted for values (`jan`, `mon`), lower case, by value. */
  names?: Record<string, number>;
}

const MONTH_NAMES = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const DAY_NAMES = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];

const FIELDS: readonly CronField[] = [
  { name: 'minute', min: 0, max: 59 },
  { name: 'hour', min: 0, max: 23 },
  { name: 'day-of-month', min: 1, max: 31 },
  { name: 'month', min: 1, max: 12, names: Object.fromEntries(MONTH_NAMES.map((name, index) => [name, index + 1])) },
  // 7 is Sunday as well as 0, as in most crons.
  { name: 'day-of-week', min: 0, max: 7, names: Object.fromEntries(DAY_NAMES.map((name, index) => [name, index])) },
];

/** The longest expression accepted: a real one is a few dozen characters. */
export const MAX_CRON_LENGTH = 200;

/** What is wrong with a cron expression, or undefined when it is a valid five-field one. */
export function cronProblem(expression: string): string | undefined {
  if (expression.length > MAX_CRON_LENGTH) return `longer than ${MAX_CRON_LENGTH} characters`;
  const parts = expression.trim().split(/\s+/).filter(Boolean);
  if (parts.length !== 5) {
    return `a cron expression has 5 fields (minute hour day-of-month month day-of-week), this one has ${parts.length}`;
  }
  for (const [index, part] of parts.entries()) {
    const problem = fieldProblem(part, FIELDS[index]!);
    if (problem !== undefined) return problem;
  }
  try {
    if (compile(expression, 'UTC').nextRun(new Date(NEVER_SEARCH_FROM)) === null) return NEVER_MATCHES;
  } catch (error) {
    // A search that finds nothing may recurse until the stack overflows; croner's other words are its own.
    const overflow = error instanceof RangeError && !error.message.startsWith('CronPattern');
    return overflow ? NEVER_MATCHES : 'it cannot be evaluated as a five-field cron expression';
  }
  return undefined;
}

const NEVER_MATCHES = 'it never matches a date';

/*
 * croner looks for a match until the year 3000, recursing once per month it tries: from 1970 an
 * expression that never matches (day 31 of April, June, September and November) overflows the stack.
 * Every pattern of five fields that matches at all matches within any 8 years (February 29 included,
 * day-of-month and day-of-week being either-or), so the search starts 10 years before that end.
 */
const NEVER_SEARCH_FROM = Date.UTC(2990, 0, 1);

function fieldProblem(part: string, field: CronField): string | undefined {
  for (const item of part.split(',')) {
    if (item === '') return `${field.name} "${part}" has an empty list item`;
    const [range, step, extra] = item.split('/');
    if (extra !== undefined) return `${field.name} "${item}" has more than one step`;
    if (step !== undefined) {
      if (!/^\d+$/.test(step)) return `${field.name} step "${step}" is not a number`;
      const size = Number(step);
      if (size < 1 || size > field.max) return `${field.name} step ${size} is out of range (1-${field.max})`;
    }
    if (range === '*') continue;
    const bounds = range!.split('-');
    if (bounds.length > 2) return `${field.name} "${range}" is not a value or a range`;
    const values: number[] = [];
    for (const bound of bounds) {
      const value = valueOf(bound, field);
      if (typeof value === 'string') return value;
      values.push(value);
    }
    if (values.length === 2 && values[0]! > values[1]!) {
      return `${field.name} range ${range} runs backwards (write ${bounds[1]}-${bounds[0]}? a range goes from low to high)`;
    }
  }
  return undefined;
}

/** The number of a field value, or what is wrong with it. */
function valueOf(text: string, field: CronField): number | string {
  if (/^\d+$/.test(text)) {
    const value = Number(text);
    if (value < field.min || value > field.max)
      return `${field.name} ${value} is out of range (${field.min}-${field.max})`;
    return value;
  }
  const named = field.names?.[text.toLowerCase()];
  if (named !== undefined) return named;
  if (text === '') return `${field.name} has an empty value`;
  return field.names
    ? `${field.name} "${text}" is not a number (${field.min}-${field.max}) or a name (${Object.keys(field.names).slice(0, 3).join(', ')}, …)`
    : `${field.name} "${text}" is not a number (${field.min}-${field.max})`;
}

/** Whether `timezone` is `UTC` or an IANA zone this runtime knows. */
export function isTimeZone(timezone: string): boolean {
  if (timezone.length > 64) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: timezone });
    return true;
  } catch {
    return false;
  }
}

const isUtc = (timezone: string) => timezone === 'UTC' || timezone === 'Etc/UTC';

/*
 * croner with a `timezone` converts through Intl on every step (about 1 ms a call); with a fixed
 * `utcOffset` it is pure arithmetic (about 30 µs). UTC schedules, the default, take the fast way.
 */
const compiled = new BoundedMap<string, Cron>(2_000);

function compile(expression: string, timezone: string, utcOffset?: number): Cron {
  const key = `${utcOffset ?? timezone}|${expression}`;
  let cron = compiled.get(key);
  if (cron === undefined) {
    const options =
      utcOffset !== undefined ? { utcOffset } : isUtc(timezone) ? { utcOffset: 0 } : { timezone: timezone };
    cron = new Cron(expression.trim(), { paused: true, legacyMode: true, ...options });
    compiled.set(key, cron);
  }
  return cron;
}

/** The first time the expression matches strictly after `after`; null when it never does again. */
export function nextCronTime(expression: string, timezone: string, after: number): number | null {
  return compile(expression, timezone).nextRun(new Date(after))?.getTime() ?? null;
}

/** The next `count` matching times strictly after `after`. */
export function nextCronTimes(expression: string, timezone: string, after: number, count: number): number[] {
  return compile(expression, timezone)
    .nextRuns(count, new Date(after))
    .map((date) => date.getTime());
}

/** How many matching times are counted at most: past that a count says "at least". */
export const MAX_COUNTED_SLOTS = 10_000;

/**
 * How many times the expression matches in `[from, to]` (both included), up to `MAX_COUNTED_SLOTS`.
 * Counted with the zone's fixed UTC offset (fast) on each side of an offset change, so a
 * daylight-saving change inside the span moves the count by at most the slots of one hour.
 */
export function countCronTimes(expression: string, timezone: string, from: number, to: number): number {
  if (to < from) return 0;
  if (isUtc(timezone)) return countWithOffset(expression, 0, from, to, MAX_COUNTED_SLOTS);
  const start = offsetMinutes(timezone, from);
  const end = offsetMinutes(timezone, to);
  if (start === end) return countWithOffset(expression, start, from, to, MAX_COUNTED_SLOTS);
  const change = offsetChange(timezone, from, to, start);
  const before = countWithOffset(expression, start, from, change - 1, MAX_COUNTED_SLOTS);
  return before + countWithOffset(expression, end, change, to, MAX_COUNTED_SLOTS - before);
}

function countWithOffset(expression: string, utcOffset: number, from: number, to: number, cap: number): number {
  const cron = compile(expression, 'UTC', utcOffset);
  let count = 0;
  let at = cron.nextRun(new Date(from - 1));
  while (at !== null && at.getTime() <= to && count < cap) {
    count += 1;
    at = cron.nextRun(at);
  }
  return count;
}

const offsetFormats = new BoundedMap<string, Intl.DateTimeFormat>(200);

/** The zone's offset from UTC at `at`, in minutes (`+60` for Zurich in winter). */
function offsetMinutes(timezone: string, at: number): number {
  let format = offsetFormats.get(timezone);
  if (format === undefined) {
    format = new Intl.DateTimeFormat('en-US', { timeZone: timezone, timeZoneName: 'longOffset' });
    offsetFormats.set(timezone, format);
  }
  const name = format.formatToParts(new Date(at)).find((part) => part.type === 'timeZoneName')?.value ?? 'GMT';
  const match = /GMT([+-])(\d{2}):(\d{2})/.exec(name);
  if (match === null) return 0;
  const minutes = Number(match[2]) * 60 + Number(match[3]);
  return match[1] === '-' ? -minutes : minutes;
}

/** The first millisecond in `(from, to]` at which the offset is no longer `offset` (binary search). */
function offsetChange(timezone: string, from: number, to: number, offset: number): number {
  let low = from;
  let high = to;
  while (high - low > 1_000) {
    const middle = Math.floor((low + high) / 2);
    if (offsetMinutes(timezone, middle) === offset) low = middle;
    else high = middle;
  }
  return high;
}
