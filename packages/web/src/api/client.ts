/** What the API answered when it did not succeed: the envelope's code, message and details. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
  }
}

/** How the page proves who it is: a bearer token from /oauth/token, or an API key. */
export type Credential = { kind: 'token'; accessToken: string } | { kind: 'apiKey'; key: string };

export interface ApiClient {
  get<T>(path: string): Promise<T>;
  send<T>(
    method: 'POST' | 'PUT' | 'DELETE',
    path: string,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<T>;
}

/**
 * Calls `/api/…` with a credential and unwraps the envelope: `data` on success, an `ApiError`
 * otherwise. A 401 also tells `onUnauthorized`, so the page can ask to sign in again.
 */
export function createApiClient(credential: Credential, onUnauthorized: () => void): ApiClient {
  const authHeaders: Record<string, string> =
    credential.kind === 'token'
      ? { Authorization: `Bearer ${credential.accessToken}` }
      : { 'X-API-Key': credential.key };

  async function call<T>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
    const response = await fetch(path, {
      method,
      headers: { ...authHeaders, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }), ...headers },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const envelope = (await response.json().catch(() => null)) as
      | { success: true; data: T }
      | { success: false; error: { code: string; message: string; details?: unknown } }
      | null;
    if (response.status === 401) onUnauthorized();
    if (envelope === null)
      throw new ApiError(response.status, 'BAD_RESPONSE', `the server answered ${response.status}`);
    if (!envelope.success) {
      throw new ApiError(response.status, envelope.error.code, envelope.error.message, envelope.error.details);
    }
    return envelope.data;
  }

  return {
    get: (path) => call('GET', path),
    send: (method, path, body, headers) => call(method, path, body, headers),
  };
}

/** Exchanges a client id and secret for an access token (OAuth2 client credentials). */
export async function requestAccessToken(clientId: string, clientSecret: string): Promise<string> {
  const response = await fetch('/oauth/token', {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret }),
  });
  const answer = (await response.json().catch(() => ({}))) as {
    access_token?: string;
    error?: string;
    error_description?: string;
  };
  if (!response.ok || answer.access_token === undefined) {
    throw new ApiError(
      response.status,
      answer.error ?? 'invalid_client',
      answer.error_description ?? 'the client id or secret was not accepted',
    );
  }
  return answer.access_token;
}
