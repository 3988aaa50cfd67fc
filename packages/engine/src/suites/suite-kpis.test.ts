import { describe, expect, it } from 'vitest';
import { percentile, ratio } from './suite-kpis.js';

describe('suite KPIs', () => {
  it('takes percentiles by nearest rank, always one of the samples', () => {
    expect(percentile([], 50)).toBeNull();
    expect(percentile([42], 95)).toBe(42);
    expect(percentile([300, 100, 200, 400], 50)).toBe(200);
    expect(percentile([300, 100, 200, 400], 95)).toBe(400);
    const hundred = Array.from({ length: 100 }, (_, i) => 100 - i);
    expect(percentile(hundred, 50)).toBe(50);
    expect(percentile(hundred, 95)).toBe(95);
  });

  it('answers pass rates as fractions to four decimals', () => {
    expect(ratio(1, 3)).toBe(0.3333);
    expect(ratio(2, 2)).toBe(1);
    expect(ratio(0, 0)).toBe(0);
  });
});
