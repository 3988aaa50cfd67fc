import type { Context } from 'hono';
import type { Scope } from './scopes.js';

/** Who is calling: a client of one tenant, with the scopes its credential grants. */
export interface Principal {
  tenantId: string;
  clientId: string;
  scopes: ReadonlySet<Scope>;
  /** How the credential came: an access token, or the client secret as an API key. */
  via: 'bearer' | 'api-key';
}

/** The credentials a request presents, as read from its headers. */
export interface PresentedCredentials {
  authorization?: string;
  apiKey?: string;
}

/** Turns presented credentials into a principal, or throws `UNAUTHORIZED`. */
export interface Authenticator {
  authenticate(credentials: PresentedCredentials): Promise<Principal>;
}

/** The Hono environment of the app's routes: the authenticated caller is a context variable. */
export interface GatewayEnv {
  Variables: { principal: Principal };
}

export function principalOf(c: Context<GatewayEnv>): Principal {
  return c.get('principal');
}
