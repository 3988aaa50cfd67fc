import type { IncomingHttpHeaders } from 'node:http';

/**
 * Response headers as one string per lower-case name. Repeated headers are joined with ", "
 * (RFC 9110 §5.3), except `set-cookie`, whose values may themselves hold commas (`Expires=`),
 * so they are joined with "\n".
 */
export function flattenHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const name of Object.keys(headers)) {
    const value = headers[name];
    if (value === undefined) continue;
    const key = name.toLowerCase();
    const joined = Array.isArray(value) ? value.join(key === 'set-cookie' ? '\n' : ', ') : value;
    const previous = flat[key];
    flat[key] = previous === undefined ? joined : `${previous}${key === 'set-cookie' ? '\n' : ', '}${joined}`;
  }
  return flat;
}
