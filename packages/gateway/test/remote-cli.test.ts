import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDemoApi, type DemoApi } from '../../../examples/demo-api/server.js';
import { spawnSvc } from './cli.js';
import { startServe } from './serve-process.js';
import { findAll, parseXml } from './xml-tree.js';

type Json = Record<string, any>;

/*
 * Remote mode: the command line against a real `svc serve` process over REST (`--api-url` or
 * `SVC_API_URL`, with `SVC_API_KEY`). The commands' own `SVC_DB` names a file that must never
 * appear: in remote mode nothing is read from or written to an embedded store.
 */

const KEY = `svc_sk_${'r'.repeat(43)}`;
let demo: DemoApi;
let dir: string;
let server: Awaited<ReturnType<typeof startServe>>;
let localDb: string;

beforeAll(async () => {
  demo = await startDemoApi({ port: 0 });
  dir = mkdtempSync(join(tmpdir(), 'svc-remote-cli-'));
  localDb = join(dir, 'local', 'never.db');
  server = await startServe({
    SVC_DB: join(dir, 'served.db'),
    SVC_EGRESS_ALLOW: '127.0.0.1',
    SVC_BOOTSTRAP_CLIENT_ID: 'pipeline',
    SVC_BOOTSTRAP_CLIENT_SECRET: KEY,
  });
}, 30_000);
afterAll(async () => {
  server?.child.kill('SIGTERM');
  await server?.done;
  await demo?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** `svc …` with the key in SVC_API_KEY and the service named by `--api-url` (or by SVC_API_URL with `viaEnv`). */
function svc(args: string[], options: { viaEnv?: boolean; key?: string } = {}) {
  const env: Record<string, string> = { SVC_DB: localDb, SVC_API_KEY: options.key ?? KEY };
  if (options.viaEnv) env.SVC_API_URL = server.url;
  return spawnSvc(options.viaEnv ? args : [...args, '--api-url', server.url], env).done;
}

function files(name: string, contents: Record<string, string>): string {
  const root = join(dir, name);
  for (const [path, text] of Object.entries(contents)) {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

const call = (name: string, path: string, status = 200) =>
  `name: ${name}\nnodes:\n  - { id: a, name: Call, type: endpoint, config: { url: "{{env.baseUrl}}${path}", assertions: [ { target: statusCode, operator: "==", value: ${status} } ] } }\nconnections: []\n`;

describe('svc against a running svc serve', () => {
  it('runs a suite file there: flows and suite saved by name, JUnit from the served run, the failing step read back', async () => {
    const root = files('gate', {
      'suite.yaml':
        'name: remote-gate\noptions: { mode: parallel, concurrency: 2 }\nflows: [flows/health.yaml, flows/missing.yaml]\n',
      'flows/health.yaml': call('remote-health', '/health'),
      'flows/missing.yaml': call('remote-missing', '/orders/nope'),
    });
    const report = join(root, 'report.xml');
    const result = await svc([
      'run',
      'suite',
      join(root, 'suite.yaml'),
      '--env',
      `baseUrl=${demo.url}`,
      '--reporter',
      'junit',
      '--output',
      report,
    ]);
    expect(result.code, result.stderr).toBe(1);
    expect(result.stderr).toContain(`running suite "remote-gate" (2 flows) on ${server.url}`);
    expect(result.stderr).toMatch(/^\[\d\/2\] FAIL {2}remote-missing/m);
    const cases = findAll(parseXml(readFileSync(report, 'utf8')), 'testcase');
    expect(cases.map((testcase) => testcase.attributes.name)).toEqual(['remote-health', 'remote-missing']);
    const [failure] = findAll(cases[1]!, 'failure');
    expect(failure!.attributes.message).toBe('Call: ASSERTION_FAILED: statusCode == 200 (got 404)');
    expect(failure!.text).toContain(`request: GET ${demo.url}/orders/nope`);
    expect(failure!.text).toContain('response: 404');

    // The service holds the flows and the suite now; a second run saves no new version.
    expect(
      (await svc(['run', 'suite', join(root, 'suite.yaml'), '--env', `baseUrl=${demo.url}`, '--quiet'])).code,
    ).toBe(1);
    const flows = JSON.parse((await svc(['flows', 'list', '--search', 'remote-', '--json'])).stdout) as Json;
    expect(flows.items.map((flow: Json) => [flow.name, flow.version]).sort()).toEqual([
      ['remote-health', 1],
      ['remote-missing', 1],
    ]);
    expect(existsSync(localDb)).toBe(false);
  });

  it('runs a saved suite by name with SVC_API_URL, and a flow file and a saved flow', async () => {
    const root = files('flows', {
      'suite.yaml': 'name: remote-green\nflows: [ok.yaml]\n',
      'ok.yaml': call('remote-ok', '/health'),
    });
    expect((await svc(['run', 'suite', join(root, 'suite.yaml'), '--env', `baseUrl=${demo.url}`])).code).toBe(0);
    const byName = await svc(['run', 'suite', 'remote-green', '--env', `baseUrl=${demo.url}`, '--json'], {
      viaEnv: true,
    });
    expect(byName.code, byName.stderr).toBe(0);
    expect(JSON.parse(byName.stdout)).toMatchObject({ suiteName: 'remote-green', status: 'passed', ranOn: server.url });

    const file = await svc(['run', 'flow', join(root, 'ok.yaml'), '--env', `baseUrl=${demo.url}`]);
    expect(file.code, file.stderr).toBe(0);
    expect(file.stdout).toMatch(/^Completed in \d+ ms · 1 nodes executed/m);
    expect(file.stderr).toMatch(/^ +1 Call {2}Completed 200/m);
    const saved = await svc(['run', 'flow', 'remote-ok', '--env', `baseUrl=${demo.url}`, '--json'], { viaEnv: true });
    expect(saved.code).toBe(0);
    const execution = JSON.parse(saved.stdout) as Json;
    expect(execution).toMatchObject({ status: 'Completed', flowName: 'remote-ok' });

    // The executions and the trace, read back over REST.
    const listed = JSON.parse((await svc(['executions', 'list', '--flow', 'remote-ok', '--json'])).stdout) as Json;
    expect(listed.items[0].executionId).toBe(execution.executionId);
    const trace = await svc(['executions', 'get', execution.executionId]);
    expect(trace.code).toBe(0);
    expect(trace.stdout).toContain('remote-ok');
    const got = await svc(['flows', 'get', 'remote-ok']);
    expect(got.stdout).toMatch(/^name: remote-ok$/m);
    expect(existsSync(localDb)).toBe(false);
  });

  it('refuses a flow file the service does not accept with its problems and lines, and answers errors as locally', async () => {
    const root = files('bad', {
      'bad.yaml': 'name: remote-bad\nnodes:\n  - { id: a, name: A, type: warp }\nconnections: []\n',
    });
    const bad = await svc(['run', 'flow', join(root, 'bad.yaml')]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain(`${join(root, 'bad.yaml')}:3: nodes[0].type: UNKNOWN_NODE_TYPE`);
    const missing = await svc(['flows', 'get', 'no-such-flow']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(
      /^svc: FLOW_NOT_FOUND: no flow on http:\/\/127\.0\.0\.1:\d+ has the id or name "no-such-flow"/,
    );
    const suite = await svc(['run', 'suite', 'no-such-suite']);
    expect(suite.code).toBe(1);
    expect(suite.stderr).toContain('SUITE_NOT_FOUND');
    const execution = await svc(['executions', 'get', 'nope']);
    expect(execution.code).toBe(1);
    expect(execution.stderr).toContain('EXECUTION_NOT_FOUND');
  });

  it('puts a problem only the service can find (a subflow it does not have) in the flow file, at its line', async () => {
    const root = files('subflow', {
      'suite.yaml': 'name: remote-subflow\nflows: [parent.yaml]\n',
      'parent.yaml': [
        'name: remote-parent',
        'nodes:',
        '  - id: a',
        '    name: Child',
        '    type: subflow',
        '    config: { flowId: flw_missing }',
        'connections: []',
      ].join('\n'),
    });
    const result = await svc(['run', 'suite', join(root, 'suite.yaml')]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`svc: ${join(root, 'suite.yaml')} does not validate (1 problem):`);
    expect(result.stderr).toMatch(/parent\.yaml:\d: nodes\[0\]\.config\.flowId: \w+: /);
  });

  it('lists stored environments with secrets as ***, and refuses a wrong key or a service that is not there', async () => {
    const created = await fetch(`${server.url}/api/gateway/environments`, {
      method: 'POST',
      headers: { 'X-API-Key': KEY, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'staging', variables: { baseUrl: demo.url, token: 'hush' }, secretKeys: ['token'] }),
    });
    expect(created.status).toBe(201);
    const listed = await svc(['env', 'list']);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toContain('token=***');
    expect(listed.stdout).not.toContain('hush');

    const wrongKey = await svc(['flows', 'list'], { key: 'svc_sk_wrong' });
    expect(wrongKey.code).toBe(1);
    expect(wrongKey.stderr).toMatch(/^svc: UNAUTHORIZED: /);
    expect(wrongKey.stderr).not.toContain('svc_sk_wrong');
    const nowhere = await spawnSvc(['flows', 'list', '--api-url', 'http://127.0.0.1:9'], { SVC_DB: localDb }).done;
    expect(nowhere.code).toBe(1);
    expect(nowhere.stderr).toMatch(
      /^svc: SERVICE_UNREACHABLE: cannot reach the svc API at http:\/\/127\.0\.0\.1:9 \(ECONNREFUSED\)/,
    );
    const notUrl = await spawnSvc(['flows', 'list', '--api-url', 'ftp://x'], { SVC_DB: localDb }).done;
    expect(notUrl.code).toBe(2);
    const badEnv = await spawnSvc(['flows', 'list'], { SVC_DB: localDb, SVC_API_URL: 'not a url' }).done;
    expect(badEnv.code).toBe(1);
    expect(badEnv.stderr).toContain('SVC_API_URL');
    expect(existsSync(localDb)).toBe(false);
  }, 30_000);
});
