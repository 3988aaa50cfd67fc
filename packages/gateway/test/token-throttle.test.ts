import { request } from 'node:http';
import { createEngine, createManualClock, type Engine } from '@svc/engine';
import { openSqliteStore } from '@svc/engine/sqlite';
import {
  createApp,
  createClient,
  createGatewayAuth,
  createTenant,
  startGatewayServer,
  TOKEN_THROTTLE_DEFAULTS,
} from '@svc/gateway';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { addressKey } from '../src/auth/token-throttle.js';

type Json = Record<string, any>;
const MINUTE = 60 * 1000;
const { failuresPerClient, failuresPerAddress, windowMs } = TOKEN_THROTTLE_DEFAULTS;

/*
 * The throttle on failed `POST /oauth/token` attempts, with the documented defaults: 10 failures
 * per (client id, address) and 50 per address within 15 minutes. The address is the TCP peer,
 * which the Node server hands the app as `env.incoming.socket`; the tests pass the same.
 */
describe('POST /oauth/token: throttling failed attempts', () => {
  const clock = createManualClock(Date.parse('2026-07-01T00:00:00Z'));
  let store: ReturnType<typeof openSqliteStore>;
  let engine: Engine;
  let app: ReturnType<typeof createApp>;
  let valid: { clientId: string; secret: string };

  beforeAll(async () => {
    store = openSqliteStore({ path: ':memory:', clock });
    engine = await createEngine({ store, clock });
    await createTenant(store, clock, { id: 'acme', name: 'Acme' });
  });
  beforeEach(async () => {
    // A fresh app (and so fresh counters) and a fresh client per test.
    const auth = await createGatewayAuth({ store, clock });
    app = createApp({ engine, authenticator: auth, tokenGrant: auth, store, clock });
    const made = await createClient(store, clock, { tenantId: 'acme', name: 'ci' });
    valid = { clientId: made.client.clientId, secret: made.clientSecret };
  });
  afterAll(async () => {
    await engine?.stop();
    await store?.close();
  });

  async function token(from: string, clientId: string, secret: string) {
    const response = await app.request(
      '/oauth/token',
      {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'client_credentials',
          client_id: clientId,
          client_secret: secret,
        }).toString(),
      },
      { incoming: { socket: { remoteAddress: from } } },
    );
    return {
      status: response.status,
      retryAfter: response.headers.get('retry-after'),
      json: (await response.json()) as Json,
    };
  }
  const attacker = '203.0.113.7';
  const ci = '198.51.100.20';
  const wrong = `svc_sk_${'x'.repeat(43)}`;

  it('answers 429 with Retry-After after 10 failures for one client id from one address, even to the right secret', async () => {
    for (let i = 0; i < failuresPerClient; i += 1)
      expect((await token(attacker, valid.clientId, wrong)).status).toBe(401);
    const limited = await token(attacker, valid.clientId, wrong);
    expect(limited).toMatchObject({
      status: 429,
      retryAfter: String(windowMs / 1000),
      json: { error: 'temporarily_unavailable' },
    });
    expect(limited.json.error_description).toMatch(/too many failed attempts/);
    // Once over the limit the secret is not even looked at, or the limit would not slow guessing.
    expect((await token(attacker, valid.clientId, valid.secret)).status).toBe(429);
    clock.advance(5 * MINUTE);
    expect((await token(attacker, valid.clientId, wrong)).retryAfter).toBe(String(windowMs / 1000 - 5 * 60));
  });

  it('keeps issuing tokens to the valid client from its own address while an attacker hammers its id', async () => {
    for (let i = 0; i < 3 * failuresPerClient; i += 1) {
      await token(attacker, valid.clientId, wrong);
      const mine = await token(ci, valid.clientId, valid.secret);
      expect(mine.status).toBe(200);
      expect(mine.json.access_token).toEqual(expect.any(String));
    }
    expect((await token(attacker, valid.clientId, wrong)).status).toBe(429);
  });

  it('limits an address to 50 failures whatever client ids it tries, leaving other addresses alone', async () => {
    for (let i = 0; i < failuresPerAddress; i += 1)
      expect((await token(attacker, `cli_guess_${i}`, wrong)).status).toBe(401);
    const limited = await token(attacker, 'cli_guess_new', wrong);
    expect(limited.status).toBe(429);
    expect(Number(limited.retryAfter)).toBeGreaterThan(0);
    expect((await token(attacker, valid.clientId, valid.secret)).status).toBe(429);
    expect((await token(ci, valid.clientId, valid.secret)).status).toBe(200);
    expect((await token('198.51.100.21', 'cli_guess_new', wrong)).status).toBe(401);
  });

  it('lets the address try again once the window has passed', async () => {
    for (let i = 0; i <= failuresPerClient; i += 1) await token(attacker, valid.clientId, wrong);
    expect((await token(attacker, valid.clientId, valid.secret)).status).toBe(429);
    clock.advance(windowMs - 1);
    expect((await token(attacker, valid.clientId, valid.secret)).retryAfter).toBe('1');
    clock.advance(1);
    expect((await token(attacker, valid.clientId, valid.secret)).status).toBe(200);
  });

  it('does not count successes, and a success clears its address failures for that client id', async () => {
    for (let i = 0; i < failuresPerClient - 1; i += 1)
      expect((await token(ci, valid.clientId, wrong)).status).toBe(401);
    expect((await token(ci, valid.clientId, valid.secret)).status).toBe(200);
    for (let i = 0; i < failuresPerClient - 1; i += 1)
      expect((await token(ci, valid.clientId, wrong)).status).toBe(401);
    for (let i = 0; i < 2 * failuresPerClient; i += 1)
      expect((await token(ci, valid.clientId, valid.secret)).status).toBe(200);
  });

  it('trusts the TCP peer only, never X-Forwarded-For', async () => {
    for (let i = 0; i <= failuresPerClient; i += 1) {
      const response = await app.request(
        '/oauth/token',
        {
          method: 'POST',
          headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'X-Forwarded-For': `192.0.2.${i}` },
          body: new URLSearchParams({
            grant_type: 'client_credentials',
            client_id: valid.clientId,
            client_secret: wrong,
          }).toString(),
        },
        { incoming: { socket: { remoteAddress: attacker } } },
      );
      expect(response.status).toBe(i < failuresPerClient ? 401 : 429);
    }
  });

  it('counts over-long client ids (never valid) under one bounded key', async () => {
    const long = 'x'.repeat(200);
    for (let i = 0; i < failuresPerClient; i += 1)
      expect((await token(attacker, `${long}${i}`, wrong)).status).toBe(401);
    expect((await token(attacker, `${long}new`, wrong)).status).toBe(429);
    expect((await token(attacker, valid.clientId, valid.secret)).status).toBe(200);
  });

  it('reads the address from the real connection of a served process', async () => {
    const server = await startGatewayServer({ store, port: 0, host: '127.0.0.1', clock });
    const post = (localAddress: string, secret: string) =>
      new Promise<number>((resolve, reject) => {
        const body = new URLSearchParams({
          grant_type: 'client_credentials',
          client_id: valid.clientId,
          client_secret: secret,
        }).toString();
        const outgoing = request(
          {
            host: '127.0.0.1',
            port: server.port,
            localAddress,
            method: 'POST',
            path: '/oauth/token',
            headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
          },
          (response) => {
            response.resume();
            response.on('end', () => resolve(response.statusCode!));
          },
        );
        outgoing.on('error', reject);
        outgoing.end(body);
      });
    try {
      for (let i = 0; i < failuresPerClient; i += 1) expect(await post('127.0.0.2', wrong)).toBe(401);
      expect(await post('127.0.0.2', valid.secret)).toBe(429);
      expect(await post('127.0.0.1', valid.secret)).toBe(200);
    } finally {
      await server.close();
    }
  });

  it('counts IPv6 addresses by their /64 and IPv4-mapped ones as IPv4', () => {
    expect(addressKey('2001:db8:1:2::1')).toBe(addressKey('2001:db8:1:2:ffff:0:0:7'));
    expect(addressKey('2001:db8:1:2::1')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:db8:1:3::1')).not.toBe(addressKey('2001:db8:1:2::1'));
    expect(addressKey('::1')).toBe('0:0:0:0::/64');
    expect(addressKey('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(addressKey('203.0.113.7')).toBe('203.0.113.7');
  });
});
