import { SvcError } from '../errors.js';

/** Parses a URL that may be requested: absolute, http or https. Anything else is `INVALID_URL`. */
export function parseHttpUrl(url: string, method: string): URL {
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

/** A URL that may be requested, as a request line needs it. */
export interface HttpTarget {
  /** The whole URL, normalised, without its fragment. */
  readonly href: string;
  readonly origin: string;
  /** Path and query string. */
  readonly path: string;
}

/**
 * The URL split last, by the text it was given: an endpoint step splits its URL to build the
 * request, then the client splits the same text to send it.
 */
let last: { url: string; target: HttpTarget } | undefined;

/**
 * `parseHttpUrl`, answered as plain strings, and once for the same text asked twice in a row.
 * @example
 * splitHttpUrl('http://127.0.0.1:4010/orders?x=1#top', 'GET')
 * // { href: 'http://127.0.0.1:4010/orders?x=1', origin: 'http://127.0.0.1:4010', path: '/orders?x=1' }
 */
export function splitHttpUrl(url: string, method: string): HttpTarget {
  if (last?.url === url) return last.target;
  const parsed = parseHttpUrl(url, method);
  if (url.includes('#')) parsed.hash = '';
  const target: HttpTarget = { href: parsed.href, origin: parsed.origin, path: `${parsed.pathname}${parsed.search}` };
  last = { url, target };
  return target;
}
