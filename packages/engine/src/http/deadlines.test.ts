import { afterEach, describe, expect, it, vi } from 'vitest';
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
});
