import { SvcError, type ErrorCode, type SvcErrorOptions } from '@svc/engine';

/**
 * An error that needs response headers beside its envelope: the `WWW-Authenticate` challenge of
 * a 401/403, the `Retry-After` of a 429.
 */
export class HttpError extends SvcError {
  readonly headers: Readonly<Record<string, string>>;

  constructor(code: ErrorCode, message: string, options: SvcErrorOptions & { headers?: Record<string, string> } = {}) {
    super(code, message, options);
    this.name = 'HttpError';
    this.headers = options.headers ?? {};
  }
}
