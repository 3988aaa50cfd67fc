import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDemoApi, type DemoApi } from '../../../examples/demo-api/server.js';
import { startServe } from './serve-process.js';

type Json = Record<string, any>;

/*
 * The README's "Health checks that alert" example, run as written (one shell, so its variables
 * and function carry from line to line) against a real `svc serve` and the demo API. Only the
 * ports and the operator's secret, which the README cannot know, are replaced.
 */

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const README = readFileSync(join(ROOT, 'README.md'), 'utf8');
const BOOTSTRAP_SECRET = `svc_sk_${'h'.repeat(43)}`;

function healthCheckExample(markdown: string): string {
  const section = markdown.split(/^## Health checks that alert$/m)[1]!.split(/^## /m)[0]!;
  return /^```sh\n([\s\S]*?)^```$/m.exec(section)![1]!;
}

describe('README: health checks that alert', () => {
  let dir: string;
  let demo: DemoApi;
  let serve: Awaited<ReturnType<typeof startServe>>;
  let env: Record<string, string>;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'svc-readme-health-'));
    demo = await startDemoApi({ port: 0 });
    env = { SVC_DB: join(dir, 'svc.db') };
    serve = await startServe({
      ...env,
      SVC_EGRESS_ALLOW: `127.0.0.1:${demo.port}`,
      SVC_BOOTSTRAP_CLIENT_ID: 'readme',
      SVC_BOOTSTRAP_CLIENT_SECRET: BOOTSTRAP_SECRET,
    });
  });
  afterAll(async () => {
    serve?.child.kill('SIGTERM');
    await serve?.done;
    await demo?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('creates a health-check suite with a channel, fails a check, and the demo API receives the alert', async () => {
    const script = healthCheckExample(README)
      .replaceAll('127.0.0.1:4010', `127.0.0.1:${demo.port}`)
      .replaceAll('http://127.0.0.1:8080', serve.url)
      .replaceAll('svc_sk_…', BOOTSTRAP_SECRET);
    const ran = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
      const child = spawn('bash', ['-c', script], {
        cwd: ROOT,
        // Never a download: `npx svc` must find the command this checkout's install linked.
        env: { ...process.env, ...env, npm_config_offline: 'true', npm_config_update_notifier: 'false' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      child.on('close', (code) => resolve({ code, stdout, stderr }));
    });
    expect(ran.code, ran.stderr).toBe(0);
    // One JSON answer per curl, each on its own line after the one before.
    const answers = ran.stdout
      .replaceAll('}{', '}\n{')
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => JSON.parse(line) as Json);
    const [channel, run, health, alerts, received] = answers;
    expect(channel).toMatchObject({ success: true, data: { type: 'webhook', name: 'ops', url: '***' } });
    expect(run).toMatchObject({ success: true, data: { status: 'failed' } });
    expect(health).toMatchObject({
      success: true,
      data: {
        kind: 'health-check',
        status: 'failing',
        checks: [{ state: 'failing', lastFailure: { step: 'Health' } }],
      },
    });
    expect(alerts!.data.items).toMatchObject([{ event: 'failing', status: 'delivered', attempts: 1 }]);
    expect(received!.items).toMatchObject([
      { body: { type: 'health-check.failing', check: { name: 'health-check' }, state: 'failing' } },
    ]);
  });
});
