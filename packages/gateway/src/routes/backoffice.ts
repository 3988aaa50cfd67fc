import { SvcError, type ApiClientRecord, type Clock, type Store, type Tenant } from '@svc/engine';
import { Hono } from 'hono';
import { z } from 'zod';
import type { GatewayEnv } from '../auth/principal.js';
import { createClient, createTenant, revokeClient, rotateClientSecret } from '../auth/provision.js';
import { requireScope } from '../auth/require-scope.js';
import { SCOPES } from '../auth/scopes.js';
import { success } from '../http/envelope.js';
import { readJsonBody } from '../http/read-json-body.js';
import { parseRequest } from '../http/validate.js';

export const createTenantBodySchema = z.object({
  name: z.string().min(1).max(200),
  id: z.string().regex(/^[A-Za-z0-9_.-]{1,64}$/).optional(),
}).strict();

export const createClientBodySchema = z.object({
  name: z.string().min(1).max(200),
  /** Default: the caller's tenant. */
  tenantId: z.string().min(1).optional(),
  /** Default: every scope. */
  scopes: z.array(z.enum(SCOPES)).min(1).optional(),
  trial: z.boolean().optional(),
}).strict();

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
 * `/api/backoffice/…` ("API Keys & Clients"): tenants and their clients, for the `admin` scope
 * only. `admin` is the operator's scope, so it reaches every tenant; a client is named by its id,
 * which is unique across tenants.
 */
export function backofficeRoutes(deps: { store: Store; clock: Clock }): Hono<GatewayEnv> {
  const { store, clock } = deps;
  const app = new Hono<GatewayEnv>();
  app.use('*', requireScope('admin'));

  const clientOrThrow = async (clientId: string): Promise<ApiClientRecord> => {
    const client = await store.clients.findByClientId(clientId);
    if (client === undefined) throw new SvcError('CLIENT_NOT_FOUND', `client "${clientId}" not found`, { status: 404 });
    return client;
  };

  app.get('/tenants', async (c) => success(c, { items: (await store.tenants.list()).map(tenantView), nextCursor: null }));

  app.post('/tenants', async (c) => {
    const body = parseRequest(createTenantBodySchema, await readJsonBody(c), 'body');
    return success(c, tenantView(await createTenant(store, clock, body)), 201);
  });

  app.get('/clients', async (c) => {
    const tenantId = c.req.query('tenantId') || c.get('principal').tenantId;
    return success(c, { items: (await store.clients.list(tenantId)).map(clientView), nextCursor: null });
  });

  app.post('/clients', async (c) => {
    const body = parseRequest(createClientBodySchema, await readJsonBody(c), 'body');
    const made = await createClient(store, clock, { ...body, tenantId: body.tenantId ?? c.get('principal').tenantId });
    // The only answer that ever carries the secret.
    c.header('Cache-Control', 'no-store');
    return success(c, { ...clientView(made.client), clientSecret: made.clientSecret }, 201);
  });

  app.post('/clients/:id/rotate', async (c) => {
    const client = await clientOrThrow(c.req.param('id'));
    const rotated = await rotateClientSecret(store, clock, client.tenantId, client.clientId);
    c.header('Cache-Control', 'no-store');
    return success(c, { ...clientView(rotated.client), clientSecret: rotated.clientSecret, previousSecretExpiresAt: iso(rotated.previousSecretExpiresAt) });
  });

  app.post('/clients/:id/revoke', async (c) => {
    const client = await clientOrThrow(c.req.param('id'));
    return success(c, clientView(await revokeClient(store, clock, client.tenantId, client.clientId)));
  });

  return app;
}
