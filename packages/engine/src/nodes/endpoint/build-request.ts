import { SvcError } from '../../errors.js';
import type { HttpRequest } from '../../http/types.js';
import { parseHttpUrl, splitHttpUrl } from '../../http/parse-http-url.js';

export const USER_AGENT = 'svc/0.1';

/** Methods that change state, and so are offered an `Idempotency-Key`. */
const UNSAFE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const BODILESS_METHODS = new Set(['GET', 'HEAD']);

/** The endpoint config after its templates are resolved. */
export interface RequestSpec {
  method: string;
  url: string;
  query: Record<string, unknown>;
  headers: Record<string, unknown>;
  body: unknown;
  bodyType: 'json' | 'text' | 'form';
  timeoutMs: number;
  /** Offered as `Idempotency-Key` on unsafe methods; absent when the config turned it off. */
  idempotencyKey?: string;
  maxBodyBytes: number;
  signal?: AbortSignal;
}

/** A value as it goes into a URL, header or form field. */
function stringify(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'object' && value !== null) return JSON.stringify(value);
  return String(value);
}

/** `key=value` pairs; an array repeats its key, null and undefined leave the key out. */
function pairs(record: Record<string, unknown>): [string, string][] {
  const result: [string, string][] = [];
  for (const [key, value] of Object.entries(record)) {
    const values = Array.isArray(value) ? value : [value];
    for (const element of values) {
      if (element !== null && element !== undefined) result.push([key, stringify(element)]);
    }
  }
  return result;
}

/**
 * A `.` or `..` segment in a URL's path (written `%2e`, or after a `\`, as URL parsers read them
 * too) moves the request to another path once the URL is parsed: a value put into the path, a
 * webhook's `"../../admin/users/42"`, would send the flow's request and its credentials to an
 * endpoint it never names. No API's path needs one, so such a URL is refused, not resolved.
 */
function assertNoDotSegments(url: string, method: string): void {
  // Every dot segment starts right after a separator: most URLs are let through here.
  if (!/[/\\](?:\.|%2e)/i.test(url)) return;
  const afterScheme = url.indexOf('//');
  if (afterScheme < 0) return;
  const pathStart = url.slice(afterScheme + 2).search(/[/\\?#]/);
  if (pathStart < 0) return;
  const path = url.slice(afterScheme + 2 + pathStart).split(/[?#]/, 1)[0]!;
  for (const segment of path.split(/[/\\]/)) {
    const decoded = segment.replace(/%2e/gi, '.');
    if (decoded === '.' || decoded === '..') {
      throw new SvcError(
        'INVALID_URL',
        `${method} ${url}: the path holds a "${decoded}" segment, which would send the request to another path (a value put into the URL?)`,
      );
    }
  }
}

/**
 * Adds `query` to the URL after any query string it already has. The existing query string is
 * kept byte for byte: re-serialising it could change how a server reads it (`%20` vs `+`).
 */
export function buildUrl(url: string, query: Record<string, unknown>, method: string): string {
  assertNoDotSegments(url, method);
  const added = pairs(query);
  // A fragment is never sent to a server: the split URL has none.
  if (added.length === 0) return splitHttpUrl(url, method).href;
  const parsed = parseHttpUrl(url, method);
  parsed.hash = '';
  const extra = new URLSearchParams(added).toString();
  parsed.search = parsed.search.length > 1 ? `${parsed.search}&${extra}` : extra;
  return parsed.href;
}

function encodeBody(body: unknown, bodyType: RequestSpec['bodyType']): { text: string; contentType: string } {
  switch (bodyType) {
    case 'json':
      // A string is taken as JSON text the user wrote out; encoding it again would send a quoted string.
      return { text: typeof body === 'string' ? body : JSON.stringify(body), contentType: 'application/json' };
    case 'text':
      return { text: stringify(body), contentType: 'text/plain; charset=utf-8' };
    case 'form':
      return {
        text:
          typeof body === 'object' && body !== null
            ? new URLSearchParams(pairs(body as Record<string, unknown>)).toString()
            : stringify(body),
        contentType: 'application/x-www-form-urlencoded',
      };
  }
}

/**
 * The HTTP request an endpoint node sends. Header names are lower-cased so that a user's
 * `Content-Type` and the default `content-type` cannot both go out.
 * @returns the request and the body text that was sent (undefined when none was).
 */
export function buildRequest(spec: RequestSpec): { request: HttpRequest; sentBody: string | undefined } {
  const method = spec.method.toUpperCase();
  const url = buildUrl(spec.url, spec.query, method);
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(spec.headers)) {
    if (value !== null && value !== undefined) headers[name.toLowerCase()] = stringify(value);
  }

  let sentBody: string | undefined;
  if (!BODILESS_METHODS.has(method) && spec.body !== undefined && spec.body !== null) {
    const encoded = encodeBody(spec.body, spec.bodyType);
    sentBody = encoded.text;
    headers['content-type'] ??= encoded.contentType;
  }
  if (spec.idempotencyKey !== undefined && UNSAFE_METHODS.has(method))
    headers['idempotency-key'] ??= spec.idempotencyKey;
  headers['user-agent'] ??= USER_AGENT;

  const request: HttpRequest = { method, url, headers, timeoutMs: spec.timeoutMs, maxBodyBytes: spec.maxBodyBytes };
  if (sentBody !== undefined) request.body = sentBody;
  if (spec.signal !== undefined) request.signal = spec.signal;
  return { request, sentBody };
}
