/** A retry config with its durations in milliseconds. */
export interface RetryPolicy {
  maxAttempts: number;
  initialDelayMs: number;
  maxDelayMs: number;
  factor: number;
  onStatuses: readonly number[];
  onNetworkError: boolean;
}

/** Failures a later attempt may not see: the request never got an answer. */
export const TRANSIENT_CODES: ReadonlySet<string> = new Set(['NETWORK_ERROR', 'TIMEOUT']);

/** A server may ask for a long pause, but a flow step does not sleep longer than this. */
export const MAX_RETRY_AFTER_MS = 3_600_000;

/** min(maxDelay, initialDelay × factor^(attempt − 1)), where `attempt` is the one that just failed. */
export function backoffDelay(policy: RetryPolicy, attempt: number): number {
  const delay = policy.initialDelayMs * policy.factor ** Math.max(0, attempt - 1);
  return Math.min(policy.maxDelayMs, Math.round(delay));
}

/**
 * Milliseconds a `Retry-After` header asks to wait: delta-seconds or an HTTP date (RFC 9110
 * §10.2.3), capped at an hour; undefined when the header is absent or unreadable.
 */
export function parseRetryAfter(value: string | undefined, now: number): number | undefined {
  if (value === undefined) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Math.min(MAX_RETRY_AFTER_MS, Number(text) * 1_000);
  const date = Date.parse(text);
  if (Number.isNaN(date)) return undefined;
  return Math.min(MAX_RETRY_AFTER_MS, Math.max(0, date - now));
}

export type RetryReason = { kind: 'status'; status: number; retryAfter?: string } | { kind: 'network' };

/**
 * When to run the next attempt, or undefined when this failure is final: no policy, attempts
 * used up, or a failure the policy does not cover. A server's `Retry-After` replaces the backoff.
 */
export function nextAttemptAt(
  policy: RetryPolicy | undefined,
  attempt: number,
  reason: RetryReason,
  now: number,
): number | undefined {
  if (policy === undefined || attempt >= policy.maxAttempts) return undefined;
  if (reason.kind === 'network') return policy.onNetworkError ? now + backoffDelay(policy, attempt) : undefined;
  if (!policy.onStatuses.includes(reason.status)) return undefined;
  const asked = parseRetryAfter(reason.retryAfter, now);
  return now + (asked ?? backoffDelay(policy, attempt));
}
