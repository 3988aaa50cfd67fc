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
