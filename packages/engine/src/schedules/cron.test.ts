import { describe, expect, it } from 'vitest';
import { countCronTimes, cronProblem, MAX_COUNTED_SLOTS, nextCronTime, nextCronTimes } from './cron.js';

const at = (text: string) => Date.parse(text);

/** Counts by stepping croner through the zone itself: slow, exact, the reference. */
function countBySteps(expression: string, timezone: string, from: number, to: number): number {
  let count = 0;
  let next = nextCronTime(expression, timezone, from - 1);
  while (next !== null && next <= to) {
    count += 1;
    next = nextCronTime(expression, timezone, next);
  }
  return count;
}

describe('cron', () => {
  it('accepts the spec examples, names, lists, ranges and steps', () => {
    for (const expression of ['30 8 * * 1-5', '*/15 * * * *', '0 0 1 jan,jul *', '0 9-17/2 * * MON-FRI', '0 0 * * 7']) {
      expect(cronProblem(expression), expression).toBeUndefined();
    }
  });

  it('says a date that never comes never matches, however many months it tries, and finds the rare one that does', () => {
    for (const expression of ['0 0 31 4,6,9,11 *', '0 0 31 2,4,6,9,11 *', '0 0 30 2 *', '0 0 30,31 2 *']) {
      expect(cronProblem(expression), expression).toBe('it never matches a date');
    }
    // However deep the caller's stack already is.
    const deep = (depth: number): string | undefined =>
      depth === 0 ? cronProblem('0 0 31 4,6,9,11 *') : deep(depth - 1);
    expect(deep(5_000)).toBe('it never matches a date');
    expect(cronProblem('0 0 29 2 *')).toBeUndefined();
    expect(nextCronTime('0 0 29 2 *', 'UTC', at('2097-01-01T00:00:00Z'))).toBe(at('2104-02-29T00:00:00Z'));
  });

  it('counts the slots in a span, both ends included', () => {
    expect(countCronTimes('*/15 * * * *', 'UTC', at('2026-01-01T00:15:00Z'), at('2026-01-01T03:07:00Z'))).toBe(12);
    expect(countCronTimes('30 8 * * 1-5', 'UTC', at('2026-01-01T08:30:00Z'), at('2026-01-12T09:00:00Z'))).toBe(8);
    expect(countCronTimes('*/15 * * * *', 'UTC', at('2026-01-01T00:16:00Z'), at('2026-01-01T00:29:00Z'))).toBe(0);
  });

  it('counts in an IANA zone as stepping through the zone does', () => {
    for (const expression of ['0 * * * *', '30 2 * * *', '*/20 * * * *', '30 8 * * 1-5']) {
      const [from, to] = [at('2026-01-10T12:00:00Z'), at('2026-01-20T12:00:00Z')];
      expect(countCronTimes(expression, 'Europe/Zurich', from, to), expression).toBe(
        countBySteps(expression, 'Europe/Zurich', from, to),
      );
    }
  });

  it.each([
    ['spring forward', '2026-03-28T12:00:00Z', '2026-03-30T12:00:00Z'],
    ['fall back', '2026-10-24T12:00:00Z', '2026-10-26T12:00:00Z'],
  ])('counts across a daylight-saving change (%s) within the slots of the hour that moved', (_, from, to) => {
    for (const [expression, perHour] of [
      ['0 * * * *', 1],
      ['30 2 * * *', 1],
      ['*/20 * * * *', 3],
      ['30 8 * * 1-5', 0],
    ] as const) {
      const counted = countCronTimes(expression, 'Europe/Zurich', at(from), at(to));
      const stepped = countBySteps(expression, 'Europe/Zurich', at(from), at(to));
      expect(Math.abs(counted - stepped), expression).toBeLessThanOrEqual(perHour);
    }
  });

  it(`stops counting at ${MAX_COUNTED_SLOTS}`, () => {
    expect(countCronTimes('* * * * *', 'UTC', at('2026-01-01T00:00:00Z'), at('2026-03-01T00:00:00Z'))).toBe(
      MAX_COUNTED_SLOTS,
    );
  });

  it('answers the next times in the zone', () => {
    expect(nextCronTimes('0 9 * * *', 'America/New_York', at('2026-01-01T00:00:00Z'), 2)).toEqual([
      at('2026-01-01T14:00:00Z'),
      at('2026-01-02T14:00:00Z'),
    ]);
  });
});
