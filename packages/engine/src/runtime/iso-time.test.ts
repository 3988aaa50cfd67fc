import { describe, expect, it } from 'vitest';
import { isoTime } from './iso-time.js';

describe('isoTime', () => {
  it('writes what Date#toISOString writes, on the same day and across days', () => {
    const day = Date.parse('2026-11-24T00:00:00.000Z');
    const times = [
      day,
      day + 1,
      day + 999,
      day + 1000,
      day + 59_999,
      day + 3_600_000,
      day + 86_399_999,
      day + 86_400_000,
      day - 1,
    ];
    for (let n = 0; n < 2000; n += 1) times.push(day + Math.floor(Math.random() * 3 * 86_400_000) - 86_400_000);
    for (const ms of times) expect(isoTime(ms)).toBe(new Date(ms).toISOString());
  });

  it('keeps to toISOString for times before 1970, far years and fractions of a millisecond', () => {
    const times = [
      0,
      -1,
      -86_400_001,
      Date.parse('1969-12-31T23:59:59.999Z'),
      8.64e15,
      -8.64e15,
      Date.parse('+020000-01-01T00:00:00Z'),
      1_795_530_232_083.7,
      1_795_530_232_083,
    ];
    for (const ms of times) expect(isoTime(ms)).toBe(new Date(ms).toISOString());
  });

  it('throws as toISOString does for a time that is no date', () => {
    expect(() => isoTime(Number.NaN)).toThrow(RangeError);
    expect(() => isoTime(8.64e15 + 1)).toThrow(RangeError);
  });
});
