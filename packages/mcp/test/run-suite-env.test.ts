import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FlowDocumentInput } from '@svc/engine';
import { createRemoteApi } from '@svc/mcp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeGateway, type FakeGateway } from './fake-gateway.js';
import { connect, openMemoryEngine, structured, textOf, type Connected } from './helpers.js';

const KEY = 'svc_sk_test_0123456789';

interface RunView {
  status: string;
  total: number;
  passed: number;
  failed: number;
  skipped: number;
  flows: Array<{ status: string; error: { code: string } | null }>;
}

/** A flow as generated suites write them: the base URL comes from the run's env, nowhere else. */
function pingFlow(name: string, path: string): FlowDocumentInput {
  return {
    name,
    nodes: [
      {
        id: 'n1',
        name: 'Ping',
        type: 'endpoint',
        position: { x: 0, y: 0 },
        config: {
          method: 'GET',
          url: `{{env.baseUrl}}${path}`,
          assertions: [{ target: 'statusCode', operator: '==', value: 200 }],
        },
      },
    ],
  };
}

describe('svc_run_suite with env', () => {
  let api: Server;
  let baseUrl: string;
  let local: Awaited<ReturnType<typeof openMemoryEngine>>;
  let gateway: FakeGateway;
  let suiteId: string;
  let failingSuiteId: string;

  beforeAll(async () => {
    api = createServer((request, response) => {
      response.writeHead(request.url === '/health' ? 200 : 500, { 'content-type': 'application/json' });
      response.end('{"ok":true}');
    });
    await new Promise<void>((resolve) => api.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(api.address() as AddressInfo).port}`;
    local = await openMemoryEngine();
    gateway = await startFakeGateway(local.api, KEY);
    const first = await local.engine.flows.create('default', pingFlow('ping-one', '/health'));
    const second = await local.engine.flows.create('default', pingFlow('ping-two', '/health'));
    const broken = await local.engine.flows.create('default', pingFlow('ping-broken', '/broken'));
    suiteId = (await local.engine.suites.create('default', { name: 'pings', flowIds: [first.id, second.id] })).id;
    failingSuiteId = (
      await local.engine.suites.create('default', { name: 'pings-failing', flowIds: [broken.id, first.id, second.id] })
    ).id;
  });
  afterAll(async () => {
    await gateway?.close();
    await local?.close();
    await new Promise<void>((resolve) => (api ? api.close(() => resolve()) : resolve()));
  });

  for (const mode of ['local', 'remote'] as const) {
    describe(mode, () => {
      let mcp: Connected;
      beforeAll(async () => {
        mcp = await connect(mode === 'local' ? local.api : createRemoteApi({ baseUrl: gateway.url, apiKey: KEY }));
      });
      afterAll(async () => mcp?.close());

      it('passes a suite whose flows read {{env.baseUrl}} only when env gives it', async () => {
        // Without env, nothing runs: one error names the key the flows read.
        const without = await mcp.call('svc_run_suite', { suiteId });
        expect(without.isError).toBe(true);
        expect(structured<{ error: { code: string } }>(without).error.code).toBe('MISSING_ENV');
        expect(textOf(without)).toMatch(/^MISSING_ENV: env does not give baseUrl: baseUrl \(read by /);

        const withEnv = await mcp.call('svc_run_suite', { suiteId, env: { baseUrl } });
        expect(withEnv.isError, textOf(withEnv)).toBeFalsy();
        expect(structured<{ run: RunView }>(withEnv).run).toMatchObject({
          status: 'passed',
          total: 2,
          passed: 2,
          failed: 0,
          skipped: 0,
        });
        expect(textOf(withEnv)).toContain('2/2 passed');
      });

      it('with failFast, skips the flows after the first failure', async () => {
        const run = structured<{ run: RunView }>(
          await mcp.call('svc_run_suite', { suiteId: failingSuiteId, env: { baseUrl }, failFast: true }),
        ).run;
        expect(run).toMatchObject({ status: 'failed', total: 3, passed: 0, failed: 1, skipped: 2 });
        expect(run.flows.map((flow) => flow.status)).toEqual(['failed', 'skipped', 'skipped']);
        const all = structured<{ run: RunView }>(
          await mcp.call('svc_run_suite', { suiteId: failingSuiteId, env: { baseUrl } }),
        ).run;
        expect(all).toMatchObject({ status: 'failed', passed: 2, failed: 1, skipped: 0 });
      });
    });
  }

  it('sends env and failFast in the REST body of the run call', () => {
    const runs = gateway.requests.filter((request) => request.path === `/api/gateway/suites/${failingSuiteId}/run`);
    expect(runs[0]!.body).toEqual({ env: { baseUrl }, failFast: true });
    // The run without env was refused before any run call: every call sent carries env.
    expect(
      gateway.requests
        .filter((request) => request.path === `/api/gateway/suites/${suiteId}/run`)
        .map((request) => request.body),
    ).toEqual([{ env: { baseUrl } }]);
  });
});
