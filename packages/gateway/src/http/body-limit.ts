import type { Context, MiddlewareHandler } from 'hono';
import { bodyLimit as streamingBodyLimit } from 'hono/body-limit';
import { nodeRequestOf } from './raw-request.js';

export interface BodyLimitOptions {
  /** Largest body accepted, in bytes. */
  maxSize: number;
  /** Answers (or throws) for a body over the limit. */
  onError: (c: Context) => Response | Promise<Response>;
}

/**
 * Refuses a body over `maxSize` before it is read. A request that declares its length is judged
 * by `Content-Length` alone (Node's parser never delivers more than it declares), without
 * touching the body: on `svc serve`, reading `c.req.raw.body` turns the Node request into a web
 * Request with a stream, which costs more than a small webhook does, and the headers are Node's. A body without a declared
 * length (chunked) is counted as it streams in, and refused once past the limit.
 */
export function bodyLimit(options: BodyLimitOptions): MiddlewareHandler {
  const streamed = streamingBodyLimit(options);
  return async (c, next) => {
    const method = c.req.method;
    if (method === 'GET' || method === 'HEAD') return next();
    // Node's own parsed headers where there are some: `c.req.header` would build a web Headers.
    const headers = nodeRequestOf(c)?.headers;
    const length = headers ? headers['content-length'] : c.req.header('content-length');
    const chunked = headers
      ? headers['transfer-encoding'] !== undefined
      : c.req.header('transfer-encoding') !== undefined;
    if (length !== undefined && !chunked) {
      return Number.parseInt(length, 10) > options.maxSize ? options.onError(c) : next();
    }
    return streamed(c, next);
  };
}
