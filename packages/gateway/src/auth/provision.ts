import { SvcError, type ApiClientRecord, type Clock, type Store, type Tenant } from '@svc/engine';
import { generateSecret, hashSecret, randomId } from './secrets.js';
import { isScope, SCOPES, type Scope } from './scopes.js';

export const TRIAL_LIFETIME_MS = 14 * 24 * 60 * 60 * 1000;
/** How long a rotated-out secret keeps working, so deployments can switch over without downtime. */
export const ROTATION_GRACE_MS = 24 * 60 * 60 * 1000;

export interface NewClient {
  tenantId: string;
  name: string;
  scopes?: readonly string[];
  trial?: boolean;
  /** Taken as given (an operator's bootstrap setup); otherwise a `cli_…` id is made. */
  clientId?: string;
  /** Taken as given (bootstrap); otherwise a fresh `svc_sk_…` secret is made. */
  secret?: string;
}

/** The new client, and its secret: the only time the secret exists outside the caller's hands. */
export interface ProvisionedClient {
  client: ApiClientRecord;
  clientSecret: string;
}

/** Operator-chosen secrets are hashed with a fast hash too, so they must be long enough not to guess. */
const MIN_SECRET_LENGTH = 32;
const CLIENT_ID_PATTERN = /^[A-Za-z0-9_.-]{1,128}$/;

/**
 * A new tenant (workspace), stamped by the clock.
 * @example
 * const tenant = await createTenant(store, systemClock, { name: 'Initech' }); // { id: 'ten_…', … }
 */
export async function createTenant(store: Pick<Store, 'tenants'>, clock: Clock, tenant: { name: string; id?: string }): Promise<Tenant> {
  const record = { id: tenant.id ?? randomId('ten_'), name: tenant.name, createdAt: clock.now() };
  await store.tenants.create(record);
  return record;
}

/**
 * A new client with a fresh `svc_sk_…` secret, of which only the hash is stored: the answer is the
 * one place the secret is ever seen. Trial clients expire `TRIAL_LIFETIME_MS` after creation.
 * @example
 * const { client, clientSecret } = await createClient(store, systemClock, { tenantId: 'initech', name: 'ci', scopes: ['flows:read'] });
 */
export async function createClient(store: Pick<Store, 'clients'>, clock: Clock, request: NewClient): Promise<ProvisionedClient> {
  const scopes = [...new Set(request.scopes ?? SCOPES)];
  const unknown = scopes.filter((scope) => !isScope(scope));
  if (unknown.length > 0) throw new SvcError('VALIDATION_ERROR', `unknown scope ${unknown.join(', ')}; known scopes: ${SCOPES.join(' ')}`, { status: 400 });
  if (request.clientId !== undefined && !CLIENT_ID_PATTERN.test(request.clientId)) {
    throw new SvcError('VALIDATION_ERROR', 'a client id holds 1–128 letters, digits, "_", "." or "-"', { status: 400 });
  }
  if (request.secret !== undefined && request.secret.length < MIN_SECRET_LENGTH) {
    throw new SvcError('VALIDATION_ERROR', `a client secret must be at least ${MIN_SECRET_LENGTH} characters; generate one with: node -e "console.log('svc_sk_'+require('crypto').randomBytes(32).toString('base64url'))"`, {
      status: 400,
    });
  }
  const clientSecret = request.secret ?? generateSecret();
  const now = clock.now();
  const trial = request.trial ?? false;
  const client: ApiClientRecord = {
    clientId: request.clientId ?? randomId('cli_'),
    tenantId: request.tenantId,
    name: request.name,
    scopes: scopes as Scope[],
    trial,
    expiresAt: trial ? now + TRIAL_LIFETIME_MS : null,
    secretHash: hashSecret(clientSecret),
    previousSecretHash: null,
    previousSecretExpiresAt: null,
    revokedAt: null,
    createdAt: now,
  };
  await store.clients.create(client);
  return { client, clientSecret };
}

/**
 * A new secret for the client; the one it replaces keeps working for `ROTATION_GRACE_MS`.
 * @example
 * const { clientSecret, previousSecretExpiresAt } = await rotateClientSecret(store, systemClock, 'initech', 'cli_…');
 */
export async function rotateClientSecret(
  store: Pick<Store, 'clients'>,
  clock: Clock,
  tenantId: string,
  clientId: string,
): Promise<ProvisionedClient & { previousSecretExpiresAt: number }> {
  const clientSecret = generateSecret();
  const previousSecretExpiresAt = clock.now() + ROTATION_GRACE_MS;
  const client = await store.clients.rotateSecret(tenantId, clientId, { secretHash: hashSecret(clientSecret), previousSecretExpiresAt });
  return { client, clientSecret, previousSecretExpiresAt };
}

/**
 * Revokes at once: both secrets, and every token issued to the client (checked on each use).
 * @example
 * await revokeClient(store, systemClock, 'initech', 'cli_…');
 */
export async function revokeClient(store: Pick<Store, 'clients'>, clock: Clock, tenantId: string, clientId: string): Promise<ApiClientRecord> {
  return store.clients.revoke(tenantId, clientId, clock.now());
}
