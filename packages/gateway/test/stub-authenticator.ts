import type { Authenticator, Principal, Scope } from '@svc/gateway';
import { SCOPES } from '@svc/gateway';
import { SvcError } from '@svc/engine';

/**
 * Stands in for the real credential check where a test is about routes, not auth: each key is a
 * fixed principal.
 */
export function stubAuthenticator(
  keys: Record<string, { tenantId: string; scopes?: readonly Scope[] }>,
): Authenticator {
  return {
    async authenticate({ apiKey }): Promise<Principal> {
      const entry = apiKey === undefined ? undefined : keys[apiKey];
      if (entry === undefined) throw new SvcError('UNAUTHORIZED', 'unknown test key');
      return {
        tenantId: entry.tenantId,
        clientId: `cli_${apiKey}`,
        scopes: new Set(entry.scopes ?? SCOPES),
        via: 'api-key',
      };
    },
  };
}
