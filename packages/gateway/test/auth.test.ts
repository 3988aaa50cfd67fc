import { createEgressPolicy, parseEgressRules, createEngine, createManualClock, type Engine } from '@svc/engine';
import { openSqliteStore } from '@svc/engine/sqlite';
import { createApp, createClient, createGatewayAuth, createTenant, SCOPES, type GatewayAuth } from '@svc/gateway';
import { decodeJwt, decodeProtectedHeader, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDemoApi, type DemoApi } from '../../../examples/demo-api/server.js';
import { hashSecret } from '../src/auth/secrets.js';
import { orderFlow } from './flows.js';

type Json = Record<string, any>;
const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;
/** Everything a tenant's own administrator may hold. */
const TENANT_SCOPES = SCOPES.filter((scope) => scope !== 'operator');

describe('authentication and tenancy', () => {
  const clock = createManualClock(Date.parse('2026-03-01T00:00:00Z'));
  let demo: DemoApi;
  let store: ReturnType<typeof openSqliteStore>;
  let engine: Engine;
  let auth: GatewayAuth;
  let app: ReturnType<typeof createApp>;
  let admin: { clientId: string; secret: string };
  let reader: { clientId: string; secret: string };
  let other: { clientId: string; secret: string };

  beforeAll(async () => {
    demo = await startDemoApi({ port: 0 });
    store = openSqliteStore({ path: ':memory:', clock });
    // The flows here call test servers on loopback, which svc serve refuses unless an operator allows it.
    engine = await createEngine({
      store,
      clock,
      egress: createEgressPolicy({ mode: 'service', allow: parseEgressRules('127.0.0.1', 'SVC_EGRESS_ALLOW') }),
    });
    auth = await createGatewayAuth({ store, clock });
    app = createApp({ engine, authenticator: auth, tokenGrant: auth });
    await createTenant(store, clock, { id: 'acme', name: 'Acme' });
    await createTenant(store, clock, { id: 'globex', name: 'Globex' });
    const made = await createClient(store, clock, { tenantId: 'acme', name: 'admin', scopes: TENANT_SCOPES });
    admin = { clientId: made.client.clientId, secret: made.clientSecret };
    const read = await createClient(store, clock, {
      tenantId: 'acme',
      name: 'reader',
      scopes: ['flows:read', 'executions:run'],
    });
    reader = { clientId: read.client.clientId, secret: read.clientSecret };
    const theirs = await createClient(store, clock, {
      tenantId: 'globex',
      name: 'globex admin',
      scopes: TENANT_SCOPES,
    });
    other = { clientId: theirs.client.clientId, secret: theirs.clientSecret };
  });
  afterAll(async () => {
    await engine?.stop();
    await store?.close();
    await demo?.close();
  });

  async function token(form: Record<string, string>, headers: Record<string, string> = {}) {
    const response = await app.request('/oauth/token', {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...headers },
      body: new URLSearchParams(form).toString(),
    });
    return { status: response.status, headers: response.headers, json: (await response.json()) as Json };
  }
  const grant = async (client: { clientId: string; secret: string }, scope?: string) =>
    (
      await token({
        grant_type: 'client_credentials',
        client_id: client.clientId,
        client_secret: client.secret,
        ...(scope ? { scope } : {}),
      })
    ).json.access_token as string;

  async function call(method: string, path: string, headers: Record<string, string>, body?: unknown) {
    const response = await app.request(path, {
      method,
      headers: body === undefined ? headers : { ...headers, 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, headers: response.headers, json: (await response.json()) as Json };
  }
  const bearer = (value: string) => ({ Authorization: `Bearer ${value}` });
  const basic = (id: string, secret: string) => ({
    Authorization: `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`,
  });

  describe('POST /oauth/token', () => {
    it('issues a signed at+jwt access token for form-field credentials, with no-store', async () => {
      const answer = await token({
        grant_type: 'client_credentials',
        client_id: admin.clientId,
        client_secret: admin.secret,
      });
      expect(answer.status).toBe(200);
      expect(answer.headers.get('cache-control')).toBe('no-store');
      expect(answer.json).toEqual({
        access_token: expect.any(String),
        token_type: 'Bearer',
        expires_in: 3600,
        scope: expect.any(String),
      });
      expect(answer.json.scope.split(' ')).toContain('flows:write');
      expect(answer.json.refresh_token).toBeUndefined();

      const header = decodeProtectedHeader(answer.json.access_token);
      expect(header).toMatchObject({ alg: 'EdDSA', typ: 'at+jwt', kid: expect.stringMatching(/^key_/) });
      const claims = decodeJwt(answer.json.access_token);
      expect(claims).toMatchObject({
        iss: 'urn:svc:gateway',
        sub: admin.clientId,
        aud: 'urn:svc:api',
        client_id: admin.clientId,
        tenant_id: 'acme',
        scope: answer.json.scope,
        iat: clock.now() / 1000,
        exp: clock.now() / 1000 + 3600,
      });
      expect(claims.jti).toMatch(/^[0-9a-f-]{36}$/);
    });

    it('accepts HTTP Basic client authentication', async () => {
      const answer = await token({ grant_type: 'client_credentials' }, basic(admin.clientId, admin.secret));
      expect(answer.status).toBe(200);
      expect(decodeJwt(answer.json.access_token).client_id).toBe(admin.clientId);
    });

    it('narrows the scopes to those asked for, and refuses scopes the client does not hold', async () => {
      const narrowed = await token({
        grant_type: 'client_credentials',
        client_id: reader.clientId,
        client_secret: reader.secret,
        scope: 'flows:read',
      });
      expect(narrowed.json.scope).toBe('flows:read');
      for (const scope of ['flows:write', 'flows:read admin', 'flows:nuke']) {
        const refused = await token({
          grant_type: 'client_credentials',
          client_id: reader.clientId,
          client_secret: reader.secret,
          scope,
        });
        expect(refused.status, scope).toBe(400);
        expect(refused.json.error, scope).toBe('invalid_scope');
        expect(refused.headers.get('cache-control')).toBe('no-store');
      }
    });

    it('answers RFC 6749 errors: invalid_request, unsupported_grant_type', async () => {
      expect((await token({ client_id: admin.clientId, client_secret: admin.secret })).json.error).toBe(
        'invalid_request',
      );
      const password = await token({ grant_type: 'password', client_id: admin.clientId, client_secret: admin.secret });
      expect(password).toMatchObject({ status: 400, json: { error: 'unsupported_grant_type' } });
      const json = await app.request('/oauth/token', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: '{"grant_type":"client_credentials"}',
      });
      expect(json.status).toBe(400);
      expect(((await json.json()) as Json).error).toBe('invalid_request');
      const twice = await app.request('/oauth/token', {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: `grant_type=client_credentials&client_id=${admin.clientId}&client_id=${other.clientId}&client_secret=${admin.secret}`,
      });
      expect(((await twice.json()) as Json).error).toBe('invalid_request');
      const both = await token(
        { grant_type: 'client_credentials', client_secret: admin.secret },
        basic(admin.clientId, admin.secret),
      );
      expect(both).toMatchObject({ status: 400, json: { error: 'invalid_request' } });
    });

    it('answers invalid_client alike for a wrong secret and an unknown client, with a Basic challenge only when Basic was used', async () => {
      const wrong = await token({
        grant_type: 'client_credentials',
        client_id: admin.clientId,
        client_secret: reader.secret,
      });
      const unknown = await token({
        grant_type: 'client_credentials',
        client_id: 'cli_nobody',
        client_secret: admin.secret,
      });
      expect(wrong).toMatchObject({ status: 401, json: { error: 'invalid_client' } });
      expect(unknown.json).toEqual(wrong.json);
      expect(wrong.headers.get('www-authenticate')).toBeNull();
      const viaBasic = await token({ grant_type: 'client_credentials' }, basic(admin.clientId, 'svc_sk_wrong'));
      expect(viaBasic).toMatchObject({ status: 401, json: { error: 'invalid_client' } });
      expect(viaBasic.headers.get('www-authenticate')).toBe('Basic realm="svc"');
      expect((await token({ grant_type: 'client_credentials', client_id: admin.clientId })).json.error).toBe(
        'invalid_client',
      );
    });
  });

  describe('bearer tokens and API keys', () => {
    it('lets a bearer token and the API key both reach the tenant’s flows', async () => {
      const created = await call('POST', '/api/gateway/flows', bearer(await grant(admin)), orderFlow('acme-flow'));
      expect(created.status).toBe(201);
      const viaKey = await call('GET', `/api/gateway/flows/${created.json.data.id}`, { 'X-API-Key': admin.secret });
      expect(viaKey.status).toBe(200);
      const run = await call('POST', `/api/gateway/flows/${created.json.data.id}/run`, bearer(await grant(reader)), {
        env: { baseUrl: demo.url },
      });
      expect(run.status).toBe(200);
      expect(run.json.data).toMatchObject({ status: 'Completed', trigger: { type: 'api', clientId: reader.clientId } });
    });

    it('answers missing credentials with 401 and the bare Bearer challenge', async () => {
      const answer = await call('GET', '/api/gateway/flows', {});
      expect(answer.status).toBe(401);
      expect(answer.headers.get('www-authenticate')).toBe('Bearer realm="svc"');
      expect(answer.json).toMatchObject({ success: false, error: { code: 'UNAUTHORIZED' } });
    });

    it('answers forged, foreign and expired tokens with 401 invalid_token', async () => {
      const good = await grant(admin);
      const [headerPart, payloadPart] = good.split('.');
      const kid = decodeProtectedHeader(good).kid!;
      const unsigned = `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'at+jwt', kid })).toString('base64url')}.${payloadPart}.`;
      const hmac = await new SignJWT(decodeJwt(good))
        .setProtectedHeader({ alg: 'HS256', typ: 'at+jwt', kid })
        .sign(new TextEncoder().encode('x'.repeat(32)));
      const tampered = `${headerPart}.${Buffer.from(JSON.stringify({ ...decodeJwt(good), tenant_id: 'globex' })).toString('base64url')}.${good.split('.')[2]}`;
      const otherAudience = (
        await (
          await createGatewayAuth({ store, clock, audience: 'urn:someone:else' })
        ).tokens.issue({ clientId: admin.clientId, tenantId: 'acme', scopes: ['flows:read'] })
      ).token;
      const otherStore = openSqliteStore({ path: ':memory:' });
      const foreignKey = (
        await (
          await createGatewayAuth({ store: otherStore, clock })
        ).tokens.issue({ clientId: admin.clientId, tenantId: 'acme', scopes: ['flows:read'] })
      ).token;
      await otherStore.close();

      for (const [label, value] of Object.entries({
        unsigned,
        hmac,
        tampered,
        otherAudience,
        foreignKey,
        garbage: 'not.a.jwt',
      })) {
        const answer = await call('GET', '/api/gateway/flows', bearer(value));
        expect(answer.status, label).toBe(401);
        expect(answer.headers.get('www-authenticate'), label).toMatch(
          /^Bearer realm="svc", error="invalid_token", error_description="/,
        );
        expect(answer.json.error.code, label).toBe('UNAUTHORIZED');
      }
      expect(
        (await call('GET', '/api/gateway/flows', { Authorization: `Basic ${Buffer.from('a:b').toString('base64')}` }))
          .status,
      ).toBe(401);

      expect((await call('GET', '/api/gateway/flows', bearer(good))).status).toBe(200);
      clock.advance(3600 * 1000);
      const expired = await call('GET', '/api/gateway/flows', bearer(good));
      expect(expired.status).toBe(401);
      expect(expired.json.error.message).toBe('the access token has expired');
    });

    it('answers a wrong API key with 401 invalid_token', async () => {
      const answer = await call('GET', '/api/gateway/flows', { 'X-API-Key': 'svc_sk_not-a-real-key' });
      expect(answer.status).toBe(401);
      expect(answer.headers.get('www-authenticate')).toMatch(/error="invalid_token"/);
    });

    it('enforces the scopes a token was narrowed to', async () => {
      const readOnly = await grant(admin, 'flows:read');
      expect((await call('GET', '/api/gateway/flows', bearer(readOnly))).status).toBe(200);
      const write = await call('POST', '/api/gateway/flows', bearer(readOnly), orderFlow('not-allowed'));
      expect(write.status).toBe(403);
      expect(write.headers.get('www-authenticate')).toBe(
        'Bearer realm="svc", error="insufficient_scope", scope="flows:write"',
      );
      expect(write.json.error.code).toBe('INSUFFICIENT_SCOPE');
      expect((await call('GET', '/api/gateway/suites', { 'X-API-Key': reader.secret })).status).toBe(403);
    });

    it("answers another tenant's flow exactly as an unknown flow", async () => {
      const flow = (await call('POST', '/api/gateway/flows', { 'X-API-Key': admin.secret }, orderFlow('acme-private')))
        .json.data;
      const theirs = await call('GET', `/api/gateway/flows/${flow.id}`, bearer(await grant(other)));
      const unknown = await call('GET', '/api/gateway/flows/flw_unknown', bearer(await grant(other)));
      expect(theirs.status).toBe(404);
      expect(theirs.json).toEqual({
        success: false,
        error: { code: 'FLOW_NOT_FOUND', message: `flow "${flow.id}" not found` },
      });
      expect(unknown.json).toEqual({
        success: false,
        error: { code: 'FLOW_NOT_FOUND', message: 'flow "flw_unknown" not found' },
      });
      const list = await call('GET', '/api/gateway/flows', { 'X-API-Key': other.secret });
      expect(list.json.data.items.map((item: Json) => item.id)).not.toContain(flow.id);
    });
  });

  describe('keys and client lifecycle', () => {
    it('generates the signing key once and keeps it in the store, so tokens survive a restart', async () => {
      const before = await grant(admin);
      const restarted = await createGatewayAuth({ store, clock });
      expect(await store.signingKeys.list()).toHaveLength(1);
      const again = createApp({ engine, authenticator: restarted, tokenGrant: restarted });
      expect((await again.request('/api/gateway/flows', { headers: bearer(before) })).status).toBe(200);
    });

    it('revokes a client at once: its secret, its API key and the tokens it already holds', async () => {
      const made = await createClient(store, clock, { tenantId: 'acme', name: 'doomed' });
      const live = await grant({ clientId: made.client.clientId, secret: made.clientSecret });
      expect((await call('GET', '/api/gateway/flows', bearer(live))).status).toBe(200);
      await store.clients.revoke('acme', made.client.clientId, clock.now());
      const withToken = await call('GET', '/api/gateway/flows', bearer(live));
      expect(withToken.status).toBe(401);
      expect(withToken.json.error.message).toBe('the client has been revoked');
      expect((await call('GET', '/api/gateway/flows', { 'X-API-Key': made.clientSecret })).status).toBe(401);
      const newToken = await token({
        grant_type: 'client_credentials',
        client_id: made.client.clientId,
        client_secret: made.clientSecret,
      });
      expect(newToken).toMatchObject({
        status: 401,
        json: { error: 'invalid_client', error_description: 'the client has been revoked' },
      });
    });

    it('stops a trial client 14 days after creation, saying so', async () => {
      const made = await createClient(store, clock, { tenantId: 'acme', name: 'trial', trial: true });
      expect(made.client.expiresAt).toBe(clock.now() + 14 * DAY);
      const key = { 'X-API-Key': made.clientSecret };
      clock.advance(14 * DAY - 1);
      expect((await call('GET', '/api/gateway/flows', key)).status).toBe(200);
      const live = await grant({ clientId: made.client.clientId, secret: made.clientSecret });
      clock.advance(1);
      const expired = await call('GET', '/api/gateway/flows', key);
      expect(expired.status).toBe(401);
      expect(expired.json.error.message).toMatch(/^the trial credential expired on \d{4}-/);
      expect((await call('GET', '/api/gateway/flows', bearer(live))).status).toBe(401);
      const refused = await token({
        grant_type: 'client_credentials',
        client_id: made.client.clientId,
        client_secret: made.clientSecret,
      });
      expect(refused.json.error_description).toMatch(/trial credential expired/);
    });

    it('keeps the previous secret working through the rotation grace period, then not', async () => {
      const made = await createClient(store, clock, { tenantId: 'acme', name: 'rotating' });
      const fresh = 'svc_sk_' + 'r'.repeat(43);
      await store.clients.rotateSecret('acme', made.client.clientId, {
        secretHash: hashSecret(fresh),
        previousSecretExpiresAt: clock.now() + DAY,
      });
      expect((await call('GET', '/api/gateway/flows', { 'X-API-Key': made.clientSecret })).status).toBe(200);
      expect((await call('GET', '/api/gateway/flows', { 'X-API-Key': fresh })).status).toBe(200);
      clock.advance(DAY);
      expect((await call('GET', '/api/gateway/flows', { 'X-API-Key': made.clientSecret })).status).toBe(401);
      expect(
        (
          await token({
            grant_type: 'client_credentials',
            client_id: made.client.clientId,
            client_secret: made.clientSecret,
          })
        ).status,
      ).toBe(401);
      expect((await call('GET', '/api/gateway/flows', { 'X-API-Key': fresh })).status).toBe(200);
    });

    it('stores secrets only as hashes', async () => {
      const made = await createClient(store, clock, { tenantId: 'acme', name: 'hashed' });
      expect(made.clientSecret).toMatch(/^svc_sk_[A-Za-z0-9_-]{43}$/);
      const stored = await store.clients.get('acme', made.client.clientId);
      expect(JSON.stringify(stored)).not.toContain(made.clientSecret.slice(7));
      expect(stored!.secretHash).toMatch(/^[0-9a-f]{64}$/);
    });
  });
});
