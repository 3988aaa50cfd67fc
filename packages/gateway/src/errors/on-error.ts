import { randomUUID } from 'node:crypto';
import { isSvcError, type ErrorCode, type Logger } from '@svc/engine';
import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { failure } from '../http/envelope.js';
import { statusForCode } from './error-table.js';
import { HttpError } from './http-error.js';

/**
 * The app's one error handler. An `SvcError` answers its code and message (they are written for
 * users); anything else answers 500 with a correlation id, and only the log, under that id,
 * holds what went wrong.
 */
export function createErrorHandler(logger: Logger) {
  return (error: Error, c: Context): Response => {
    if (isSvcError(error)) {
      const status = statusForCode(error.code);
      if (error instanceof HttpError) for (const [name, value] of Object.entries(error.headers)) c.header(name, value);
      if (status < 500) return failure(c, status, error.code, error.message, error.details);
      const correlationId = randomUUID();
      logger.error('request failed', {
        correlationId,
        code: error.code,
        method: c.req.method,
        path: c.req.path,
        error: error.message,
      });
      c.header('X-Correlation-Id', correlationId);
      return failure(c, status, error.code, error.message, {
        ...(isObject(error.details) ? error.details : {}),
        correlationId,
      });
    }
    if (error instanceof HTTPException && error.status < 500) {
      // Raised by hono's own middleware; its message is about the request, not our internals.
      return failure(
        c,
        error.status >= 400 ? (error.status as ContentfulStatusCode) : 500,
        CODE_OF_STATUS[error.status] ?? 'BAD_REQUEST',
        error.message || 'the request cannot be handled',
      );
    }
    const correlationId = randomUUID();
    logger.error('unexpected error', {
      correlationId,
      method: c.req.method,
      path: c.req.path,
      error: error.stack ?? String(error),
    });
    c.header('X-Correlation-Id', correlationId);
    return failure(
      c,
      500,
      'INTERNAL_ERROR',
      `an unexpected error occurred; quote correlation id ${correlationId} when reporting it`,
      { correlationId },
    );
  };
}

const CODE_OF_STATUS: Record<number, ErrorCode> = {
  401: 'UNAUTHORIZED',
  404: 'NOT_FOUND',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
};

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
