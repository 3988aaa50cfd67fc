import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRemoteApi } from '@svc/mcp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDemoApi, type DemoApi } from '../../../examples/demo-api/server.js';
import { startFakeGateway, type FakeGateway } from './fake-gateway.js';
import { connect, openMemoryEngine, orderFlow, structured, textOf } from './helpers.js';
import { describeToolContract } from './tool-contract.js';

const KEY = 'svc_sk_test_0123456789';

describeToolContract('the REST gateway', async () => {
  const local = await openMemoryEngine();
  const gateway = await startFakeGateway(local.api, KEY);
  return {
    api: createRemoteApi({ baseUrl: gateway.url, apiKey: KEY }),
    async close() {
      await gateway.close();
      await local.close();
    },
  };
});

/** A port that was free a moment ago and has nothing listening on it now. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('the remote API', () => {
  let demo: DemoApi;
  let local: Awaited<ReturnType<typeof openMemoryEngine>>;
  let gateway: FakeGateway;
  beforeAll(async () => {
    demo = await startDemoApi({ port: 0 });
    local = await openMemoryEngine();
    gateway = await startFakeGateway(local.api, KEY);
  });
  afterAll(async () => {
    await gateway?.close();
    await local?.close();
    await demo?.close();
  });

  it('calls the gateway contract with X-API-Key: list with filters, create, run with env and waitMs, then the trace', async () => {
    const mcp = await connect(createRemoteApi({ baseUrl: `${gateway.url}/`, apiKey: KEY }));
    try {
      gateway.requests.length = 0;
      await mcp.call('svc_list_flows', { search: 'order', folderId: 'fld_1' });
      const created = structured<{ flow: { id: string } }>(
        await mcp.call('svc_create_flow', orderFlow() as Record<string, unknown>),
      ).flow;
      const run = await mcp.call('svc_run_flow', { flowId: created.id, env: { baseUrl: demo.url } });
      expect(structured<{ execution: { status: string; steps: unknown[] } }>(run).execution).toMatchObject({
        status: 'Completed',
        steps: expect.any(Array),
      });
      expect(structured<{ execution: { steps: unknown[] } }>(run).execution.steps).toHaveLength(3);

      const executionId = structured<{ execution: { executionId: string } }>(run).execution.executionId;
      expect(gateway.requests.map((request) => `${request.method} ${request.path}`)).toEqual([
        'GET /api/gateway/flows',
        'POST /api/gateway/flows',
        `GET /api/gateway/flows/${created.id}`,
        // Started with waitMs=0 for the execution id at once, then followed with a long wait.
        `POST /api/gateway/flows/${created.id}/run`,
        `GET /api/gateway/executions/${executionId}`,
      ]);
      expect(gateway.requests.every((request) => request.apiKey === KEY)).toBe(true);
      expect(gateway.requests[0]!.query).toEqual({ search: 'order', folderId: 'fld_1' });
      expect(gateway.requests[1]!.body).toMatchObject({
        name: 'order-check',
        nodes: expect.any(Array),
        connections: expect.any(Array),
      });
      expect(gateway.requests[3]!.query).toEqual({ waitMs: '0' });
      expect(gateway.requests[3]!.body).toEqual({ env: { baseUrl: demo.url } });
      expect(Number(gateway.requests[4]!.query.waitMs)).toBeGreaterThan(25_000);
    } finally {
      await mcp.close();
    }
  });

  it('answers a wrong key as a clear UNAUTHORIZED tool error', async () => {
    const mcp = await connect(createRemoteApi({ baseUrl: gateway.url, apiKey: 'svc_sk_wrong' }));
    try {
      const result = await mcp.call('svc_list_flows');
      expect(result.isError).toBe(true);
      expect(structured(result)).toEqual({
        error: { code: 'UNAUTHORIZED', message: 'the API key is missing, unknown or revoked' },
      });
      expect(textOf(result)).toBe('UNAUTHORIZED: the API key is missing, unknown or revoked');
    } finally {
      await mcp.close();
    }
  });

  it('answers an unreachable gateway at once with SERVICE_UNREACHABLE, and keeps serving', async () => {
    const port = await closedPort();
    const mcp = await connect(createRemoteApi({ baseUrl: `http://127.0.0.1:${port}`, apiKey: KEY }));
    try {
      const started = Date.now();
      const result = await mcp.call('svc_get_flow', { flowId: 'flw_1' });
      expect(Date.now() - started).toBeLessThan(5_000);
      expect(result.isError).toBe(true);
      expect(structured<{ error: { code: string; retryable: boolean } }>(result).error).toMatchObject({
        code: 'SERVICE_UNREACHABLE',
        retryable: true,
      });
      expect(textOf(result)).toMatch(
        new RegExp(
          `^SERVICE_UNREACHABLE: cannot reach the svc API at http://127\\.0\\.0\\.1:${port} \\(ECONNREFUSED\\); check SVC_API_URL`,
        ),
      );
      expect((await mcp.call('svc_list_flows')).isError).toBe(true);
    } finally {
      await mcp.close();
    }
  });

  it('gives up on a gateway that does not answer after the timeout', async () => {
    const silent = createServer(() => {});
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const mcp = await connect(
      createRemoteApi({
        baseUrl: `http://127.0.0.1:${(silent.address() as AddressInfo).port}`,
        apiKey: KEY,
        timeoutMs: 300,
      }),
    );
    try {
      const started = Date.now();
      const result = await mcp.call('svc_list_flows');
      expect(Date.now() - started).toBeLessThan(3_000);
      expect(result.isError).toBe(true);
      expect(textOf(result)).toMatch(
        /^SERVICE_TIMEOUT: the svc API at http:\/\/127\.0\.0\.1:\d+ did not answer GET \/api\/gateway\/flows within 0\.3 s$/,
      );
    } finally {
      await mcp.close();
      silent.closeAllConnections();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  });

  it('reports an answer without the svc envelope instead of passing it on', async () => {
    const proxy = createServer((_request, response) => {
      response.writeHead(502, { 'content-type': 'text/html' });
      response.end('<html>Bad Gateway</html>');
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    const mcp = await connect(
      createRemoteApi({ baseUrl: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`, apiKey: KEY }),
    );
    try {
      const result = await mcp.call('svc_get_execution', { executionId: 'x' });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toBe(
        'INVALID_RESPONSE: the svc API answered GET /api/gateway/executions/x with HTTP 502 and no svc envelope: <html>Bad Gateway</html>',
      );
    } finally {
      await mcp.close();
      await new Promise<void>((resolve) => proxy.close(() => resolve()));
    }
  });

  it('refuses an SVC_API_URL that is not an http address', () => {
    expect(() => createRemoteApi({ baseUrl: 'svc.example.com' })).toThrow(
      /SVC_API_URL "svc\.example\.com" is not a URL/,
    );
    expect(() => createRemoteApi({ baseUrl: 'ftp://svc.example.com' })).toThrow(/must be an http or https address/);
  });
});
