import { afterEach, describe, expect, it, vi } from 'vitest';
import { MAX_TIMER_MS } from '../timer-delay.js';
import { createDeadlines } from './deadlines.js';

afterEach(() => {
  vi.useRealTimers();
});

describe('deadlines on one timer', () => {
  it('fire when due, in the order they fall due whatever their lengths, and never once cancelled', () => {
    vi.useFakeTimers();
    const deadlines = createDeadlines(() => Date.now());
    const fired: string[] = [];
    deadlines.add(50, () => fired.push('a 50'));
    deadlines.add(10, () => fired.push('b 10'));
    const cancelled = deadlines.add(20, () => fired.push('cancelled'));
    deadlines.add(30, () => fired.push('c 30'));
    vi.advanceTimersByTime(5);
    deadlines.add(50, () => fired.push('d 55'));
    cancelled.cancel();
    vi.advanceTimersByTime(9);
    expect(fired).toEqual(['b 10']);
    vi.advanceTimersByTime(100);
    expect(fired).toEqual(['b 10', 'c 30', 'a 50', 'd 55']);
    expect(deadlines.pending).toBe(0);
    expect(deadlines.keepsProcessAlive).toBe(false);
  });

  it('keep the process alive only while a deadline is pending', () => {
    vi.useFakeTimers();
    const deadlines = createDeadlines(() => Date.now());
    const all = Array.from({ length: 5_000 }, () =>
      deadlines.add(30_000, () => expect.fail('a cancelled deadline fired')),
    );
    expect(deadlines.keepsProcessAlive).toBe(true);
    for (const deadline of all) deadline.cancel();
    expect(deadlines.pending).toBe(0);
    expect(deadlines.keepsProcessAlive).toBe(false);
    vi.advanceTimersByTime(60_000);
    deadlines.add(10, () => {});
    expect(deadlines.keepsProcessAlive).toBe(true);
  });

  it('keeps firing the pending one behind many that ended, in time', () => {
    vi.useFakeTimers();
    const deadlines = createDeadlines(() => Date.now());
    let slowFired = false;
    deadlines.add(1_000, () => {
      slowFired = true;
    });
    for (let n = 0; n < 10_000; n += 1) deadlines.add(1_000, () => expect.fail('an ended request timed out')).cancel();
    expect(deadlines.pending).toBe(1);
    vi.advanceTimersByTime(999);
    expect(slowFired).toBe(false);
    vi.advanceTimersByTime(1);
    expect(slowFired).toBe(true);
  });

  it("hold a deadline past a timer's reach without overflowing the timer or waking every millisecond", async () => {
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(warning.name);
    process.on('warning', onWarning);
    let reads = 0;
    const deadlines = createDeadlines(() => {
      reads += 1;
      return performance.now();
    });
    try {
      let expired = false;
      const deadline = deadlines.add(600 * 3_600_000, () => {
        expired = true;
      });
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(warnings).toEqual([]);
      // Set and armed once: an overflowing timer would fire, read the clock and re-arm each millisecond.
      expect(reads).toBeLessThan(5);
      expect(expired).toBe(false);
      expect(deadlines.pending).toBe(1);
      deadline.cancel();
      expect(deadlines.pending).toBe(0);
      expect(deadlines.keepsProcessAlive).toBe(false);
    } finally {
      process.off('warning', onWarning);
    }
  });

  it("fire a deadline past a timer's reach when it is due, not when the first timer ends", () => {
    vi.useFakeTimers();
    const deadlines = createDeadlines(() => Date.now());
    let expired = false;
    deadlines.add(MAX_TIMER_MS + 60_000, () => {
      expired = true;
    });
    vi.advanceTimersByTime(MAX_TIMER_MS);
    expect(expired).toBe(false);
    vi.advanceTimersByTime(59_999);
    expect(expired).toBe(false);
    vi.advanceTimersByTime(1);
    expect(expired).toBe(true);
  });
});
