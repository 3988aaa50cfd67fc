import { performance } from 'node:perf_hooks';
import { Agent, type Dispatcher } from 'undici';
import { SvcError } from '../errors.js';
import { egressConnector } from './egress-connector.js';
import { createEgressPolicy, type EgressPolicy } from './egress-policy.js';
import type { HttpClient, HttpRequest, HttpResponse } from './types.js';
import { onAbort } from './abort-listeners.js';
import { createDeadlines, type Deadlines } from './deadlines.js';
import { toHttpError } from './http-errors.js';
import { flattenHeaders } from './flatten-headers.js';
import { splitHttpUrl, type HttpTarget } from './parse-http-url.js';

export interface UndiciHttpClientOptions {
  /** Most sockets kept open to one origin; unset means no limit (undici's default). */
  connectionsPerOrigin?: number;
  /** How long an idle socket stays open for reuse. Default 4 s, under most servers' own limit. */
  keepAliveTimeoutMs?: number;
  /**
   * Where requests may go, checked in the connect step on the address connected to. Unset:
   * the `service` policy without rules (no loopback, private, link-local or metadata address).
   */
  egress?: EgressPolicy;
  /** Resolves host names; tests pass one to make a name resolve where they want. */
  lookup?: typeof import('node:dns').lookup;
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
  const egress = options.egress ?? createEgressPolicy({ mode: 'service' });
  const agent = new Agent({
    connect: egressConnector(egress, options.lookup === undefined ? {} : { resolve: options.lookup }),
    keepAliveTimeout,
    // A server's `Keep-Alive: timeout=…` hint may lengthen the idle time, but never past this.
    keepAliveMaxTimeout: Math.max(keepAliveTimeout, 60_000),
    ...(options.connectionsPerOrigin === undefined ? {} : { connections: options.connectionsPerOrigin }),
  });

  const deadlines = createDeadlines();
  return {
    send: (httpRequest) => send(agent, deadlines, httpRequest),
    close: () => agent.close(),
  };
}

/**
 * Sends through undici's dispatch API with a handler that collects the body itself: no stream,
 * no async iterator and no AbortController per request, which is most of what a request costs
 * the caller besides the socket. One deadline (on the client's shared timer) covers the whole
 * exchange; the caller's signal aborts through the same path.
 */
function send(agent: Agent, deadlines: Deadlines, httpRequest: HttpRequest): Promise<HttpResponse> {
  const { method, url, timeoutMs } = httpRequest;
  let target: HttpTarget;
  try {
    target = splitHttpUrl(url, method);
  } catch (error) {
    return Promise.reject(error);
  }
  const maxBodyBytes = httpRequest.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const callerSignal = httpRequest.signal;

  return new Promise<HttpResponse>((resolve, reject) => {
    let controller: Dispatcher.DispatchController | undefined;
    let status = 0;
    let headers: Record<string, string> = {};
    const chunks: Uint8Array[] = [];
    let size = 0;
    let truncated = false;
    let timedOut = false;
    let settled = false;
    const started = performance.now();

    let stopListening: (() => void) | undefined;
    const settle = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      deadline.cancel();
      stopListening?.();
      outcome();
    };
    const succeed = () =>
      settle(() =>
        resolve({
          status,
          headers,
          body: chunks.length === 1 ? chunks[0]! : concat(chunks, size),
          truncated,
          latencyMs: performance.now() - started,
        }),
      );
    const fail = (error: unknown) =>
      settle(() => {
        if (timedOut)
          reject(new SvcError('TIMEOUT', `${method} ${url} timed out after ${timeoutMs} ms`, { retryable: true }));
        else if (callerSignal?.aborted)
          reject(new SvcError('CANCELLED', `${method} ${url} was cancelled`, { cause: callerSignal.reason }));
        else reject(toHttpError(error, method, url));
      });
    const abort = (reason: Error) => {
      // Before the request is handed a socket there is no controller yet: onRequestStart aborts.
      if (controller && !controller.aborted) controller.abort(reason);
    };
    const deadline = deadlines.add(timeoutMs, () => {
      timedOut = true;
      abort(new Error('deadline passed'));
      fail(undefined);
    });
    const onCallerAbort = () => {
      abort(new Error('cancelled'));
      fail(undefined);
    };
    if (callerSignal?.aborted) {
      onCallerAbort();
      return;
    }
    if (callerSignal !== undefined) stopListening = onAbort(callerSignal, onCallerAbort);

    try {
      agent.dispatch(
        {
          origin: target.origin,
          path: target.path,
          method,
          headers: httpRequest.headers,
          body: httpRequest.body ?? null,
          // The deadline above covers the whole exchange; undici's own per-phase timers would
          // only fire later and with a less useful error.
          headersTimeout: 0,
          bodyTimeout: 0,
        },
        {
          onRequestStart(started) {
            controller = started;
            if (settled) started.abort(new Error('already settled'));
          },
          onResponseStart(_controller, statusCode, responseHeaders) {
            status = statusCode;
            headers = flattenHeaders(responseHeaders);
          },
          onResponseData(current, chunk) {
            if (truncated) return;
            const room = maxBodyBytes - size;
            if (chunk.byteLength > room) {
              if (room > 0) {
                chunks.push(chunk.subarray(0, room));
                size += room;
              }
              truncated = true;
              // The rest is never read: the socket is closed rather than drained.
              current.abort(new Error('body limit reached'));
              succeed();
              return;
            }
            chunks.push(chunk);
            size += chunk.byteLength;
          },
          onResponseEnd() {
            succeed();
          },
          onResponseError(_controller, error) {
            if (truncated) succeed();
            else fail(error);
          },
        },
      );
    } catch (error) {
      fail(error);
    }
  });
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
