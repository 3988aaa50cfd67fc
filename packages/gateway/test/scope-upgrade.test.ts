import { createManualClock, type Logger } from '@svc/engine';
import { openSqliteStore } from '@svc/engine/sqlite';
import { createClient, createTenant, startGatewayServer } from '@svc/gateway';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LEGACY_ALL_SCOPES } from '../src/auth/upgrade-scopes.js';

type Credential = { clientId: string; secret: string };

/*
 * A store written before the `operator` scope: its bootstrap client and every client made without
 * scopes hold the old "every scope" set. Starting the gateway on it upgrades it once.
 */
describe('upgrading the clients of an existing store at start', () => {
  const clock = createManualClock(Date.parse('2026-04-01T00:00:00Z'));
  let store: ReturnType<typeof openSqliteStore>;
  let bootstrap: Credential;
  let trialDev: Credential;
  let initechOps: Credential;
  let reader: Credential;
  const warnings: Array<{ message: string; fields?: Record<string, unknown> }> = [];
  const logger: Logger = {
    debug() {},
    info() {},
    error() {},
    warn: (message, fields) => warnings.push({ message, ...(fields ? { fields } : {}) }),
  };

  const made = async (
    tenantId: string,
    name: string,
    scopes: readonly string[],
    trial = false,
  ): Promise<Credential> => {
    const client = await createClient(store, clock, { tenantId, name, scopes, trial });
    return { clientId: client.client.clientId, secret: client.clientSecret };
  };

  beforeAll(async () => {
    store = openSqliteStore({ path: ':memory:', clock });
    await createTenant(store, clock, { id: 'default', name: 'Default' });
    await createTenant(store, clock, { id: 'initech', name: 'Initech' });
    bootstrap = await made('default', 'admin', LEGACY_ALL_SCOPES);
    trialDev = await made('initech', 'trial-dev', LEGACY_ALL_SCOPES, true);
    initechOps = await made('initech', 'ops', LEGACY_ALL_SCOPES);
    reader = await made('initech', 'reader', ['flows:read']);
  });
  afterAll(async () => {
    await store?.close();
  });

  async function withServer<T>(
    work: (call: (path: string, who: Credential) => Promise<number>) => Promise<T>,
  ): Promise<T> {
    const server = await startGatewayServer({ store, port: 0, host: '127.0.0.1', clock, logger });
    try {
      return await work(
        async (path, who) => (await fetch(`${server.url}${path}`, { headers: { 'X-API-Key': who.secret } })).status,
      );
    } finally {
      await server.close();
    }
  }

  it('gives the bootstrap client operator, takes admin from old trial clients and bounds the rest to their tenant', async () => {
    await withServer(async (call) => {
      expect(await call('/api/backoffice/tenants', bootstrap)).toBe(200);
      expect(await call('/api/backoffice/clients?tenantId=initech', bootstrap)).toBe(200);

      expect(await call('/api/backoffice/clients', trialDev)).toBe(403);
      expect(await call('/api/gateway/flows', trialDev)).toBe(200);

      expect(await call('/api/backoffice/clients', initechOps)).toBe(200);
      expect(await call('/api/backoffice/clients?tenantId=default', initechOps)).toBe(403);
      expect(await call('/api/backoffice/tenants', initechOps)).toBe(403);
    });
    expect((await store.clients.get('default', bootstrap.clientId))!.scopes).toEqual([
      ...LEGACY_ALL_SCOPES,
      'operator',
    ]);
    expect((await store.clients.get('initech', trialDev.clientId))!.scopes).toEqual(
      LEGACY_ALL_SCOPES.filter((scope) => scope !== 'admin'),
    );
    expect((await store.clients.get('initech', initechOps.clientId))!.scopes).toEqual(LEGACY_ALL_SCOPES);
    expect((await store.clients.get('initech', reader.clientId))!.scopes).toEqual(['flows:read']);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]!.fields).toEqual({
      operatorGrantedTo: bootstrap.clientId,
      adminRemovedFrom: [trialDev.clientId],
      tenantAdmins: [initechOps.clientId],
    });
  });

  it('changes nothing, and says nothing, on the next start', async () => {
    const before = [...(await store.clients.list('default')), ...(await store.clients.list('initech'))];
    await withServer(async (call) => expect(await call('/api/backoffice/tenants', bootstrap)).toBe(200));
    expect([...(await store.clients.list('default')), ...(await store.clients.list('initech'))]).toEqual(before);
    expect(warnings).toHaveLength(1);
  });
});
