/** A JSON answer's body, read loosely: tests index into it freely. */
export type Json = Record<string, any>;

/** What a test reads of an answer. */
export interface ApiAnswer {
  status: number;
  headers: Headers;
  json: Json;
  /** The body as it came, to check what it does not contain. */
  text: string;
}

/** The part of the Hono app a test calls: `app.request`, the real door without a socket. */
interface Requestable {
  request(path: string, init: RequestInit): Response | Promise<Response>;
}

/**
 * `call(method, path, { body, key })` through `app().request`, with `key` (default `defaultKey`)
 * as the API key and `body` sent as JSON. The app is named by a function because tests make it
 * in `beforeAll`, after the caller is made.
 *
 * @example
 * const call = apiCaller(() => app);
 * const created = await call('POST', '/api/gateway/flows', { body: document });
 */
export function apiCaller(
  app: () => Requestable,
  defaultKey = 'key-a',
): (method: string, path: string, options?: { body?: unknown; key?: string }) => Promise<ApiAnswer> {
  return async (method, path, options = {}) => {
    const headers: Record<string, string> = { 'X-API-Key': options.key ?? defaultKey };
    if (options.body !== undefined) headers['Content-Type'] = 'application/json';
    const response = await app().request(path, {
      method,
      headers,
      ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
    });
    const text = await response.text();
    return { status: response.status, headers: response.headers, json: JSON.parse(text) as Json, text };
  };
}

/** A raw JSON body POSTed to a webhook door as a sender sends it (no credentials of svc), with its answer. */
export async function postWebhook(
  app: Requestable,
  path: string,
  body: string,
  headers: Record<string, string>,
): Promise<{ status: number; json: Json }> {
  const response = await app.request(path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body,
  });
  return { status: response.status, json: (await response.json()) as Json };
}
