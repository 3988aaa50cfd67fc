import { performance } from 'node:perf_hooks';
import { Agent, request } from 'undici';
import { SvcError } from '../errors.js';
import type { HttpClient, HttpRequest, HttpResponse } from './types.js';
import { toHttpError } from './http-errors.js';
import { flattenHeaders } from './flatten-headers.js';

export interface UndiciHttpClientOptions {
  /** Most sockets kept open to one origin; unset means no limit (undici's default). */
  connectionsPerOrigin?: number;
  /** How long an idle socket stays open for reuse. Default 4 s, under most servers' own limit. */
  keepAliveTimeoutMs?: number;
}

export const DEFAULT_MAX_BODY_BYTES = 10 * 1024 * 1024;

/**
 * An `HttpClient` on one undici `Agent`, so that requests to the same origin reuse sockets.
 * @example
 * const http = createUndiciHttpClient({ connectionsPerOrigin: 32 });
 * const response = await http.send({ method: 'GET', url: 'http://127.0.0.1:4010/health', headers: {}, timeoutMs: 5_000 });
 * await http.close();
 */
export function createUndiciHttpClient(options: UndiciHttpClientOptions = {}): HttpClient {
  const keepAliveTimeout = options.keepAliveTimeoutMs ?? 4_000;
  const agent = new Agent({
    keepAliveTimeout,
    // A server's `Keep-Alive: timeout=…` hint may lengthen the idle time, but never past this.
    keepAliveMaxTimeout: Math.max(keepAliveTimeout, 60_000),
    ...(options.connectionsPerOrigin === undefined ? {} : { connections: options.connectionsPerOrigin }),
  });

  return {
    send: (httpRequest) => send(agent, httpRequest),
    close: () => agent.close(),
  };
}

async function send(agent: Agent, httpRequest: HttpRequest): Promise<HttpResponse> {
  const { method, url, timeoutMs } = httpRequest;
  const target = parseHttpUrl(url, method);
  const maxBodyBytes = httpRequest.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;

  // One controller carries both the deadline and the caller's cancellation, so undici sees a
  // single signal; which of the two fired is remembered to pick the error code.
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, timeoutMs);
  const callerSignal = httpRequest.signal;
  const onCallerAbort = () => controller.abort();
  if (callerSignal?.aborted) controller.abort();
  else callerSignal?.addEventListener('abort', onCallerAbort, { once: true });

  const started = performance.now();
  try {
    const response = await request(target, {
      dispatcher: agent,
      method,
      headers: httpRequest.headers,
      body: httpRequest.body,
      signal: controller.signal,
      // The deadline above covers the whole exchange; undici's own per-phase timers would only
      // fire later and with a less useful error.
      headersTimeout: 0,
      bodyTimeout: 0,
    });
    const { bytes, truncated } = await readBody(response.body, maxBodyBytes);
    return {
      status: response.statusCode,
      headers: flattenHeaders(response.headers),
      body: bytes,
      truncated,
      latencyMs: performance.now() - started,
    };
  } catch (error) {
    if (timedOut) {
      throw new SvcError('TIMEOUT', `${method} ${url} timed out after ${timeoutMs} ms`, { retryable: true });
    }
    if (callerSignal?.aborted) {
      throw new SvcError('CANCELLED', `${method} ${url} was cancelled`, { cause: callerSignal.reason });
    }
    throw toHttpError(error, method, url);
  } finally {
    clearTimeout(timer);
    callerSignal?.removeEventListener('abort', onCallerAbort);
  }
}

function parseHttpUrl(url: string, method: string): URL {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch (error) {
    throw new SvcError('INVALID_URL', `${method} ${url}: not a valid URL`, { cause: error });
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new SvcError('INVALID_URL', `${method} ${url}: only http and https URLs can be requested`);
  }
  return parsed;
}

async function readBody(
  body: AsyncIterable<Uint8Array> & { destroy(): unknown },
  maxBodyBytes: number,
): Promise<{ bytes: Uint8Array; truncated: boolean }> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  let truncated = false;
  for await (const chunk of body) {
    const room = maxBodyBytes - size;
    if (chunk.byteLength > room) {
      if (room > 0) {
        chunks.push(chunk.subarray(0, room));
        size += room;
      }
      truncated = true;
      // Leaving the loop ends the iteration, which destroys the stream: the rest is never read
      // and the socket is closed rather than drained.
      break;
    }
    chunks.push(chunk);
    size += chunk.byteLength;
  }
  if (truncated) body.destroy();
  if (chunks.length === 1) return { bytes: chunks[0]!, truncated };
  return { bytes: concat(chunks, size), truncated };
}

function concat(chunks: Uint8Array[], size: number): Uint8Array {
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}
