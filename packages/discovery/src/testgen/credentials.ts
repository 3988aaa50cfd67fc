import type { CatalogEndpoint, JsonObject } from '../catalog/types.js';

/** The environment variable a flow reads the base URL from: `{{env.baseUrl}}`. */
export const BASE_URL_ENV = 'baseUrl';
/** `http` `bearer` schemes: `Authorization: Bearer {{env.bearerToken}}`. */
export const BEARER_TOKEN_ENV = 'bearerToken';
/** `oauth2` and `openIdConnect` schemes: `Authorization: Bearer {{env.accessToken}}`. */
export const ACCESS_TOKEN_ENV = 'accessToken';
/** `http` `basic` schemes: `Authorization: Basic {{env.basicAuth}}`, the base64 of `user:password`. */
export const BASIC_AUTH_ENV = 'basicAuth';

/** Literals no server accepts, sent by the bad-credentials cases. */
export const INVALID_TOKEN = 'svc-testgen-invalid-token';
export const INVALID_API_KEY = 'svc-testgen-invalid-key';
/** `invalid:invalid` in base64. */
export const INVALID_BASIC = 'aW52YWxpZDppbnZhbGlk';

/** One environment variable a generated flow expects, and what to put in it. */
export interface CredentialVariable {
  env: string;
  scheme: string;
  description: string;
}

/** Where credentials go in a request. */
export interface Credentials {
  headers: Record<string, string>;
  query: Record<string, string>;
  variables: CredentialVariable[];
}

/** `api_key` → `apiKey`, `X-API-Key` → `xApiKey`: a name `{{env.<name>}}` can read. */
export function envNameFor(schemeName: string): string {
  const words = schemeName.split(/[^A-Za-z0-9]+/).filter((word) => word !== '');
  const name = words
    .map((word, index) => (index === 0 ? word.charAt(0).toLowerCase() + word.slice(1) : word.charAt(0).toUpperCase() + word.slice(1)))
    .join('');
  return /^[A-Za-z_]/.test(name) ? name : `key${name.charAt(0).toUpperCase()}${name.slice(1)}`;
}

type Placement =
  | { kind: 'authorization'; prefix: 'Bearer' | 'Basic'; env: string; invalid: string; description: string }
  | { kind: 'apiKey'; in: 'header' | 'query' | 'cookie'; name: string; env: string; description: string };

function placementOf(schemeName: string, scheme: JsonObject): Placement | undefined {
  const type = typeof scheme.type === 'string' ? scheme.type : '';
  if (type === 'http') {
    const kind = typeof scheme.scheme === 'string' ? scheme.scheme.toLowerCase() : '';
    if (kind === 'bearer') return { kind: 'authorization', prefix: 'Bearer', env: BEARER_TOKEN_ENV, invalid: INVALID_TOKEN, description: 'a bearer token the API accepts' };
    if (kind === 'basic') return { kind: 'authorization', prefix: 'Basic', env: BASIC_AUTH_ENV, invalid: INVALID_BASIC, description: 'base64 of user:password' };
    return undefined;
  }
  if (type === 'oauth2' || type === 'openIdConnect') {
    return { kind: 'authorization', prefix: 'Bearer', env: ACCESS_TOKEN_ENV, invalid: INVALID_TOKEN, description: 'an OAuth2 access token with the scopes the operation needs' };
  }
  if (type === 'apiKey' && typeof scheme.name === 'string' && scheme.name !== '' && (scheme.in === 'header' || scheme.in === 'query' || scheme.in === 'cookie')) {
    return { kind: 'apiKey', in: scheme.in, name: scheme.name, env: envNameFor(schemeName), description: `the API key sent in ${scheme.in} ${scheme.name}` };
  }
  return undefined;
}

/** The first requirement the generator can satisfy (every scheme in it is one it knows how to send). */
function usableRequirement(endpoint: CatalogEndpoint): Array<[string, Placement]> | undefined {
  for (const requirement of endpoint.security) {
    const names = Object.keys(requirement);
    if (names.length === 0) continue;
    const placements = names.map((name) => {
      const scheme = endpoint.securitySchemes[name];
      return scheme === undefined ? undefined : placementOf(name, scheme);
    });
    if (placements.every((placement) => placement !== undefined)) return names.map((name, index) => [name, placements[index]!]);
  }
  return undefined;
}

/**
 * Whether the operation refuses anonymous callers and declares credentials the generators can
 * send, so that "no credentials" and "bad credentials" cases make sense. An empty requirement
 * (`security: [{}]`) makes credentials optional.
 */
export function requiresCredentials(endpoint: CatalogEndpoint): boolean {
  if (endpoint.security.length === 0) return false;
  if (endpoint.security.some((requirement) => Object.keys(requirement).length === 0)) return false;
  return usableRequirement(endpoint) !== undefined;
}

/**
 * The headers and query parameters that carry the operation's credentials, as `{{env.…}}`
 * placeholders (`valid`) or as literals no server accepts (`invalid`). Empty when the
 * operation declares no security the generator can send.
 * @example credentialsFor(bearerEndpoint, 'valid').headers // { Authorization: 'Bearer {{env.bearerToken}}' }
 */
export function credentialsFor(endpoint: CatalogEndpoint, mode: 'valid' | 'invalid'): Credentials {
  const credentials: Credentials = { headers: {}, query: {}, variables: [] };
  const cookies: string[] = [];
  for (const [schemeName, placement] of usableRequirement(endpoint) ?? []) {
    const secret = `{{env.${placement.env}}}`;
    credentials.variables.push({ env: placement.env, scheme: schemeName, description: placement.description });
    if (placement.kind === 'authorization') {
      credentials.headers.Authorization = `${placement.prefix} ${mode === 'valid' ? secret : placement.invalid}`;
      continue;
    }
    const value = mode === 'valid' ? secret : INVALID_API_KEY;
    if (placement.in === 'header') credentials.headers[placement.name] = value;
    else if (placement.in === 'query') credentials.query[placement.name] = value;
    else cookies.push(`${placement.name}=${value}`);
  }
  if (cookies.length > 0) credentials.headers.Cookie = cookies.join('; ');
  return credentials;
}
