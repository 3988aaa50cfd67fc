import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createEgressPolicy, parseEgressRules } from '@svc/engine';
import { openSqliteStore } from '@svc/engine/sqlite';
import { startGatewayServer, type GatewayServer } from '@svc/gateway';
import { chromium, type Browser, type Page } from 'playwright-core';
import { startDemoApi, type DemoApi } from '../../../examples/demo-api/server.js';

/** Debian's Chromium (`apt-get install chromium`; .ci/run installs it when missing). */
export const CHROMIUM = process.env.SVC_CHROMIUM ?? '/usr/bin/chromium';
/** The built app; `SVC_WEB_DIST` points the tests at another build (to compare two builds' figures). */
export const WEB_DIST = process.env.SVC_WEB_DIST ?? fileURLToPath(new URL('../dist/', import.meta.url));
/** Screenshots for review land here (packages/web/reports/…, not committed). */
export const SCREENSHOTS = fileURLToPath(new URL('../reports/screenshots/', import.meta.url));

export const CLIENT_ID = 'web-e2e-admin';
export const CLIENT_SECRET = `svc_sk_${'e2e-secret-'.repeat(4)}`;

export interface Harness {
  server: GatewayServer;
  demo: DemoApi;
  browser: Browser;
  api(method: string, path: string, body?: unknown): Promise<any>;
  close(): Promise<void>;
}

/** `svc serve` on a fresh store with the built web app, the demo API beside it, and Chromium. */
export async function startHarness(): Promise<Harness> {
  if (!existsSync(join(WEB_DIST, 'index.html'))) throw new Error('the web app is not built: run npm run build first');
  if (!existsSync(CHROMIUM)) throw new Error(`no Chromium at ${CHROMIUM}: apt-get install -y chromium`);
  mkdirSync(SCREENSHOTS, { recursive: true });
  const dir = mkdtempSync(join(tmpdir(), 'svc-web-e2e-'));
  const demo = await startDemoApi();
  const store = openSqliteStore({ path: join(dir, 'svc.db') });
  const server = await startGatewayServer({
    store,
    port: 0,
    host: '127.0.0.1',
    webRoot: WEB_DIST,
    bootstrap: { clientId: CLIENT_ID, clientSecret: CLIENT_SECRET },
    egress: createEgressPolicy({ mode: 'service', allow: parseEgressRules(`127.0.0.1:${demo.port}`, 'allow') }),
  });
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  const api = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${server.url}${path}`, {
      method,
      headers: { 'X-API-Key': CLIENT_SECRET, 'Content-Type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return ((await response.json()) as { data: unknown }).data;
  };
  return {
    server,
    demo,
    browser,
    api,
    async close() {
      await browser.close();
      await server.close();
      await store.close();
      await demo.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export async function signIn(page: Page): Promise<void> {
  await page.getByLabel('Client id', { exact: true }).fill(CLIENT_ID);
  await page.getByLabel('Client secret', { exact: true }).fill(CLIENT_SECRET);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('navigation', { name: 'Main' }).waitFor();
}

export const shot = (page: Page, name: string) => page.screenshot({ path: join(SCREENSHOTS, `${name}.png`) });
