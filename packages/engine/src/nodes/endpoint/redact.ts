import type { Redactor } from '../../redaction.js';

/** Headers whose values are credentials: never traced, whatever the secret list says. */
export const CREDENTIAL_HEADERS: ReadonlySet<string> = new Set([
  'authorization',
  'proxy-authorization',
  'cookie',
  'set-cookie',
  'x-api-key',
]);

const MASK = '***';

/** Keeps an auth scheme (`Bearer ***`) so a reader still sees which kind of credential was sent. */
function maskCredential(value: string): string {
  const scheme = /^([A-Za-z][A-Za-z0-9._-]*)\s+\S/.exec(value);
  return scheme ? `${scheme[1]} ${MASK}` : MASK;
}

/** A copy of `headers` fit for a trace: credential headers masked, every value through `redact`. */
export function redactHeaders(headers: Record<string, string>, redact: Redactor): Record<string, string> {
  // The common case, nothing to mask or redact, shares the headers instead of copying them.
  if (redact.redactsNothing && !Object.keys(headers).some((name) => CREDENTIAL_HEADERS.has(name.toLowerCase())))
    return headers;
  const result: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    result[name] = CREDENTIAL_HEADERS.has(name.toLowerCase()) ? maskCredential(value) : redact(value);
  }
  return result;
}
