import type { Clock, Store } from '@svc/engine';
import { createAccessTokens, InvalidTokenError, type AccessTokens } from './access-tokens.js';
import { invalidCredentials, missingCredentials } from './challenge.js';
import { clientUnusableReason, secretIsValid } from './client-credentials.js';
import type { Authenticator, Principal } from './principal.js';
import { isScope, type Scope } from './scopes.js';
import { hashSecret } from './secrets.js';
import { loadSigningKeys } from './signing-keys.js';

export interface GatewayAuthOptions {
  store: Pick<Store, 'clients' | 'signingKeys'>;
  clock: Clock;
  /** The tokens' `iss` (default `urn:svc:gateway`). */
  issuer?: string;
  /** The tokens' `aud`, which verification requires (default `urn:svc:api`). */
  audience?: string;
}

/** Client credentials that hold: the client with the scopes it may use. */
export interface VerifiedClient {
  clientId: string;
  tenantId: string;
  scopes: string[];
}

export type ClientCheck = { ok: true; client: VerifiedClient } | { ok: false; reason: string };

/** What the token endpoint needs: checking a client's secret and issuing a token for it. */
export interface ClientCredentialsGrant {
  checkClient(clientId: string, secret: string): Promise<ClientCheck>;
  readonly tokens: AccessTokens;
}

export type GatewayAuth = Authenticator & ClientCredentialsGrant;

const toScopes = (names: readonly string[]): ReadonlySet<Scope> => new Set(names.filter(isScope));

/**
 * Authentication over the store: client secrets (as `X-API-Key` or at the token endpoint) and
 * the JWT access tokens issued for them. Every credential is checked against its client's row on
 * each use, so revocation and trial expiry take effect at once, tokens already issued included.
 * @example
 * const auth = await createGatewayAuth({ store, clock });
 * const app = createApp({ engine, authenticator: auth, tokenGrant: auth });
 */
export async function createGatewayAuth(options: GatewayAuthOptions): Promise<GatewayAuth> {
  const { store, clock } = options;
  const keys = await loadSigningKeys(store.signingKeys, clock);
  const tokens = createAccessTokens({
    keys,
    clock,
    issuer: options.issuer ?? 'urn:svc:gateway',
    audience: options.audience ?? 'urn:svc:api',
  });

  async function bearer(token: string): Promise<Principal> {
    let claims;
    try {
      claims = await tokens.verify(token);
    } catch (error) {
      if (error instanceof InvalidTokenError) throw invalidCredentials(error.message);
      throw error;
    }
    const client = await store.clients.get(claims.tenantId, claims.clientId);
    if (client === undefined) throw invalidCredentials('the client of this token no longer exists');
    const unusable = clientUnusableReason(client, clock.now());
    if (unusable !== undefined) throw invalidCredentials(unusable);
    // A token keeps the scopes it was issued with, but never more than the client holds now.
    const held = new Set(client.scopes);
    return {
      tenantId: client.tenantId,
      clientId: client.clientId,
      scopes: toScopes(claims.scopes.filter((scope) => held.has(scope))),
      via: 'bearer',
    };
  }

  async function apiKey(secret: string): Promise<Principal> {
    const client = await store.clients.findBySecretHash(hashSecret(secret));
    if (client === undefined || !secretIsValid(client, secret, clock))
      throw invalidCredentials('the API key is unknown, rotated out or revoked');
    const unusable = clientUnusableReason(client, clock.now());
    if (unusable !== undefined) throw invalidCredentials(unusable);
    return { tenantId: client.tenantId, clientId: client.clientId, scopes: toScopes(client.scopes), via: 'api-key' };
  }

  return {
    tokens,
    async authenticate({ authorization, apiKey: key }) {
      if (authorization !== undefined && authorization.trim() !== '') {
        const match = /^Bearer\s+([A-Za-z0-9\-._~+/]+=*)\s*$/i.exec(authorization);
        if (match === null) throw invalidCredentials('the Authorization header must be "Bearer <access token>"');
        return bearer(match[1]!);
      }
      if (key !== undefined && key !== '') return apiKey(key);
      throw missingCredentials();
    },
    async checkClient(clientId, secret) {
      const client = await store.clients.findByClientId(clientId);
      // One answer for an unknown client and a wrong secret, so client ids cannot be probed.
      if (client === undefined || !secretIsValid(client, secret, clock))
        return { ok: false, reason: 'the client id or secret is wrong' };
      const unusable = clientUnusableReason(client, clock.now());
      if (unusable !== undefined) return { ok: false, reason: unusable };
      return { ok: true, client: { clientId: client.clientId, tenantId: client.tenantId, scopes: [...client.scopes] } };
    },
  };
}
