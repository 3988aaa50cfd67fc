import type { ErrorCode } from './error-codes.js';

/**
 * The one error family of svc. Every failure that reaches a user carries a stable UPPER_SNAKE
 * code from `ERROR_CODES` and no transport detail: the gateway maps codes to HTTP statuses in
 * one place and the MCP server turns them into `isError` tool results.
 */
export interface SvcErrorOptions {
  /** True when repeating the same operation later may succeed (network blips, 503s). */
  retryable?: boolean;
  /** Structured detail, e.g. the list of validation problems with their paths. */
  details?: unknown;
  cause?: unknown;
}

export class SvcError extends Error {
  readonly code: ErrorCode;
  readonly retryable: boolean;
  readonly details: unknown;

  constructor(code: ErrorCode, message: string, options: SvcErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'SvcError';
    this.code = code;
    this.retryable = options.retryable ?? false;
    this.details = options.details;
  }

  toJSON(): { code: string; message: string; details?: unknown } {
    return this.details === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, details: this.details };
  }
}

export function isSvcError(value: unknown): value is SvcError {
  return value instanceof SvcError;
}

/** A plain `{ code, message }` from anything thrown; unknown errors become `INTERNAL_ERROR`. */
export function toErrorInfo(error: unknown): { code: string; message: string } {
  if (error instanceof SvcError) return { code: error.code, message: error.message };
  if (error instanceof Error) return { code: 'INTERNAL_ERROR', message: error.message };
  return { code: 'INTERNAL_ERROR', message: String(error) };
}
