import type { ApiClientRecord, Clock } from '@svc/engine';
import { secretMatches } from './secrets.js';

/** Why a client may not be used now, or undefined when it may. Written for the caller to read. */
export function clientUnusableReason(client: ApiClientRecord, now: number): string | undefined {
  if (client.revokedAt !== null) return 'the client has been revoked';
  if (client.expiresAt !== null && now >= client.expiresAt) {
    return `the ${client.trial ? 'trial ' : ''}credential expired on ${new Date(client.expiresAt).toISOString()}`;
  }
  return undefined;
}

/**
 * True when `secret` is the client's current secret, or its previous one still within the
 * rotation grace period.
 */
export function secretIsValid(client: ApiClientRecord, secret: string, clock: Clock): boolean {
  if (secretMatches(secret, client.secretHash)) return true;
  return (
    client.previousSecretExpiresAt !== null &&
    clock.now() < client.previousSecretExpiresAt &&
    secretMatches(secret, client.previousSecretHash)
  );
}
