import { mapStringsOnly } from './model/walk-strings.js';

/** Environment variable names whose values are treated as secret unless told otherwise. */
const SECRET_NAME_PATTERN = /(secret|token|password|passwd|api[-_]?key|apikey|private|credential|auth)/i;

export const REDACTED = '***';

export function secretKeysOf(env: Record<string, unknown>, explicit: readonly string[] = []): string[] {
  return [...new Set([...explicit, ...Object.keys(env).filter((key) => SECRET_NAME_PATTERN.test(key))])];
}

/**
 * The environment as sandboxed JavaScript sees it: every key kept, the value of each secret key
 * replaced by `***` whatever its length. Code can take a value apart (`split("")`) past any
 * redactor of its output, so secrets are never handed to it; templates read the real values.
 * `secretKeys` is whatever the execution treats as secret (names that look secret, keys the caller
 * named, stored secrets).
 */
export function maskSecrets(env: Record<string, unknown>, secretKeys: readonly string[]): Record<string, unknown> {
  if (!secretKeys.some((key) => Object.hasOwn(env, key))) return env;
  const masked: Record<string, unknown> = { ...env };
  for (const key of secretKeys) if (Object.hasOwn(env, key)) masked[key] = REDACTED;
  return masked;
}

/**
 * Replaces every secret value of the environment in a string by `***`, as it is and in the forms
 * a request or an echoed response carries it: percent-encoded (a query string or a form body,
 * `%20` or `+` for a space, upper- or lowercase hex) and escaped inside a JSON string, whole or
 * cut short before a `…`. Short values (under 4 characters) are left alone: replacing "1"
 * everywhere would ruin traces and hide nothing.
 */
export type Redactor = ((text: string) => string) & { readonly redactsNothing?: boolean };

const redactNothing: Redactor = Object.assign((text: string) => text, { redactsNothing: true });

export function createRedactor(env: Record<string, unknown>, secretKeys: readonly string[]): Redactor {
  const secrets = secretKeys
    .map((key) => env[key])
    .filter(
      (value): value is string | number =>
        (typeof value === 'string' || typeof value === 'number') && String(value).length >= 4,
    )
    .map(String)
    .flatMap(encodedForms)
    .sort((a, b) => b.length - a.length);
  if (secrets.length === 0) return redactNothing;
  return (text) => {
    let result = text;
    for (const secret of secrets) if (result.includes(secret)) result = result.split(secret).join(REDACTED);
    return result.includes(CUT) ? redactCutSecrets(result, secrets) : result;
  };
}

/** What every value shown shortened ends with (messages, traced bodies): `…` where it was cut. */
const CUT = '…';

/**
 * A value shown shortened may have been cut in the middle of a secret, leaving its first
 * characters before the `…`, which no whole form matches: those are replaced too, from 4
 * characters on (as whole secrets are).
 */
function redactCutSecrets(text: string, secrets: readonly string[]): string {
  let result = text;
  for (let at = result.indexOf(CUT); at >= 0; at = result.indexOf(CUT, at + 1)) {
    let longest = 0;
    for (const secret of secrets) {
      for (let length = Math.min(secret.length - 1, at); length > longest && length >= 4; length -= 1) {
        if (result.startsWith(secret.slice(0, length), at - length)) {
          longest = length;
          break;
        }
      }
    }
    if (longest > 0) {
      result = `${result.slice(0, at - longest)}${REDACTED}${result.slice(at)}`;
      at += REDACTED.length - longest;
    }
  }
  return result;
}

/**
 * A secret and the distinct forms it takes once encoded: by `encodeURIComponent` (upper- and
 * lowercase hex), as a form field (`URLSearchParams`, a space as `+`), as a URL's parser leaves
 * it in a query or a path when a template put it there raw, and escaped inside a JSON string.
 */
function encodedForms(secret: string): string[] {
  const component = percentEncoded(secret);
  const forms = new Set([
    secret,
    component,
    component.replace(/%[0-9A-F]{2}/g, (escape) => escape.toLowerCase()),
    new URLSearchParams({ s: secret }).toString().slice(2),
    new URL(`http://h/?${secret}`).search.slice(1),
    JSON.stringify(secret).slice(1, -1),
  ]);
  // A path ends at `?` or `#`: only a secret without them keeps one form there.
  if (!/[?#]/.test(secret)) forms.add(new URL(`http://h/${secret}`).pathname.slice(1));
  return [...forms].filter((form) => form.length >= 4);
}

/** `encodeURIComponent`, or the value itself for a lone surrogate (no UTF-8 form: it throws there). */
function percentEncoded(value: string): string {
  try {
    return encodeURIComponent(value);
  } catch {
    return value;
  }
}

/** A deep copy of a JSON value with secrets redacted from every string (the value itself when there are no secrets). */
export function redactDeep(value: unknown, redact: Redactor): unknown {
  if (redact.redactsNothing) return value;
  // Without recursion: a response body may nest deeper than the call stack goes.
  return mapStringsOnly(value, redact);
}
