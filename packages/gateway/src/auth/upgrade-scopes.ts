import type { ApiClientRecord, Store } from '@svc/engine';

/**
 * The scopes a client got, before `operator` existed, when it asked for none: every scope there
 * was, `admin` included. Such a client cannot be told from one that asked for all of them.
 */
export const LEGACY_ALL_SCOPES: readonly string[] = [
  'flows:read',
  'flows:write',
  'executions:run',
  'suites:read',
  'suites:run',
  'schedules:read',
  'schedules:write',
  'catalog:read',
  'catalog:write',
  'admin',
];

export interface ScopeUpgrade {
  /** The bootstrap client that was given `operator`, when this run gave it. */
  operatorGrantedTo?: string;
  /** Trial clients with the old every-scope default that lost `admin`. */
  adminRemovedFrom: string[];
  /** Other live clients holding `admin`: now bounded to their own tenant, worth a review. */
  tenantAdmins: string[];
}

/**
 * Brings a store from before the `operator` scope up to date, at start; running it again changes
 * nothing. The bootstrap client (the given id, else the oldest client named `admin` holding
 * `admin` in the bootstrap tenant) gets `operator`, unless a client there holds it already.
 * Trial clients holding the old every-scope default lose `admin`: a developer trial made
 * without scopes (the old README example) should never have managed clients. Other clients keep
 * their scopes; `admin` no longer reaches beyond its own tenant, so none keeps cross-tenant power.
 * @example
 * const upgrade = await upgradeClientScopes(store, { bootstrapTenant: 'default' });
 */
export async function upgradeClientScopes(
  store: Pick<Store, 'tenants' | 'clients'>,
  options: { bootstrapTenant: string; bootstrapClientId?: string },
): Promise<ScopeUpgrade> {
  const upgrade: ScopeUpgrade = { adminRemovedFrom: [], tenantAdmins: [] };
  const home = await store.clients.list(options.bootstrapTenant);
  if (!home.some((client) => client.scopes.includes('operator'))) {
    const bootstrap =
      home.find((client) => client.clientId === options.bootstrapClientId) ??
      home.find((client) => client.name === 'admin' && client.scopes.includes('admin') && client.revokedAt === null);
    if (bootstrap !== undefined) {
      await store.clients.setScopes(bootstrap.tenantId, bootstrap.clientId, [...bootstrap.scopes, 'operator']);
      upgrade.operatorGrantedTo = bootstrap.clientId;
    }
  }

  const holdsLegacyDefault = (client: ApiClientRecord) =>
    LEGACY_ALL_SCOPES.every((scope) => client.scopes.includes(scope));
  for (const tenant of await store.tenants.list()) {
    for (const client of await store.clients.list(tenant.id)) {
      if (
        client.revokedAt !== null ||
        client.scopes.includes('operator') ||
        client.clientId === upgrade.operatorGrantedTo
      )
        continue;
      if (client.trial && holdsLegacyDefault(client)) {
        await store.clients.setScopes(
          client.tenantId,
          client.clientId,
          client.scopes.filter((scope) => scope !== 'admin'),
        );
        upgrade.adminRemovedFrom.push(client.clientId);
      } else if (client.scopes.includes('admin')) {
        upgrade.tenantAdmins.push(client.clientId);
      }
    }
  }
  return upgrade;
}
