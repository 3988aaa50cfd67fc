import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';

/** The spec's envelope: `{ success: true, data }` and `{ success: false, error: { code, message } }`. */
export type Envelope<T> =
  { success: true; data: T } | { success: false; error: { code: string; message: string; details?: unknown } };

export function success<T>(c: Context, data: T, status: ContentfulStatusCode = 200): Response {
  return c.json({ success: true, data } satisfies Envelope<T>, status);
}

export function failure(
  c: Context,
  status: ContentfulStatusCode,
  code: string,
  message: string,
  details?: unknown,
): Response {
  const error = details === undefined ? { code, message } : { code, message, details };
  return c.json({ success: false, error } satisfies Envelope<never>, status);
}
