import { SvcError } from '../../errors.js';
import type { Assertion, EndpointConfig, RetryConfig } from '../../model/configs/endpoint-config.js';
import { MAX_REQUEST_TIMEOUT_MS } from '../../model/configs/request-fields.js';
import { formatDuration, parseDuration } from '../../model/duration.js';
import type { RetryPolicy } from './retry-policy.js';

/** The endpoint config with every template resolved and every duration in milliseconds. */
export interface ResolvedEndpoint {
  method: string;
  url: string;
  query: Record<string, unknown>;
  headers: Record<string, unknown>;
  body: unknown;
  bodyType: EndpointConfig['bodyType'];
  timeoutMs: number;
  retry?: RetryPolicy;
  assertions: Assertion[];
  idempotencyKey: boolean;
}

/** Durations as configs write them, parsed once each: most are constants such as "30s". */
const parsedDurations = new Map<unknown, number>();

/** Milliseconds of a resolved duration; `VALIDATION_ERROR` naming `field` when it is not one. */
export function durationMs(value: unknown, field: string): number {
  let ms = parsedDurations.get(value);
  if (ms !== undefined) return ms;
  ms = parseDuration(value);
  if (ms !== undefined && parsedDurations.size < 1_000) parsedDurations.set(value, ms);
  if (ms === undefined) {
    throw new SvcError(
      'VALIDATION_ERROR',
      `${field} must be a duration such as 500, "500ms" or "2s", got ${JSON.stringify(value)}`,
    );
  }
  return ms;
}

/** Milliseconds of a resolved duration from `minMs` to `maxMs`; `VALIDATION_ERROR` naming `field` otherwise. */
export function durationWithinMs(value: unknown, field: string, minMs: number, maxMs: number): number {
  const ms = durationMs(value, field);
  if (ms < minMs || ms > maxMs) {
    throw new SvcError(
      'VALIDATION_ERROR',
      `${field} must be between ${formatDuration(minMs)} and ${formatDuration(maxMs)}, got ${JSON.stringify(value)}`,
    );
  }
  return ms;
}

/** A resolved query or headers value: an object, or nothing. */
export function record(value: unknown, field: string): Record<string, unknown> {
  if (value === undefined || value === null) return {};
  if (typeof value !== 'object' || Array.isArray(value))
    throw new SvcError('VALIDATION_ERROR', `${field} must be an object`);
  return value as Record<string, unknown>;
}

/**
 * Resolves the `{{…}}` templates of an endpoint config. Throws `SvcError` for a template that
 * cannot be resolved or a value that is not what its field needs.
 */
export function resolveEndpointConfig(config: EndpointConfig, resolve: (value: unknown) => unknown): ResolvedEndpoint {
  const url = resolve(config.url);
  if (typeof url !== 'string' || url === '')
    throw new SvcError('VALIDATION_ERROR', 'url must resolve to a non-empty string');
  const resolved: ResolvedEndpoint = {
    method: config.method,
    url,
    query: record(resolve(config.query), 'query'),
    headers: record(resolve(config.headers), 'headers'),
    body: config.body === undefined ? undefined : resolve(config.body),
    bodyType: config.bodyType,
    timeoutMs: durationWithinMs(resolve(config.timeout), 'timeout', 0, MAX_REQUEST_TIMEOUT_MS),
    assertions: resolveAssertions(config.assertions, resolve),
    idempotencyKey: config.idempotencyKey,
  };
  if (config.retry !== undefined) resolved.retry = resolveRetryPolicy(config.retry, resolve);
  return resolved;
}

/** Expected values may be templates (`{{flowVars.expectedTotal}}`); targets are plain paths. */
export function resolveAssertions(assertions: readonly Assertion[], resolve: (value: unknown) => unknown): Assertion[] {
  return assertions.map((assertion) =>
    assertion.value === undefined ? assertion : { ...assertion, value: resolve(assertion.value) },
  );
}

export function resolveRetryPolicy(retry: RetryConfig, resolve: (value: unknown) => unknown): RetryPolicy {
  return {
    maxAttempts: retry.maxAttempts,
    initialDelayMs: durationMs(resolve(retry.initialDelay), 'retry.initialDelay'),
    maxDelayMs: durationMs(resolve(retry.maxDelay), 'retry.maxDelay'),
    factor: retry.factor,
    onStatuses: retry.onStatuses,
    onNetworkError: retry.onNetworkError,
  };
}
