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
 * Replaces every secret value of the environment in a string by `***`. Short values (under 4
 * characters) are left alone: replacing "1" everywhere would ruin traces and hide nothing.
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
    .sort((a, b) => b.length - a.length);
  if (secrets.length === 0) return redactNothing;
  return (text) => {
    let result = text;
    for (const secret of secrets) if (result.includes(secret)) result = result.split(secret).join(REDACTED);
    return result;
  };
}

/** A deep copy of a JSON value with secrets redacted from every string (the value itself when there are no secrets). */
export function redactDeep(value: unknown, redact: Redactor): unknown {
  if (redact.redactsNothing) return value;
  // Without recursion: a response body may nest deeper than the call stack goes.
  return mapStringsOnly(value, redact);
}
