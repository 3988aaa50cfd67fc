import { SvcError } from '../errors.js';

/** Undici's own codes for a request it refused to send: a caller mistake, not a network blip. */
const REQUEST_ERROR_CODES = new Set([
  'UND_ERR_INVALID_ARG',
  'UND_ERR_REQ_CONTENT_LENGTH_MISMATCH',
  'UND_ERR_NOT_SUPPORTED',
]);

interface ErrorLike {
  code?: unknown;
  message?: unknown;
  cause?: unknown;
  errors?: unknown;
}

/**
 * Names the failure as `<code> <message>`, looking through undici's wrappers: a refused
 * connection arrives as an `AggregateError` (one per address tried) with an empty message, and a
 * socket error keeps the system error in `cause`.
 */
export function describeCause(error: unknown): string {
  const parts: string[] = [];
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current !== null && typeof current === 'object'; depth += 1) {
    const { code, message, cause, errors } = current as ErrorLike;
    const text = typeof message === 'string' ? message : '';
    const label = typeof code === 'string' && !text.includes(code) ? `${code} ${text}`.trim() : text;
    if (label !== '' && !parts.some((part) => part.includes(label))) parts.push(label);
    current = cause ?? (Array.isArray(errors) ? errors[0] : undefined);
  }
  if (parts.length === 0) return String(error);
  return parts.join(': ');
}

/** Turns whatever undici threw into the `SvcError` the `HttpClient` contract promises. */
export function toHttpError(error: unknown, method: string, url: string): SvcError {
  // The egress policy refused the connection: it was never made, and trying again is refused too.
  if (error instanceof SvcError && error.code === 'EGRESS_DENIED') {
    return new SvcError('EGRESS_DENIED', `${method} ${url}: ${error.message}`, { cause: error });
  }
  const code = (error as ErrorLike | null)?.code;
  const message = `${method} ${url}: ${describeCause(error)}`;
  if (typeof code === 'string' && REQUEST_ERROR_CODES.has(code)) {
    return new SvcError('INVALID_REQUEST', message, { cause: error });
  }
  return new SvcError('NETWORK_ERROR', message, { retryable: true, cause: error });
}
