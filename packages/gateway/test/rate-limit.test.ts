import { createEngine, createManualClock, type Engine } from '@svc/engine';
import { openSqliteStore } from '@svc/engine/sqlite';
import { createApp } from '@svc/gateway';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stubAuthenticator } from './stub-authenticator.js';

describe('per-client rate limit', () => {
  const clock = createManualClock();
  let store: ReturnType<typeof openSqliteStore>;
  let engine: Engine;
  let app: ReturnType<typeof createApp>;

  beforeAll(async () => {
    store = openSqliteStore({ path: ':memory:' });
    engine = await createEngine({ store });
    // 60 a minute is one a second; a burst of 3.
    app = createApp({
      engine,
      authenticator: stubAuthenticator({ one: { tenantId: 't' }, two: { tenantId: 't' } }),
      clock,
      rateLimit: { requestsPerMinute: 60, burst: 3 },
    });
  });
  afterAll(async () => {
    await engine?.stop();
    await store?.close();
  });

  const get = (key: string) => app.request('/api/gateway/flows', { headers: { 'X-API-Key': key } });

  it('answers 429 with Retry-After past the burst, per client, and lets requests through again as time passes', async () => {
    for (let i = 0; i < 3; i += 1) expect((await get('one')).status).toBe(200);
    const limited = await get('one');
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('1');
    expect(await limited.json()).toMatchObject({
      success: false,
      error: { code: 'RATE_LIMITED', details: { retryAfterSeconds: 1 } },
    });

    expect((await get('two')).status).toBe(200);

    clock.advance(999);
    expect((await get('one')).status).toBe(429);
    clock.advance(1);
    expect((await get('one')).status).toBe(200);
    expect((await get('one')).status).toBe(429);
    clock.advance(10_000);
    for (let i = 0; i < 3; i += 1) expect((await get('one')).status).toBe(200);
    expect((await get('one')).status).toBe(429);
  });
});
