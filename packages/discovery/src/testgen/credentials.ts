import type { CatalogEndpoint } from '../catalog/types.js';
import { authFor, type EnvVariable } from '../scaffold/auth.js';

/** The environment variable a flow reads the base URL from: `{{env.baseUrl}}`, as scaffolded flows do. */
export const BASE_URL_ENV = 'baseUrl';

/** Literals no server accepts, sent by the bad-credentials cases. */
export const INVALID_TOKEN = 'svc-testgen-invalid-token';
export const INVALID_API_KEY = 'svc-testgen-invalid-key';
/** `invalid:invalid` in base64. */
export const INVALID_BASIC = 'aW52YWxpZDppbnZhbGlk';

/** One environment variable a generated flow expects, and what to put in it (as a scaffolded flow names it). */
export type CredentialVariable = EnvVariable;

/** Where credentials go in a request. */
export interface Credentials {
  headers: Record<string, string>;
  query: Record<string, string>;
  variables: CredentialVariable[];
}

const ENV_TEMPLATE = /\{\{\s*env\.[A-Za-z_$][A-Za-z0-9_$]*\s*\}\}/g;

/** A credential value with each `{{env.…}}` replaced by a literal of the same kind that no server accepts. */
function spoiled(value: string, where: 'authorization' | 'other'): string {
  const literal =
    where === 'authorization' ? (/^basic\s/i.test(value) ? INVALID_BASIC : INVALID_TOKEN) : INVALID_API_KEY;
  return value.replace(ENV_TEMPLATE, literal);
}

/**
 * Whether the operation refuses anonymous callers and declares credentials the generators can
 * send, so that "no credentials" and "bad credentials" cases make sense. An empty requirement
 * (`security: [{}]`) makes credentials optional.
 * @example requiresCredentials({ security: [{ bearerAuth: [] }], securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer' } } }) // true
 */
export function requiresCredentials(endpoint: Pick<CatalogEndpoint, 'security' | 'securitySchemes'>): boolean {
  if (endpoint.security.length === 0) return false;
  if (endpoint.security.some((requirement) => Object.keys(requirement).length === 0)) return false;
  return authFor(endpoint).env.length > 0;
}

/**
 * The headers and query parameters that carry the operation's credentials: `{{env.…}}`
 * placeholders named as scaffolded flows name them (`valid`: e.g. `bearerAuth` →
 * `Authorization: Bearer {{env.bearerAuthToken}}`, an API key scheme `api_key` → `{{env.apiKey}}`),
 * so one environment runs both; or literals of the same kind no server accepts (`invalid`).
 * @example credentialsFor(bearerEndpoint, 'valid').headers // { Authorization: 'Bearer {{env.bearerAuthToken}}' }
 */
export function credentialsFor(
  endpoint: Pick<CatalogEndpoint, 'security' | 'securitySchemes'>,
  mode: 'valid' | 'invalid',
): Credentials {
  const auth = authFor(endpoint);
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(auth.headers)) {
    headers[name] =
      mode === 'valid' ? value : spoiled(value, name.toLowerCase() === 'authorization' ? 'authorization' : 'other');
  }
  const query: Record<string, string> = {};
  for (const [name, value] of Object.entries(auth.query))
    query[name] = mode === 'valid' ? value : spoiled(value, 'other');
  if (auth.cookies.length > 0)
    headers.Cookie = auth.cookies.map((cookie) => (mode === 'valid' ? cookie : spoiled(cookie, 'other'))).join('; ');
  return {
    headers,
    query,
    variables: auth.env.map((variable) => ({ name: variable.name, description: variable.description })),
  };
}
