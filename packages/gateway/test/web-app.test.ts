import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEngine, type Engine } from '@svc/engine';
import { openSqliteStore } from '@svc/engine/sqlite';
import { createApp } from '@svc/gateway';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stubAuthenticator } from './stub-authenticator.js';

describe('the web app served at /', () => {
  let dir: string;
  let engine: Engine;
  let store: ReturnType<typeof openSqliteStore>;
  let app: ReturnType<typeof createApp>;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'svc-web-root-'));
    mkdirSync(join(dir, 'assets'));
    writeFileSync(
      join(dir, 'index.html'),
      '<!doctype html><title>svc</title><script src="/assets/index-abc123.js"></script>',
    );
    writeFileSync(join(dir, 'assets', 'index-abc123.js'), 'console.log("app");'.repeat(100));
    writeFileSync(join(dir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
    writeFileSync(join(tmpdir(), 'svc-web-outside.txt'), 'FILE-BEYOND-THE-ROOT');
    store = openSqliteStore({ path: ':memory:' });
    engine = await createEngine({ store });
    app = createApp({ engine, authenticator: stubAuthenticator({}), webRoot: dir });
  });
  afterAll(async () => {
    await engine?.stop();
    await store?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers / and any app path with index.html, never cached, with the page’s security headers', async () => {
    for (const path of ['/', '/flows/flw_1', '/backoffice']) {
      const response = await app.request(path);
      expect(response.status, path).toBe(200);
      expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(response.headers.get('cache-control')).toBe('no-cache');
      expect(response.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
      expect(await response.text()).toContain('<title>svc</title>');
    }
  });

  it('serves hashed assets with a year-long immutable cache, compressed when asked', async () => {
    const response = await app.request('/assets/index-abc123.js', { headers: { 'Accept-Encoding': 'gzip' } });
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(response.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(response.headers.get('content-encoding')).toBe('gzip');
    const plain = await app.request('/favicon.svg');
    expect(plain.headers.get('cache-control')).toBe('no-cache');
    expect(plain.headers.get('content-type')).toBe('image/svg+xml');
  });

  it('answers 404 for a missing asset and for paths that climb out of the folder', async () => {
    for (const path of [
      '/assets/missing.js',
      '/assets/..%2f..%2fsvc-web-outside.txt',
      '/..%2fsvc-web-outside.txt',
      '/%2e%2e/x.txt',
    ]) {
      const response = await app.request(path);
      expect(response.status, path).toBe(404);
      expect(await response.text()).not.toContain('FILE-BEYOND-THE-ROOT');
    }
  });

  it('leaves /api, /oauth, /webhooks and /health to their own routes', async () => {
    const api = await app.request('/api/nothing-here');
    expect(api.status).toBe(401);
    const unknown = await app.request('/webhooks/nothing');
    expect(unknown.headers.get('content-type')).toContain('application/json');
    expect((await app.request('/oauth/anything')).headers.get('content-type')).toContain('application/json');
    expect((await app.request('/health')).status).toBe(200);
  });

  it('says the app is not built when its folder has no index.html', async () => {
    const bare = createApp({ engine, authenticator: stubAuthenticator({}), webRoot: join(dir, 'assets') });
    const response = await bare.request('/');
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({
      error: { code: 'NOT_FOUND', message: expect.stringContaining('npm run build') },
    });
  });
});
