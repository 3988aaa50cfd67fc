import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Agent, request } from 'undici';
import { measure, median } from './measure.js';

export interface RunEndpointResult {
  plainRate: number;
  serveRate: number;
}

async function startServe(env: Record<string, string>): Promise<{ url: string; stop(): Promise<void> }> {
  const main = fileURLToPath(new URL('../../../packages/gateway/dist/cli/main.js', import.meta.url));
  const child = spawn(process.execPath, [main, 'serve', '--port', '0', '--host', '127.0.0.1'], {
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let output = '';
    child.stderr!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /serving on (http:\/\/[\d.:]+)/.exec(output);
      if (match) resolve(match[1]!);
    });
    child.on('exit', (code) => reject(new Error(`svc serve exited with ${code}: ${output}`)));
  });
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  return {
    url,
    async stop() {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/**
 * Runs per second of `POST /api/gateway/flows/{id}/run` on a one-step flow (GET /health with a
 * status assertion) against `svc serve`, `concurrency` clients at a time, beside the rate of the
 * same clients calling the demo server's /health directly.
 */
export async function benchRunEndpoint(options: {
  demoUrl: string;
  runs: number;
  concurrency: number;
  rounds: number;
}): Promise<RunEndpointResult> {
  const dir = mkdtempSync(join(tmpdir(), 'svc-bench-serve-'));
  const secret = `svc_sk_${randomBytes(32).toString('base64url')}`;
  const serve = await startServe({
    SVC_DB: join(dir, 'svc.db'),
    SVC_BOOTSTRAP_CLIENT_ID: 'bench',
    SVC_BOOTSTRAP_CLIENT_SECRET: secret,
    SVC_EGRESS_ALLOW: '127.0.0.1',
  });
  const agent = new Agent({ keepAliveTimeout: 10_000, connections: options.concurrency });
  const headers = { 'content-type': 'application/json', 'x-api-key': secret };
  try {
    const created = await request(`${serve.url}/api/gateway/flows`, {
      method: 'POST',
      headers,
      dispatcher: agent,
      body: JSON.stringify({
        name: 'bench-health',
        nodes: [
          {
            id: 'h',
            name: 'Health',
            type: 'endpoint',
            config: {
              url: '{{env.baseUrl}}/health',
              assertions: [{ target: 'statusCode', operator: '==', value: 200 }],
            },
          },
        ],
        connections: [],
      }),
    });
    const flow = (await created.body.json()) as { success: boolean; data: { id: string }; error?: unknown };
    if (!flow.success) throw new Error(`creating the benchmark flow failed: ${JSON.stringify(flow.error)}`);
    const runBody = JSON.stringify({ env: { baseUrl: options.demoUrl } });
    const run = async () => {
      const response = await request(`${serve.url}/api/gateway/flows/${flow.data.id}/run`, {
        method: 'POST',
        headers,
        body: runBody,
        dispatcher: agent,
      });
      const answer = (await response.body.json()) as { success: boolean; data?: { status: string }; error?: unknown };
      if (response.statusCode !== 200 || answer.data?.status !== 'Completed') {
        throw new Error(`run answered ${response.statusCode}: ${JSON.stringify(answer.error ?? answer.data)}`);
      }
    };
    const plain = async () => {
      const response = await request(`${options.demoUrl}/health`, { dispatcher: agent });
      await response.body.text();
      if (response.statusCode !== 200) throw new Error(`/health answered ${response.statusCode}`);
    };
    await measure(100, options.concurrency, run);
    await measure(100, options.concurrency, plain);
    const plainRates: number[] = [];
    const serveRates: number[] = [];
    for (let round = 0; round < options.rounds; round += 1) {
      plainRates.push((await measure(options.runs, options.concurrency, plain)).rate);
      serveRates.push((await measure(options.runs, options.concurrency, run)).rate);
    }
    return { plainRate: median(plainRates), serveRate: median(serveRates) };
  } finally {
    await agent.close();
    await serve.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
