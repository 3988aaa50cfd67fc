import { SvcError, type ApiClientRecord, type Clock, type Store, type Tenant } from '@svc/engine';
import type { Context } from 'hono';
import { Hono } from 'hono';
import type { GatewayEnv, Principal } from '../auth/principal.js';
import { createClientBodySchema, createTenantBodySchema } from '../auth/client-schemas.js';
import { createClient, createTenant, revokeClient, rotateClientSecret } from '../auth/provision.js';
import { assertScope, requireScope } from '../auth/require-scope.js';
import { grants, isScope } from '../auth/scopes.js';
import { success } from '../http/envelope.js';
import { readJsonBody } from '../http/read-json-body.js';
import { parseRequest } from '../http/validate.js';

export { createClientBodySchema, createTenantBodySchema };

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

/** A client as the backoffice shows it: never a secret or its hash. */
export function clientView(client: ApiClientRecord) {
  return {
    clientId: client.clientId,
    tenantId: client.tenantId,
    name: client.name,
    scopes: client.scopes,
    trial: client.trial,
    expiresAt: iso(client.expiresAt),
    previousSecretExpiresAt: iso(client.previousSecretExpiresAt),
    revokedAt: iso(client.revokedAt),
    createdAt: iso(client.createdAt)!,
  };
}

const tenantView = (tenant: Tenant) => ({ id: tenant.id, name: tenant.name, createdAt: iso(tenant.createdAt)! });

/**
 * `/api/backoffice/…` ("API Keys & Clients"). Two levels: a tenant's `admin` manages the clients
 * of its own tenant, and nothing else (another tenant's client id answers 404, as an unknown one
 * does); `operator` (the bootstrap client's) manages tenants and the clients of every tenant. A
 * client is named by its id, which is unique across tenants.
 */
export function backofficeRoutes(deps: { store: Store; clock: Clock }): Hono<GatewayEnv> {
  const { store, clock } = deps;
  const app = new Hono<GatewayEnv>();
  app.use('*', requireScope('admin'));

  const principal = (c: Context<GatewayEnv>): Principal => c.get('principal');
  const isOperator = (caller: Principal) => grants(caller.scopes, 'operator');

  /** The tenant a request names (default the caller's): another one needs `operator`. */
  const tenantOf = (caller: Principal, named: string | undefined): string => {
    const tenantId = named || caller.tenantId;
    if (tenantId !== caller.tenantId) assertScope(caller.scopes, 'operator');
    return tenantId;
  };

  /**
   * A client the caller may manage; another tenant's answers exactly as a missing one. A client
   * holding scopes the caller could not grant is out of its reach too: rotating it would hand the
   * caller a secret with those scopes (a tenant admin taking over the operator's client).
   */
  const clientOrThrow = async (caller: Principal, clientId: string): Promise<ApiClientRecord> => {
    const client = await store.clients.findByClientId(clientId);
    if (client === undefined || (client.tenantId !== caller.tenantId && !isOperator(caller))) {
      throw new SvcError('CLIENT_NOT_FOUND', `client "${clientId}" not found`);
    }
    const beyond = client.scopes.filter((scope) => !isScope(scope) || !grants(caller.scopes, scope));
    if (beyond.length > 0) {
      throw new SvcError(
        'SCOPE_NOT_GRANTABLE',
        `client "${clientId}" holds ${beyond.join(', ')}, which the credential cannot grant, so it cannot manage it`,
        {
          details: { scopes: beyond },
        },
      );
    }
    return client;
  };

  app.get('/tenants', requireScope('operator'), async (c) =>
    success(c, { items: (await store.tenants.list()).map(tenantView), nextCursor: null }),
  );

  app.post('/tenants', requireScope('operator'), async (c) => {
    const body = parseRequest(createTenantBodySchema, await readJsonBody(c), 'body');
    return success(c, tenantView(await createTenant(store, clock, body)), 201);
  });

  app.get('/clients', async (c) => {
    const tenantId = tenantOf(principal(c), c.req.query('tenantId'));
    return success(c, { items: (await store.clients.list(tenantId)).map(clientView), nextCursor: null });
  });

  app.post('/clients', async (c) => {
    const body = parseRequest(createClientBodySchema, await readJsonBody(c), 'body');
    const caller = principal(c);
    const tenantId = tenantOf(caller, body.tenantId);
    // A client made by one that expires (a trial admin) expires with it at the latest.
    const callerExpiresAt = (await store.clients.get(caller.tenantId, caller.clientId))?.expiresAt ?? null;
    const made = await createClient(store, clock, {
      ...body,
      tenantId,
      grantor: caller.scopes,
      ...(callerExpiresAt === null ? {} : { notAfter: callerExpiresAt }),
    });
    // The only answer that ever carries the secret.
    c.header('Cache-Control', 'no-store');
    return success(c, { ...clientView(made.client), clientSecret: made.clientSecret }, 201);
  });

  app.post('/clients/:id/rotate', async (c) => {
    const client = await clientOrThrow(principal(c), c.req.param('id'));
    const rotated = await rotateClientSecret(store, clock, client.tenantId, client.clientId);
    c.header('Cache-Control', 'no-store');
    return success(c, {
      ...clientView(rotated.client),
      clientSecret: rotated.clientSecret,
      previousSecretExpiresAt: iso(rotated.previousSecretExpiresAt),
    });
  });

  app.post('/clients/:id/revoke', async (c) => {
    const client = await clientOrThrow(principal(c), c.req.param('id'));
    return success(c, clientView(await revokeClient(store, clock, client.tenantId, client.clientId)));
  });

  return app;
}
