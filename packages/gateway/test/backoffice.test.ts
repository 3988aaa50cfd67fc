import { createEngine, createManualClock, type Engine } from '@svc/engine';
import { openSqliteStore } from '@svc/engine/sqlite';
import { createApp, createClient, createGatewayAuth, createTenant, SCOPES } from '@svc/gateway';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orderFlow } from './flows.js';

type Json = Record<string, any>;
const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;

describe('backoffice: API keys and clients', () => {
  const clock = createManualClock(Date.parse('2026-05-01T00:00:00Z'));
  let store: ReturnType<typeof openSqliteStore>;
  let engine: Engine;
  let app: ReturnType<typeof createApp>;
  let adminKey: string;
  let writerKey: string;

  beforeAll(async () => {
    store = openSqliteStore({ path: ':memory:', clock });
    engine = await createEngine({ store, clock });
    const auth = await createGatewayAuth({ store, clock });
    app = createApp({ engine, authenticator: auth, tokenGrant: auth, store, clock });
    await createTenant(store, clock, { id: 'default', name: 'Default' });
    adminKey = (await createClient(store, clock, { tenantId: 'default', name: 'admin', scopes: SCOPES })).clientSecret;
    writerKey = (
      await createClient(store, clock, { tenantId: 'default', name: 'writer', scopes: ['flows:read', 'flows:write'] })
    ).clientSecret;
  });
  afterAll(async () => {
    await engine?.stop();
    await store?.close();
  });

  async function call(method: string, path: string, key: string, body?: unknown) {
    const headers: Record<string, string> = { 'X-API-Key': key };
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    const response = await app.request(path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, headers: response.headers, json: (await response.json()) as Json };
  }
  async function token(clientId: string, secret: string) {
    const response = await app.request('/oauth/token', {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: clientId,
        client_secret: secret,
      }).toString(),
    });
    return { status: response.status, json: (await response.json()) as Json };
  }

  it('is for the admin scope only', async () => {
    for (const [method, path] of [
      ['GET', '/api/backoffice/tenants'],
      ['POST', '/api/backoffice/clients'],
      ['POST', '/api/backoffice/clients/x/revoke'],
    ] as const) {
      const answer = await call(method, path, writerKey);
      expect(answer.status, path).toBe(403);
      expect(answer.json.error.code).toBe('INSUFFICIENT_SCOPE');
    }
  });

  it('creates tenants and clients in them; the secret is answered once and the new client sees only its tenant', async () => {
    const tenant = await call('POST', '/api/backoffice/tenants', adminKey, { name: 'Initech', id: 'initech' });
    expect(tenant).toMatchObject({
      status: 201,
      json: { success: true, data: { id: 'initech', name: 'Initech', createdAt: '2026-05-01T00:00:00.000Z' } },
    });
    expect((await call('POST', '/api/backoffice/tenants', adminKey, { name: 'Again', id: 'initech' })).status).toBe(
      409,
    );
    expect(
      (await call('GET', '/api/backoffice/tenants', adminKey)).json.data.items.map((item: Json) => item.id),
    ).toEqual(['default', 'initech']);

    const made = await call('POST', '/api/backoffice/clients', adminKey, {
      name: 'initech ci',
      tenantId: 'initech',
      scopes: ['flows:read', 'flows:write'],
    });
    expect(made.status).toBe(201);
    expect(made.headers.get('cache-control')).toBe('no-store');
    expect(made.json.data).toMatchObject({
      tenantId: 'initech',
      name: 'initech ci',
      scopes: ['flows:read', 'flows:write'],
      trial: false,
      expiresAt: null,
      revokedAt: null,
    });
    expect(made.json.data.clientId).toMatch(/^cli_/);
    expect(made.json.data.clientSecret).toMatch(/^svc_sk_/);

    const listed = await call('GET', '/api/backoffice/clients?tenantId=initech', adminKey);
    expect(listed.json.data.items).toHaveLength(1);
    expect(JSON.stringify(listed.json)).not.toContain(made.json.data.clientSecret);
    expect(listed.json.data.items[0]).not.toHaveProperty('secretHash');

    await call('POST', '/api/gateway/flows', adminKey, orderFlow('default-only'));
    const theirs = await call('GET', '/api/gateway/flows', made.json.data.clientSecret);
    expect(theirs).toMatchObject({ status: 200, json: { data: { items: [] } } });
    expect(
      (await call('POST', '/api/gateway/flows', made.json.data.clientSecret, orderFlow('initech-flow'))).status,
    ).toBe(201);
    expect((await call('GET', '/api/gateway/flows?search=initech', adminKey)).json.data.items).toEqual([]);
  });

  it('refuses unknown scopes, a missing tenant and an unknown client with their codes', async () => {
    const badScope = await call('POST', '/api/backoffice/clients', adminKey, { name: 'x', scopes: ['flows:nuke'] });
    expect(badScope.status).toBe(400);
    expect(badScope.json.error.details.problems.map((problem: Json) => problem.path)).toEqual(['body.scopes[0]']);
    const noTenant = await call('POST', '/api/backoffice/clients', adminKey, { name: 'x', tenantId: 'nowhere' });
    expect(noTenant).toMatchObject({ status: 404, json: { error: { code: 'TENANT_NOT_FOUND' } } });
    expect((await call('POST', '/api/backoffice/clients/cli_nobody/rotate', adminKey)).json.error.code).toBe(
      'CLIENT_NOT_FOUND',
    );
    expect((await call('POST', '/api/backoffice/clients/cli_nobody/revoke', adminKey)).status).toBe(404);
  });

  it('rotates a secret: the new one works at once, the old one for 24 hours more', async () => {
    const made = (await call('POST', '/api/backoffice/clients', adminKey, { name: 'rotating', scopes: ['flows:read'] }))
      .json.data;
    const rotated = await call('POST', `/api/backoffice/clients/${made.clientId}/rotate`, adminKey);
    expect(rotated.status).toBe(200);
    expect(rotated.json.data.previousSecretExpiresAt).toBe(new Date(clock.now() + DAY).toISOString());
    const fresh = rotated.json.data.clientSecret as string;
    expect(fresh).not.toBe(made.clientSecret);

    expect((await call('GET', '/api/gateway/flows', fresh)).status).toBe(200);
    clock.advance(DAY - 1);
    expect((await call('GET', '/api/gateway/flows', made.clientSecret)).status).toBe(200);
    expect((await token(made.clientId, made.clientSecret)).status).toBe(200);
    clock.advance(1);
    expect((await call('GET', '/api/gateway/flows', made.clientSecret)).status).toBe(401);
    expect((await token(made.clientId, made.clientSecret)).json.error).toBe('invalid_client');
    expect((await call('GET', '/api/gateway/flows', fresh)).status).toBe(200);
    expect((await token(made.clientId, fresh)).status).toBe(200);
  });

  it('revokes a client at once, including the token it already holds', async () => {
    const made = (await call('POST', '/api/backoffice/clients', adminKey, { name: 'doomed', scopes: ['flows:read'] }))
      .json.data;
    const live = (await token(made.clientId, made.clientSecret)).json.access_token as string;
    const bearer = () => app.request('/api/gateway/flows', { headers: { Authorization: `Bearer ${live}` } });
    expect((await bearer()).status).toBe(200);
    const revoked = await call('POST', `/api/backoffice/clients/${made.clientId}/revoke`, adminKey);
    expect(revoked.json.data.revokedAt).toBe(new Date(clock.now()).toISOString());
    expect((await bearer()).status).toBe(401);
    expect((await call('GET', '/api/gateway/flows', made.clientSecret)).status).toBe(401);
    expect((await token(made.clientId, made.clientSecret)).json.error_description).toBe('the client has been revoked');
  });

  it('makes trial clients that stop 14 days after creation, saying so', async () => {
    const made = (
      await call('POST', '/api/backoffice/clients', adminKey, { name: 'trial', trial: true, scopes: ['flows:read'] })
    ).json.data;
    expect(made.expiresAt).toBe(new Date(clock.now() + 14 * DAY).toISOString());
    clock.advance(14 * DAY);
    const refused = await token(made.clientId, made.clientSecret);
    expect(refused).toMatchObject({ status: 401, json: { error: 'invalid_client' } });
    expect(refused.json.error_description).toBe(`the trial credential expired on ${made.expiresAt}`);
  });
});
