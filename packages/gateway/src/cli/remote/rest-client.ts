import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { ERROR_CODES, SvcError, type ErrorCode } from '@svc/engine';
import { printable } from '../suite-report/printable.js';

export interface RestClientOptions {
  /** The service's base address, e.g. `https://svc.example.com` (`--api-url`, `SVC_API_URL`). */
  baseUrl: string;
  /** Sent as `X-API-Key` (`SVC_API_KEY`). */
  apiKey?: string;
  /** How long one call may take unless it says otherwise (default 30 s). */
  timeoutMs?: number;
  /** The most of an answer read (default `MAX_ANSWER_BYTES`). */
  maxAnswerBytes?: number;
}

export interface CallOptions {
  query?: Record<string, string | number | boolean | undefined>;
  body?: unknown;
  /** This call's limit; 0 for none (a suite run is answered when its last flow ended). */
  timeoutMs?: number;
}

export interface RestClient {
  /** The base address, without a trailing slash. */
  readonly origin: string;
  call<T>(method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, options?: CallOptions): Promise<T>;
}

export const DEFAULT_CALL_TIMEOUT_MS = 30_000;
/** The most of an answer read: a page of executions or a suite's result is far less; a runaway answer is cut. */
export const MAX_ANSWER_BYTES = 64 * 1024 * 1024;

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The svc REST API for the command line's remote mode: node:http(s), not fetch, so that a call may
 * wait as long as a suite runs (fetch gives up on an answer's headers after 5 minutes), and
 * redirects are not followed (the API key goes to the address given and nowhere else). Every
 * answer is the envelope `{ success, data | error }`; an error becomes `SvcError(code, message)` as
 * the gateway named it, so a command reports `svc: FLOW_NOT_FOUND: …` in both modes. A service
 * that cannot be reached is `SERVICE_UNREACHABLE`, one that does not answer in time
 * `SERVICE_TIMEOUT`, an answer that is not the envelope `INVALID_RESPONSE`.
 * @example
 * const client = createRestClient({ baseUrl: 'https://svc.example.com', apiKey: process.env.SVC_API_KEY });
 * const page = await client.call<{ items: unknown[] }>('GET', '/api/gateway/flows', { query: { limit: 50 } });
 */
export function createRestClient(options: RestClientOptions): RestClient {
  let base: URL;
  try {
    base = new URL(options.baseUrl);
  } catch {
    throw new SvcError(
      'CONFIG_ERROR',
      `the API address "${options.baseUrl}" is not a URL, e.g. https://svc.example.com`,
    );
  }
  if (base.protocol !== 'http:' && base.protocol !== 'https:')
    throw new SvcError('CONFIG_ERROR', `the API address "${options.baseUrl}" must be an http or https address`);
  if (base.username !== '' || base.password !== '')
    throw new SvcError(
      'CONFIG_ERROR',
      'the API address must not hold credentials; give the API key in SVC_API_KEY (it is sent as X-API-Key)',
    );
  const origin = `${base.origin}${base.pathname}`.replace(/\/+$/, '');
  const defaultTimeout = options.timeoutMs ?? DEFAULT_CALL_TIMEOUT_MS;
  const maxAnswerBytes = options.maxAnswerBytes ?? MAX_ANSWER_BYTES;

  function send(
    method: string,
    url: URL,
    body: string | undefined,
    timeoutMs: number,
  ): Promise<{ status: number; text: string }> {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (options.apiKey) headers['x-api-key'] = options.apiKey;
    if (body !== undefined) {
      headers['content-type'] = 'application/json';
      headers['content-length'] = String(Buffer.byteLength(body));
    }
    const what = `${method} ${url.pathname}`;
    return new Promise((resolve, reject) => {
      const request = (url.protocol === 'https:' ? httpsRequest : httpRequest)(url, { method, headers });
      const timer =
        timeoutMs > 0
          ? setTimeout(() => {
              request.destroy(
                new SvcError(
                  'SERVICE_TIMEOUT',
                  `the svc API at ${origin} did not answer ${what} within ${timeoutMs / 1000} s`,
                  { retryable: true },
                ),
              );
            }, timeoutMs)
          : undefined;
      request.on('error', (error: Error & { code?: string }) => {
        clearTimeout(timer);
        reject(
          error instanceof SvcError
            ? error
            : new SvcError(
                'SERVICE_UNREACHABLE',
                `cannot reach the svc API at ${origin} (${error.code ?? error.message}); check --api-url or SVC_API_URL and that svc serve runs there`,
                { retryable: true, cause: error },
              ),
        );
      });
      request.on('response', (response: IncomingMessage) => {
        const chunks: Buffer[] = [];
        let size = 0;
        response.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > maxAnswerBytes) {
            request.destroy(
              new SvcError('INVALID_RESPONSE', `the svc API answered ${what} with more than ${maxAnswerBytes} bytes`),
            );
            return;
          }
          chunks.push(chunk);
        });
        response.on('end', () => {
          clearTimeout(timer);
          resolve({ status: response.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') });
        });
        response.on('error', (error) => {
          clearTimeout(timer);
          reject(error);
        });
      });
      request.end(body);
    });
  }

  return {
    origin,
    async call<T>(method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, callOptions: CallOptions = {}) {
      const url = new URL(`${origin}${path}`);
      for (const [name, value] of Object.entries(callOptions.query ?? {})) {
        if (value !== undefined) url.searchParams.set(name, String(value));
      }
      const body = callOptions.body === undefined ? undefined : JSON.stringify(callOptions.body);
      const { status, text } = await send(method, url, body, callOptions.timeoutMs ?? defaultTimeout);
      const what = `${method} ${url.pathname}`;
      let envelope: unknown;
      try {
        envelope = JSON.parse(text);
      } catch {
        envelope = undefined;
      }
      if (!isObject(envelope) || typeof envelope.success !== 'boolean') {
        // A proxy's error page, or not svc at all: say what came back, briefly, on one line, and
        // with no control character to play with the terminal.
        const shown = printable(text.slice(0, 400), 200);
        throw new SvcError(
          'INVALID_RESPONSE',
          `the svc API at ${origin} answered ${what} with HTTP ${status} and no svc envelope: ${shown || '(empty body)'}`,
          { retryable: status >= 500 },
        );
      }
      if (envelope.success) return envelope.data as T;
      const error = isObject(envelope.error) ? envelope.error : {};
      const message =
        typeof error.message === 'string' ? printable(error.message, 2000) : `${what} failed with HTTP ${status}`;
      // A code this build does not know (a newer service's) stays readable in the message.
      const known = (ERROR_CODES as readonly unknown[]).includes(error.code);
      throw new SvcError(
        known ? (error.code as ErrorCode) : 'UNKNOWN_ERROR',
        known || typeof error.code !== 'string' ? message : `${error.code}: ${message}`,
        {
          retryable: status === 429 || status >= 500,
          ...(error.details === undefined ? {} : { details: error.details }),
        },
      );
    },
  };
}
