import { SvcError } from '../../errors.js';
import type { Assertion, EndpointConfig } from '../../model/configs/endpoint-config.js';
import { parseDuration } from '../../model/duration.js';
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

function duration(value: unknown, field: string): number {
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

function record(value: unknown, field: string): Record<string, unknown> {
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
    timeoutMs: duration(resolve(config.timeout), 'timeout'),
    // Expected values may be templates (`{{flowVars.expectedTotal}}`); targets are plain paths.
    assertions: config.assertions.map((assertion) =>
      assertion.value === undefined ? assertion : { ...assertion, value: resolve(assertion.value) },
    ),
    idempotencyKey: config.idempotencyKey,
  };
  if (config.retry !== undefined) {
    const { retry } = config;
    resolved.retry = {
      maxAttempts: retry.maxAttempts,
      initialDelayMs: duration(resolve(retry.initialDelay), 'retry.initialDelay'),
      maxDelayMs: duration(resolve(retry.maxDelay), 'retry.maxDelay'),
      factor: retry.factor,
      onStatuses: retry.onStatuses,
      onNetworkError: retry.onNetworkError,
    };
  }
  return resolved;
}
