import { describe, expect, it } from 'vitest';
import { backoffDelay, nextAttemptAt, parseRetryAfter, type RetryPolicy } from './retry-policy.js';

const policy: RetryPolicy = {
  maxAttempts: 4,
  initialDelayMs: 200,
  maxDelayMs: 1_000,
  factor: 3,
  onStatuses: [429, 503],
  onNetworkError: true,
};
const now = Date.parse('2026-03-01T12:00:00Z');

describe('retry policy', () => {
  it('grows the delay by factor per attempt up to maxDelay', () => {
    expect([1, 2, 3, 4].map((attempt) => backoffDelay(policy, attempt))).toEqual([200, 600, 1_000, 1_000]);
  });

  it('reads Retry-After as seconds or an HTTP date, never negative, at most an hour', () => {
    expect(parseRetryAfter('120', now)).toBe(120_000);
    expect(parseRetryAfter(new Date(now + 5_000).toUTCString(), now)).toBe(5_000);
    expect(parseRetryAfter(new Date(now - 5_000).toUTCString(), now)).toBe(0);
    expect(parseRetryAfter('7200', now)).toBe(3_600_000);
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
  });

  it('schedules the next attempt only for covered failures with attempts left', () => {
    expect(nextAttemptAt(policy, 2, { kind: 'status', status: 503 }, now)).toBe(now + 600);
    expect(nextAttemptAt(policy, 1, { kind: 'status', status: 429, retryAfter: '3' }, now)).toBe(now + 3_000);
    expect(nextAttemptAt(policy, 1, { kind: 'status', status: 500 }, now)).toBeUndefined();
    expect(nextAttemptAt(policy, 4, { kind: 'status', status: 503 }, now)).toBeUndefined();
    expect(nextAttemptAt(policy, 1, { kind: 'network' }, now)).toBe(now + 200);
    expect(nextAttemptAt({ ...policy, onNetworkError: false }, 1, { kind: 'network' }, now)).toBeUndefined();
    expect(nextAttemptAt(undefined, 1, { kind: 'network' }, now)).toBeUndefined();
  });
});
