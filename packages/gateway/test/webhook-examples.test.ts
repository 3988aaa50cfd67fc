import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { egressPolicyOf, loadConfig, parseFlowText } from '@svc/engine';
import { openSqliteStore } from '@svc/engine/sqlite';
import { startGatewayServer, type GatewayServer } from '@svc/gateway';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDemoApi, type DemoApi } from '../../../examples/demo-api/server.js';
import { spawnSvc } from './cli.js';
import { startServe } from './serve-process.js';

type Json = Record<string, any>;

const FLOW_FILE = fileURLToPath(new URL('../../../examples/flows/job-callback.yaml', import.meta.url));
const CALLBACK_SECRET = 'demo-callback-secret-3c9e';
const BOOTSTRAP_SECRET = `svc_sk_${'e'.repeat(43)}`;

let demo: DemoApi;
beforeAll(async () => {
  demo = await startDemoApi({ port: 0 });
});
afterAll(async () => {
  await demo?.close();
});

describe('examples/flows/job-callback.yaml against the demo API', () => {
  let dir: string;
  let server: GatewayServer;
  let store: ReturnType<typeof openSqliteStore>;
  const headers = { 'X-API-Key': BOOTSTRAP_SECRET, 'Content-Type': 'application/json' };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'svc-job-callback-'));
    store = openSqliteStore({ path: join(dir, 'svc.db') });
    server = await startGatewayServer({
      store,
      port: 0,
      host: '127.0.0.1',
      bootstrap: { clientId: 'examples', clientSecret: BOOTSTRAP_SECRET },
      egress: egressPolicyOf(loadConfig({ SVC_EGRESS_ALLOW: `127.0.0.1:${demo.port}` }), 'service'),
    });
  });
  afterAll(async () => {
    await server?.close();
    await store?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('runs over REST: the demo job calls back signed, the wait verifies it and the run completes', async () => {
    const document = parseFlowText(readFileSync(FLOW_FILE, 'utf8'), FLOW_FILE);
    const saved = await fetch(`${server.url}/api/gateway/flows`, {
      method: 'POST',
      headers,
      body: JSON.stringify(document),
    });
    expect(saved.status).toBe(201);
    const flowId = ((await saved.json()) as Json).data.id as string;
    const environment = await fetch(`${server.url}/api/gateway/environments`, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        name: 'demo',
        variables: { baseUrl: demo.url, callbackSecret: CALLBACK_SECRET },
        secretKeys: ['callbackSecret'],
      }),
    });
    expect(environment.status).toBe(201);
    const run = await fetch(`${server.url}/api/gateway/flows/${flowId}/run?waitMs=15000`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ env: 'demo' }),
    });
    const execution = ((await run.json()) as Json).data as Json;
    expect(execution.status).toBe('Completed');
    expect(execution.outputs).toEqual({ status: 'COMPLETED', reportId: `rep-${execution.executionId}` });
    // The secret the job was given to sign with is kept out of the trace.
    expect(JSON.stringify(execution.steps)).not.toContain(CALLBACK_SECRET);
  });
});

describe('svc run flow on a flow that waits for a callback', () => {
  let dir: string;
  let serve: Awaited<ReturnType<typeof startServe>>;
  let env: Record<string, string>;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'svc-job-callback-cli-'));
    env = {
      SVC_DB: join(dir, 'svc.db'),
      SVC_BOOTSTRAP_CLIENT_ID: 'examples',
      SVC_BOOTSTRAP_CLIENT_SECRET: BOOTSTRAP_SECRET,
      SVC_EGRESS_ALLOW: `127.0.0.1:${demo.port}`,
    };
    serve = await startServe(env);
    // The command line tells the job to call back where svc serve listens.
    env.SVC_PUBLIC_URL = serve.url;
    const set = await spawnSvc(
      ['env', 'set', 'demo', `baseUrl=${demo.url}`, '--secret', `callbackSecret=${CALLBACK_SECRET}`],
      env,
    ).done;
    expect(set.code, set.stderr).toBe(0);
  });
  afterAll(async () => {
    serve?.child.kill('SIGTERM');
    await serve?.done;
    rmSync(dir, { recursive: true, force: true });
  });

  it('prints the callback URL and waits until svc serve has taken the callback', async () => {
    const result = await spawnSvc(['run', 'flow', FLOW_FILE, '--environment', 'demo', '--json'], env).done;
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain(`waits for POST ${serve.url}/webhooks/callback/cb_`);
    const execution = JSON.parse(result.stdout) as Json;
    expect(execution.status).toBe('Completed');
    expect(execution.outputs.status).toBe('COMPLETED');
  });

  it('with --no-wait, returns as the run waits and leaves it to svc serve', async () => {
    const result = await spawnSvc(['run', 'flow', FLOW_FILE, '--environment', 'demo', '--json', '--no-wait'], env).done;
    expect(result.code, result.stderr).toBe(0);
    const execution = JSON.parse(result.stdout) as Json;
    expect(execution.status).toBe('Waiting');
    expect(execution.waits[0].callbackUrl).toContain(`${serve.url}/webhooks/callback/cb_`);
    const read = async () =>
      (
        (await (
          await fetch(`${serve.url}/api/gateway/executions/${execution.executionId}`, {
            headers: { 'X-API-Key': BOOTSTRAP_SECRET },
          })
        ).json()) as Json
      ).data as Json;
    let view = await read();
    for (let tries = 0; tries < 100 && view.status !== 'Completed'; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      view = await read();
    }
    expect(view.status).toBe('Completed');
  });
});
