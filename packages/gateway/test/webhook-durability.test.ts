import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startServe } from './serve-process.js';

type Json = Record<string, any>;

const BOOTSTRAP_ID = 'ci-admin';
const BOOTSTRAP_SECRET = `svc_sk_${'w'.repeat(43)}`;
const headers = { 'X-API-Key': BOOTSTRAP_SECRET, 'Content-Type': 'application/json' };

/** The job API: `/jobs` answers 202, `/record` keeps what the flow reports at its end. */
let api: Server;
let apiPort: number;
const recorded: Json[] = [];

beforeAll(async () => {
  api = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    request.on('end', () => {
      if (request.url === '/record') recorded.push(JSON.parse(body) as Json);
      response.statusCode = request.url === '/jobs' ? 202 : 200;
      response.setHeader('content-type', 'application/json').end('{}');
    });
  });
  await new Promise<void>((resolve) => api.listen(0, '127.0.0.1', resolve));
  apiPort = (api.address() as AddressInfo).port;
});
afterAll(async () => {
  api.closeAllConnections();
  await new Promise((resolve) => api.close(resolve));
});

function flow(name: string, timeoutMinutes: number) {
  return {
    name,
    nodes: [
      {
        id: 'j',
        name: 'StartJob',
        type: 'endpoint',
        config: {
          method: 'POST',
          url: `http://127.0.0.1:${apiPort}/jobs`,
          body: { callbackUrl: '{{Wait.callbackUrl}}' },
        },
      },
      { id: 'w', name: 'Wait', type: 'component-webhook', config: { mode: 'wait', timeoutMinutes } },
      {
        id: 'r',
        name: 'Record',
        type: 'endpoint',
        config: {
          method: 'POST',
          url: `http://127.0.0.1:${apiPort}/record`,
          body: { said: '{{Wait.response.body.said}}' },
        },
      },
    ],
    connections: [
      { id: 'c1', source: 'j', target: 'w' },
      { id: 'c2', source: 'w', target: 'r' },
    ],
  };
}

describe('a webhook wait across a killed svc serve', () => {
  let dir: string;
  let env: Record<string, string>;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'svc-webhook-durability-'));
    env = {
      SVC_DB: join(dir, 'svc.db'),
      SVC_BOOTSTRAP_CLIENT_ID: BOOTSTRAP_ID,
      SVC_BOOTSTRAP_CLIENT_SECRET: BOOTSTRAP_SECRET,
      SVC_EGRESS_ALLOW: `127.0.0.1:${apiPort}`,
    };
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  async function startWaiting(base: string, timeoutMinutes: number): Promise<{ executionId: string; path: string }> {
    const saved = await fetch(`${base}/api/gateway/flows`, {
      method: 'POST',
      headers,
      body: JSON.stringify(flow(`wait-${timeoutMinutes}`, timeoutMinutes)),
    });
    expect(saved.status).toBe(201);
    const flowId = ((await saved.json()) as Json).data.id as string;
    const run = await fetch(`${base}/api/gateway/flows/${flowId}/run?waitMs=0`, {
      method: 'POST',
      headers,
      body: '{}',
    });
    const executionId = ((await run.json()) as Json).data.executionId as string;
    for (;;) {
      const view = ((await (await fetch(`${base}/api/gateway/executions/${executionId}`, { headers })).json()) as Json)
        .data as Json;
      if (view.status === 'Waiting') {
        const url = new URL(view.waits[0].callbackUrl as string);
        return { executionId, path: url.pathname };
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  async function untilEnded(base: string, executionId: string): Promise<Json> {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const view = ((await (await fetch(`${base}/api/gateway/executions/${executionId}`, { headers })).json()) as Json)
        .data as Json;
      if (['Completed', 'Failed', 'TimedOut'].includes(view.status as string) || Date.now() > deadline) return view;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  it('keeps the wait through kill -9: the restarted process takes the callback and completes the run', async () => {
    const first = await startServe(env);
    const { executionId, path } = await startWaiting(first.url, 15);
    first.child.kill('SIGKILL');
    await first.done;

    const second = await startServe(env);
    try {
      const answer = await fetch(`${second.url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ said: 'after the crash' }),
      });
      expect(answer.status).toBe(202);
      const view = await untilEnded(second.url, executionId);
      expect(view.status).toBe('Completed');
      expect(recorded.at(-1)).toEqual({ said: 'after the crash' });
    } finally {
      second.child.kill('SIGTERM');
      await second.done;
    }
  });

  it('fires the timeout of a wait whose process was killed, after a restart', async () => {
    const first = await startServe(env);
    // 0.02 minutes: 1.2 s.
    const { executionId, path } = await startWaiting(first.url, 0.02);
    first.child.kill('SIGKILL');
    await first.done;
    await new Promise((resolve) => setTimeout(resolve, 1_500));

    const second = await startServe(env);
    try {
      const view = await untilEnded(second.url, executionId);
      expect(view.status).toBe('TimedOut');
      expect(view.error.code).toBe('WEBHOOK_TIMEOUT');
      const late = await fetch(`${second.url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      });
      expect(late.status).toBe(410);
    } finally {
      second.child.kill('SIGTERM');
      await second.done;
    }
  });
});
