import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEngine, type Engine } from '@svc/engine';
import { openSqliteStore } from '@svc/engine/sqlite';
import { createApp } from '@svc/gateway';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { stubAuthenticator } from './stub-authenticator.js';

describe('GET /health', () => {
  let dir: string;
  let store: ReturnType<typeof openSqliteStore>;
  let engine: Engine;
  let closed: boolean;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'svc-health-'));
    store = openSqliteStore({ path: join(dir, 'svc.db') });
    engine = await createEngine({ store });
    closed = false;
  });
  afterEach(async () => {
    await engine.stop();
    if (!closed) await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers 200 with the store ok, without credentials', async () => {
    const app = createApp({ engine, authenticator: stubAuthenticator({}), store });
    const response = await app.request('/health');
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(await response.json()).toEqual({ status: 'ok', store: 'ok' });
  });

  it('answers 503 naming the failure once the store cannot be read', async () => {
    const app = createApp({ engine, authenticator: stubAuthenticator({}), store });
    await store.close();
    closed = true;
    const response = await app.request('/health');
    expect(response.status).toBe(503);
    const body = (await response.json()) as { status: string; store: string; error: string };
    expect(body).toMatchObject({ status: 'unavailable', store: 'unavailable' });
    expect(body.error).toBe('the store could not be read');
  });

  it('reads the store through the engine when the app is given no store', async () => {
    const app = createApp({ engine, authenticator: stubAuthenticator({}) });
    expect((await app.request('/health')).status).toBe(200);
    await store.close();
    closed = true;
    expect((await app.request('/health')).status).toBe(503);
  });

  it('is described in the OpenAPI document', async () => {
    const app = createApp({ engine, authenticator: stubAuthenticator({}), store });
    const document = (await (await app.request('/api/openapi.json')).json()) as {
      paths: Record<string, { get?: { responses: Record<string, unknown> } }>;
    };
    expect(Object.keys(document.paths['/health']!.get!.responses).sort()).toEqual(['200', '503']);
  });
});
