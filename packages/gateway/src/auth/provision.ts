import { SvcError, type ApiClientRecord, type Clock, type Store, type Tenant } from '@svc/engine';
import { generateSecret, hashSecret, randomId } from './secrets.js';
import { DEFAULT_SCOPES, grants, isScope, SCOPES, type Scope } from './scopes.js';

export const TRIAL_LIFETIME_MS = 14 * 24 * 60 * 60 * 1000;
/** How long a rotated-out secret keeps working, so deployments can switch over without downtime. */
export const ROTATION_GRACE_MS = 24 * 60 * 60 * 1000;

export interface NewClient {
  tenantId: string;
  name: string;
  /** Default `DEFAULT_SCOPES` (`flows:read executions:run`), never `admin`. */
  scopes?: readonly string[];
  /**
   * The scopes of whoever asks (a backoffice caller): the new client may get only scopes these
   * grant, else 403 `SCOPE_NOT_GRANTABLE`. Absent for the operator at the store's own machine
   * (the command line, the first start).
   */
  grantor?: ReadonlySet<Scope>;
  trial?: boolean;
  /**
   * The latest time the new client may work until: a grantor whose own credential expires (a
   * trial admin) cannot make a client that outlives it.
   */
  notAfter?: number;
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
export async function createTenant(
  store: Pick<Store, 'tenants'>,
  clock: Clock,
  tenant: { name: string; id?: string },
): Promise<Tenant> {
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
export async function createClient(
  store: Pick<Store, 'clients'>,
  clock: Clock,
  request: NewClient,
): Promise<ProvisionedClient> {
  const scopes = [...new Set(request.scopes ?? DEFAULT_SCOPES)];
  const unknown = scopes.filter((scope) => !isScope(scope));
  if (unknown.length > 0)
    throw new SvcError('VALIDATION_ERROR', `unknown scope ${unknown.join(', ')}; known scopes: ${SCOPES.join(' ')}`);
  const { grantor } = request;
  const refused = grantor === undefined ? [] : scopes.filter((scope) => !grants(grantor, scope as Scope));
  if (refused.length > 0) {
    throw new SvcError(
      'SCOPE_NOT_GRANTABLE',
      `the credential cannot grant ${refused.join(', ')}: a client grants only scopes it holds, and only an operator grants operator`,
      {
        details: { scopes: refused },
      },
    );
  }
  if (request.clientId !== undefined && !CLIENT_ID_PATTERN.test(request.clientId)) {
    throw new SvcError('VALIDATION_ERROR', 'a client id holds 1–128 letters, digits, "_", "." or "-"');
  }
  if (request.secret !== undefined && request.secret.length < MIN_SECRET_LENGTH) {
    throw new SvcError(
      'VALIDATION_ERROR',
      `a client secret must be at least ${MIN_SECRET_LENGTH} characters; generate one with: node -e "console.log('svc_sk_'+require('crypto').randomBytes(32).toString('base64url'))"`,
      {},
    );
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
    expiresAt: earliest(trial ? now + TRIAL_LIFETIME_MS : null, request.notAfter ?? null),
    secretHash: hashSecret(clientSecret),
    previousSecretHash: null,
    previousSecretExpiresAt: null,
    revokedAt: null,
    createdAt: now,
  };
  await store.clients.create(client);
  return { client, clientSecret };
}

const earliest = (a: number | null, b: number | null): number | null =>
  a === null ? b : b === null ? a : Math.min(a, b);

/**
 * The client, unless it is missing (404 `CLIENT_NOT_FOUND`) or revoked (409 `CLIENT_REVOKED`):
 * a revoked client stays revoked, so a new secret for it would be one that never works.
 */
async function usableClient(
  store: Pick<Store, 'clients'>,
  tenantId: string,
  clientId: string,
): Promise<ApiClientRecord> {
  const client = await store.clients.get(tenantId, clientId);
  if (client === undefined) throw new SvcError('CLIENT_NOT_FOUND', `client "${clientId}" not found`);
  if (client.revokedAt !== null) {
    throw new SvcError(
      'CLIENT_REVOKED',
      `client "${clientId}" was revoked on ${new Date(client.revokedAt).toISOString()}; create a new client instead`,
      {
        details: { revokedAt: new Date(client.revokedAt).toISOString() },
      },
    );
  }
  return client;
}

/**
 * A new secret for the client; the one it replaces keeps working for `ROTATION_GRACE_MS`. A revoked
 * client answers 409 `CLIENT_REVOKED`.
 * @example
 * const { clientSecret, previousSecretExpiresAt } = await rotateClientSecret(store, systemClock, 'initech', 'cli_…');
 */
export async function rotateClientSecret(
  store: Pick<Store, 'clients'>,
  clock: Clock,
  tenantId: string,
  clientId: string,
): Promise<ProvisionedClient & { previousSecretExpiresAt: number }> {
  await usableClient(store, tenantId, clientId);
  const clientSecret = generateSecret();
  const previousSecretExpiresAt = clock.now() + ROTATION_GRACE_MS;
  const client = await store.clients.rotateSecret(tenantId, clientId, {
    secretHash: hashSecret(clientSecret),
    previousSecretExpiresAt,
  });
  return { client, clientSecret, previousSecretExpiresAt };
}

/**
 * Revokes at once: both secrets, and every token issued to the client (checked on each use). A
 * client already revoked answers 409 `CLIENT_REVOKED`.
 * @example
 * await revokeClient(store, systemClock, 'initech', 'cli_…');
 */
export async function revokeClient(
  store: Pick<Store, 'clients'>,
  clock: Clock,
  tenantId: string,
  clientId: string,
): Promise<ApiClientRecord> {
  await usableClient(store, tenantId, clientId);
  return store.clients.revoke(tenantId, clientId, clock.now());
}
