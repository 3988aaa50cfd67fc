import { assertJsonDepth, SvcError } from '@svc/engine';
import type { Context } from 'hono';

/** `application/json` and the `+json` types (`application/merge-patch+json`, …). */
const JSON_TYPE = /^application\/([\w.-]+\+)?json\s*(;|$)/i;

/**
 * The request body as JSON. No body at all is `undefined` (the run endpoint's body is optional);
 * a body in another media type is 415, text that is not JSON is 400 `MALFORMED_JSON`, and JSON
 * nested deeper than `MAX_JSON_DEPTH` (64) is 400 `VALIDATION_ERROR` with the path.
 * The size limit is applied before this, by the app's body-limit middleware.
 */
export async function readJsonBody(c: Context): Promise<unknown> {
  const text = await c.req.text();
  if (text.length === 0) return undefined;
  const type = c.req.header('content-type') ?? '';
  if (!JSON_TYPE.test(type)) {
    throw new SvcError(
      'UNSUPPORTED_MEDIA_TYPE',
      `the body must be JSON (Content-Type: application/json), not ${type ? `"${type}"` : 'untyped'}`,
    );
  }
  let body: unknown;
  try {
    body = JSON.parse(text) as unknown;
  } catch (error) {
    throw new SvcError('MALFORMED_JSON', `the body is not valid JSON: ${(error as Error).message}`);
  }
  // Everything after this walks the body; a body nested past the limit stops here, with its path.
  assertJsonDepth(body, 'body');
  return body;
}
