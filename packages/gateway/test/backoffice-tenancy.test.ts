import { randomBytes } from 'node:crypto';
import { createEngine, createManualClock, type Clock, type Engine, type Store } from '@svc/engine';
import { openSqliteStore } from '@svc/engine/sqlite';
import { openPostgresStore } from '@svc/engine/postgres';
import { dropSchemas, freshSchemaName, probePostgres } from '../../engine/test/helpers/postgres-test-db.js';
import { createApp, createClient, createGatewayAuth, createTenant, DEFAULT_SCOPES, SCOPES } from '@svc/gateway';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orderFlow } from './flows.js';

type Json = Record<string, any>;
type Credential = { clientId: string; secret: string };
/** Everything a tenant's own administrator may hold: all but `operator`. */
const TENANT_SCOPES = SCOPES.filter((scope) => scope !== 'operator');

const postgres = await probePostgres();
if (postgres.skipReason !== undefined)
  console.warn(`backoffice-tenancy.test.ts: PostgreSQL skipped: ${postgres.skipReason}`);
const schemas: string[] = [];
afterAll(async () => {
  if (postgres.url !== undefined) await dropSchemas(postgres.url, schemas);
});

/** The stores the isolation cases run on: every tenant boundary holds on each. */
const STORES: { name: string; skip: boolean; open(clock: Clock): Promise<Store> | Store }[] = [
  { name: 'SQLite', skip: false, open: (clock) => openSqliteStore({ path: ':memory:', clock }) },
  {
    name: 'PostgreSQL',
    skip: postgres.url === undefined,
    open: (clock) => {
      const schema = freshSchemaName('tenancy');
      schemas.push(schema);
      return openPostgresStore({ url: postgres.url!, schema, secretKey: randomBytes(32), clock, poolSize: 3 });
    },
  },
];

/*
 * Tenants A (acme) and B (globex), each with an admin; the operator (the bootstrap client, in
 * `default`) sees both. B's admin and B's plain clients aim at A's objects and must get nowhere;
 * after each attempt the operator reads A's state to check nothing moved.
 */
describe.each(STORES.filter((store) => !store.skip))(
  'backoffice: tenant-bounded administration on $name',
  ({ open }) => {
    const clock = createManualClock(Date.parse('2026-06-01T00:00:00Z'));
    let store: Store;
    let engine: Engine;
    let app: ReturnType<typeof createApp>;
    let operator: Credential;
    let defaultAdmin: Credential;
    let adminA: Credential;
    let adminB: Credential;
    let victimA: Credential;
    let flowA: string;

    const made = async (tenantId: string, name: string, scopes?: readonly string[]): Promise<Credential> => {
      const client = await createClient(store, clock, { tenantId, name, ...(scopes ? { scopes } : {}) });
      return { clientId: client.client.clientId, secret: client.clientSecret };
    };

    beforeAll(async () => {
      store = await open(clock);
      engine = await createEngine({ store, clock });
      const auth = await createGatewayAuth({ store, clock });
      app = createApp({ engine, authenticator: auth, tokenGrant: auth, store, clock });
      await createTenant(store, clock, { id: 'default', name: 'Default' });
      await createTenant(store, clock, { id: 'acme', name: 'Acme' });
      await createTenant(store, clock, { id: 'globex', name: 'Globex' });
      operator = await made('default', 'admin', SCOPES);
      defaultAdmin = await made('default', 'default admin', TENANT_SCOPES);
      adminA = await made('acme', 'acme admin', TENANT_SCOPES);
      adminB = await made('globex', 'globex admin', TENANT_SCOPES);
      victimA = await made('acme', 'acme ci', ['flows:read', 'flows:write']);
      flowA = (await call('POST', '/api/gateway/flows', adminA, orderFlow('acme-secret-flow'))).json.data.id;
    });
    afterAll(async () => {
      await engine?.stop();
      await store?.close();
    });

    async function call(method: string, path: string, who: Credential | string, body?: unknown) {
      const headers: Record<string, string> =
        typeof who === 'string' ? { Authorization: `Bearer ${who}` } : { 'X-API-Key': who.secret };
      if (body !== undefined) headers['Content-Type'] = 'application/json';
      const response = await app.request(path, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: response.status, json: (await response.json()) as Json };
    }
    async function token(who: Credential, scope?: string) {
      const response = await app.request('/oauth/token', {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'client_credentials',
          client_id: who.clientId,
          client_secret: who.secret,
          ...(scope ? { scope } : {}),
        }).toString(),
      });
      return { status: response.status, json: (await response.json()) as Json };
    }
    /** What the operator sees of every tenant and of A's clients: the state no refused call may change. */
    const stateOfA = async () => ({
      tenants: (await call('GET', '/api/backoffice/tenants', operator)).json.data.items,
      clients: (await call('GET', '/api/backoffice/clients?tenantId=acme', operator)).json.data.items,
    });

    it("answers 403 or 404 on every backoffice route that B's admin aims at A, and changes nothing", async () => {
      const before = await stateOfA();
      // Two clients made in the same millisecond may list in either order.
      expect(before.clients.map((client: Json) => client.clientId).sort()).toEqual(
        [adminA.clientId, victimA.clientId].sort(),
      );
      const attempts: Array<[string, string, unknown, number, string]> = [
        ['GET', '/api/backoffice/tenants', undefined, 403, 'INSUFFICIENT_SCOPE'],
        ['POST', '/api/backoffice/tenants', { name: 'Takeover', id: 'takeover' }, 403, 'INSUFFICIENT_SCOPE'],
        ['GET', '/api/backoffice/clients?tenantId=acme', undefined, 403, 'INSUFFICIENT_SCOPE'],
        [
          'POST',
          '/api/backoffice/clients',
          { name: 'planted', tenantId: 'acme', scopes: ['flows:read'] },
          403,
          'INSUFFICIENT_SCOPE',
        ],
        ['POST', `/api/backoffice/clients/${victimA.clientId}/rotate`, undefined, 404, 'CLIENT_NOT_FOUND'],
        ['POST', `/api/backoffice/clients/${victimA.clientId}/revoke`, undefined, 404, 'CLIENT_NOT_FOUND'],
        ['POST', `/api/backoffice/clients/${adminA.clientId}/rotate`, undefined, 404, 'CLIENT_NOT_FOUND'],
      ];
      const bearerB = (await token(adminB)).json.access_token as string;
      for (const who of [adminB, bearerB]) {
        for (const [method, path, body, status, code] of attempts) {
          const answer = await call(method, path, who, body);
          expect({ path, status: answer.status, code: answer.json.error?.code }).toEqual({ path, status, code });
        }
      }
      // Another tenant's client id reads exactly as one that does not exist.
      const unknown = await call('POST', '/api/backoffice/clients/cli_nobody/rotate', adminB);
      const foreign = await call('POST', `/api/backoffice/clients/${victimA.clientId}/rotate`, adminB);
      expect(foreign.json.error.message.replace(victimA.clientId, 'X')).toBe(
        unknown.json.error.message.replace('cli_nobody', 'X'),
      );

      expect(await stateOfA()).toEqual(before);
      expect((await call('GET', '/api/gateway/flows', victimA)).status).toBe(200);
      // B's own tenant stays B's to manage.
      expect(
        (await call('GET', '/api/backoffice/clients', adminB)).json.data.items.map((client: Json) => client.tenantId),
      ).toEqual(['globex']);
      expect((await call('GET', '/api/backoffice/clients?tenantId=globex', adminB)).status).toBe(200);
    });

    it("reproduces the probe: a client of B cannot list, plant, rotate or read anything of A's", async () => {
      // The probe's client was made without scopes; now that means the least-privilege default.
      const probe = (await call('POST', '/api/backoffice/clients', adminB, { name: 'probe' })).json.data;
      expect(probe.scopes).toEqual([...DEFAULT_SCOPES]);
      const before = await stateOfA();
      for (const who of [{ clientId: probe.clientId, secret: probe.clientSecret }, adminB]) {
        expect((await call('GET', '/api/backoffice/clients?tenantId=acme', who)).status).toBe(403);
        expect((await call('POST', '/api/backoffice/clients', who, { name: 'planted', tenantId: 'acme' })).status).toBe(
          403,
        );
        const rotated = await call('POST', `/api/backoffice/clients/${victimA.clientId}/rotate`, who);
        expect([403, 404]).toContain(rotated.status);
        expect(rotated.json.data).toBeUndefined();
        // Reading A's flows: B's credentials see B's tenant only.
        expect((await call('GET', `/api/gateway/flows/${flowA}`, who)).status).toBe(404);
        expect((await call('GET', '/api/gateway/flows?search=acme', who)).json.data.items).toEqual([]);
      }
      expect(await stateOfA()).toEqual(before);
      // The victim's secret was not replaced: it still works, with no rotation pending.
      expect((await call('GET', `/api/gateway/flows/${flowA}`, victimA)).status).toBe(200);
      expect((await store.clients.get('acme', victimA.clientId))!.previousSecretExpiresAt).toBeNull();
    });

    it('lets the operator manage every tenant, and makes operator grantable by the operator only', async () => {
      const planted = await call('POST', '/api/backoffice/clients', operator, {
        name: 'acme bot',
        tenantId: 'acme',
        scopes: ['flows:read'],
      });
      expect(planted).toMatchObject({ status: 201, json: { data: { tenantId: 'acme', scopes: ['flows:read'] } } });
      expect(
        (await call('POST', `/api/backoffice/clients/${planted.json.data.clientId}/revoke`, operator)).status,
      ).toBe(200);
      expect((await call('POST', '/api/backoffice/tenants', operator, { name: 'Initech', id: 'initech' })).status).toBe(
        201,
      );

      const deputy = await call('POST', '/api/backoffice/clients', operator, { name: 'deputy', scopes: ['operator'] });
      expect(deputy).toMatchObject({ status: 201, json: { data: { tenantId: 'default', scopes: ['operator'] } } });
      expect(
        (
          await call('GET', '/api/backoffice/clients?tenantId=globex', {
            clientId: deputy.json.data.clientId,
            secret: deputy.json.data.clientSecret,
          })
        ).status,
      ).toBe(200);

      for (const admin of [adminB, defaultAdmin]) {
        const refused = await call('POST', '/api/backoffice/clients', admin, {
          name: 'escalate',
          scopes: ['flows:read', 'operator'],
        });
        expect(refused).toMatchObject({
          status: 403,
          json: { error: { code: 'SCOPE_NOT_GRANTABLE', details: { scopes: ['operator'] } } },
        });
        expect(refused.json.error.message).toContain('operator');
      }
      expect((await store.clients.list('globex')).some((client) => client.name === 'escalate')).toBe(false);
    });

    it('refuses to grant a scope the credential does not hold, a narrowed token included', async () => {
      // A token narrowed to `admin` still grants the tenant's scopes; one narrowed away from them does not.
      const narrowed = (await token(adminB, 'admin')).json.access_token as string;
      expect(
        (await call('POST', '/api/backoffice/clients', narrowed, { name: 'writer', scopes: ['flows:write'] })).status,
      ).toBe(201);
      const count = (await store.clients.list('globex')).length;
      const refused = await call('POST', '/api/backoffice/clients', narrowed, {
        name: 'deputy',
        scopes: ['operator', 'flows:read'],
      });
      expect(refused).toMatchObject({
        status: 403,
        json: { error: { code: 'SCOPE_NOT_GRANTABLE', details: { scopes: ['operator'] } } },
      });
      expect((await store.clients.list('globex')).length).toBe(count);

      // A tenant admin of the operator's own tenant cannot take the operator's client over by rotating it.
      const rotate = await call('POST', `/api/backoffice/clients/${operator.clientId}/rotate`, defaultAdmin);
      expect(rotate).toMatchObject({
        status: 403,
        json: { error: { code: 'SCOPE_NOT_GRANTABLE', details: { scopes: ['operator'] } } },
      });
      expect((await call('POST', `/api/backoffice/clients/${operator.clientId}/revoke`, defaultAdmin)).status).toBe(
        403,
      );
      expect((await call('GET', '/api/backoffice/tenants', operator)).status).toBe(200);
      expect((await store.clients.get('default', operator.clientId))!.previousSecretExpiresAt).toBeNull();
    });

    it('gives a client asked without scopes flows:read executions:run: it reads and runs, and administers nothing', async () => {
      const plain = (await call('POST', '/api/backoffice/clients', adminA, { name: 'no scopes asked', trial: true }))
        .json.data;
      expect(plain.scopes).toEqual(['flows:read', 'executions:run']);
      const key = { clientId: plain.clientId, secret: plain.clientSecret };
      expect((await call('GET', `/api/gateway/flows/${flowA}`, key)).status).toBe(200);
      expect((await call('POST', '/api/gateway/flows', key, orderFlow('not-mine'))).status).toBe(403);
      for (const path of ['/api/backoffice/clients', '/api/backoffice/tenants']) {
        expect((await call('GET', path, key)).json.error.code).toBe('INSUFFICIENT_SCOPE');
      }
      expect((await token(key)).json.scope).toBe('flows:read executions:run');
    });

    it('never lets a client made by a trial admin outlive it', async () => {
      const trialAdmin = (
        await call('POST', '/api/backoffice/clients', adminA, { name: 'trial admin', trial: true, scopes: ['admin'] })
      ).json.data;
      clock.advance(24 * 60 * 60 * 1000);
      const child = await call(
        'POST',
        '/api/backoffice/clients',
        { clientId: trialAdmin.clientId, secret: trialAdmin.clientSecret },
        { name: 'lasting', scopes: ['flows:read'] },
      );
      expect(child.status).toBe(201);
      expect(child.json.data.expiresAt).toBe(trialAdmin.expiresAt);
      const trialChild = await call(
        'POST',
        '/api/backoffice/clients',
        { clientId: trialAdmin.clientId, secret: trialAdmin.clientSecret },
        { name: 'trial', trial: true },
      );
      expect(trialChild.json.data.expiresAt).toBe(trialAdmin.expiresAt);
      expect(
        (await call('POST', '/api/backoffice/clients', adminA, { name: 'lasting' })).json.data.expiresAt,
      ).toBeNull();
    });

    it('answers 409 CLIENT_REVOKED to rotating or revoking a revoked client, and keeps the first revocation', async () => {
      const doomed = (await call('POST', '/api/backoffice/clients', adminA, { name: 'doomed', scopes: ['flows:read'] }))
        .json.data;
      const revoked = await call('POST', `/api/backoffice/clients/${doomed.clientId}/revoke`, adminA);
      expect(revoked.status).toBe(200);
      clock.advance(60_000);
      for (const action of ['rotate', 'revoke']) {
        const again = await call('POST', `/api/backoffice/clients/${doomed.clientId}/${action}`, adminA);
        expect(again).toMatchObject({
          status: 409,
          json: { error: { code: 'CLIENT_REVOKED', details: { revokedAt: revoked.json.data.revokedAt } } },
        });
        expect(again.json.data).toBeUndefined();
      }
      const stored = (await store.clients.get('acme', doomed.clientId))!;
      expect(new Date(stored.revokedAt!).toISOString()).toBe(revoked.json.data.revokedAt);
      expect(stored.previousSecretHash).toBeNull();
    });
  },
);
