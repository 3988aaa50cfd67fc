import type { Clock } from '@svc/engine';
import type { MiddlewareHandler } from 'hono';
import { HttpError } from '../errors/http-error.js';
import type { GatewayEnv } from './principal.js';

export interface RateLimitOptions {
  /** Sustained requests per minute per client. */
  requestsPerMinute: number;
  /** Requests a client may make at once after being idle (default: a tenth of a minute's worth, at least 1). */
  burst?: number;
}

interface Bucket {
  tokens: number;
  at: number;
}

/**
 * A token bucket per client: `burst` requests at once, refilled at `requestsPerMinute`. Past it,
 * 429 `RATE_LIMITED` with `Retry-After` in whole seconds until the next request fits. Buckets are
 * this process's memory: with several gateway processes each one limits on its own.
 */
export function rateLimit(options: RateLimitOptions, clock: Clock): MiddlewareHandler<GatewayEnv> {
  const perMs = options.requestsPerMinute / 60_000;
  const capacity = Math.max(1, options.burst ?? Math.floor(options.requestsPerMinute / 10));
  const buckets = new Map<string, Bucket>();
  return async (c, next) => {
    const { clientId } = c.get('principal');
    const now = clock.now();
    const bucket = buckets.get(clientId) ?? { tokens: capacity, at: now };
    bucket.tokens = Math.min(capacity, bucket.tokens + Math.max(0, now - bucket.at) * perMs);
    bucket.at = now;
    buckets.set(clientId, bucket);
    if (bucket.tokens < 1) {
      const retryAfter = Math.max(1, Math.ceil((1 - bucket.tokens) / perMs / 1000));
      throw new HttpError(
        'RATE_LIMITED',
        `too many requests from client ${clientId}: at most ${options.requestsPerMinute} a minute; retry in ${retryAfter} s`,
        {
          retryable: true,
          details: { retryAfterSeconds: retryAfter },
          headers: { 'Retry-After': String(retryAfter) },
        },
      );
    }
    bucket.tokens -= 1;
    await next();
  };
}
