import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  createEgressPolicy,
  createEngine,
  egressPolicyOf,
  loadConfig,
  systemClock,
  type EgressPolicy,
  type Engine,
} from '@svc/engine';
import { openSqliteStore } from '@svc/engine/sqlite';
import { createApp, createClient, startGatewayServer } from '@svc/gateway';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stubAuthenticator } from './stub-authenticator.js';

type Json = Record<string, any>;

/**
 * The service's own neighbourhood: a server on every loopback address that counts what reaches
 * it. Under svc serve a tenant's flow must not reach it unless the operator allows it.
 */
let target: Server;
let port: number;
let received = 0;

beforeAll(async () => {
  target = createServer((_request, response) => {
    received += 1;
    response.setHeader('content-type', 'application/json').end('{"secret":"internal"}');
  });
  await new Promise<void>((resolve) => target.listen(0, '::', resolve));
  port = (target.address() as AddressInfo).port;
});

afterAll(async () => {
  target.closeAllConnections();
  await new Promise((resolve) => target.close(resolve));
});

const oneCall = (url: string) => ({
  name: `call ${url}`,
  nodes: [{ id: 'c', name: 'Call', type: 'endpoint', config: { url } }],
});

/** A gateway app over an engine with `egress`, as svc serve builds it. */
async function gatewayWith(egress: EgressPolicy): Promise<{ run(url: string): Promise<Json>; close(): Promise<void> }> {
  const store = openSqliteStore({ path: ':memory:' });
  const engine: Engine = await createEngine({ store, egress });
  const app = createApp({ engine, authenticator: stubAuthenticator({ key: { tenantId: 'tenant-a' } }) });
  const headers = { 'X-API-Key': 'key', 'Content-Type': 'application/json' };
  return {
    async run(url) {
      const created = await app.request('/api/gateway/flows', {
        method: 'POST',
        headers,
        body: JSON.stringify(oneCall(url)),
      });
      expect(created.status).toBe(201);
      const flowId = ((await created.json()) as Json).data.id as string;
      const run = await app.request(`/api/gateway/flows/${flowId}/run`, { method: 'POST', headers, body: '{}' });
      expect(run.status).toBe(200);
      return ((await run.json()) as Json).data as Json;
    },
    async close() {
      await engine.stop();
      await store.close();
    },
  };
}

describe('egress under svc serve', () => {
  it.each(['127.0.0.1', '0.0.0.0', '127.1', '2130706433', '0x7f.1', '[::1]', '[::ffff:127.0.0.1]', 'localhost'])(
    'fails a step calling http://%s:<port> with EGRESS_DENIED, and the target receives nothing',
    async (host) => {
      const gateway = await gatewayWith(egressPolicyOf(loadConfig({}), 'service'));
      try {
        const before = received;
        const execution = await gateway.run(`http://${host}:${port}/api/openapi.json`);
        expect(execution.status).toBe('Failed');
        const step = execution.steps[0] as Json;
        expect(step.status).toBe('Failed');
        expect(step.error.code).toBe('EGRESS_DENIED');
        expect(step.error.message).toMatch(
          /is refused under svc serve; an operator may allow it with SVC_EGRESS_ALLOW=/,
        );
        // The trace shows the request the policy stopped.
        expect(step.request.url).toContain(`:${port}/api/openapi.json`);
        expect(received).toBe(before);
      } finally {
        await gateway.close();
      }
    },
  );

  it('names the resolved address when a name resolves to loopback', async () => {
    const gateway = await gatewayWith(egressPolicyOf(loadConfig({}), 'service'));
    try {
      const execution = await gateway.run(`http://localhost:${port}/`);
      expect(execution.steps[0].error.message).toMatch(
        /egress to localhost \((127\.0\.0\.1|::1)\) port \d+ refused: a loopback address/,
      );
    } finally {
      await gateway.close();
    }
  });

  it('refuses the cloud metadata address even when SVC_EGRESS_ALLOW names it', async () => {
    const gateway = await gatewayWith(
      egressPolicyOf(loadConfig({ SVC_EGRESS_ALLOW: '169.254.169.254,169.254.0.0/16' }), 'service'),
    );
    try {
      const execution = await gateway.run('http://169.254.169.254/latest/meta-data/');
      expect(execution.steps[0].error.code).toBe('EGRESS_DENIED');
      expect(execution.steps[0].error.message).toContain(
        'a cloud metadata address (169.254.169.254/32) is always refused',
      );
    } finally {
      await gateway.close();
    }
  });

  it('lets through what SVC_EGRESS_ALLOW names, and nothing beside it', async () => {
    const gateway = await gatewayWith(egressPolicyOf(loadConfig({ SVC_EGRESS_ALLOW: `127.0.0.1:${port}` }), 'service'));
    try {
      const before = received;
      const allowed = await gateway.run(`http://127.0.0.1:${port}/api/openapi.json`);
      expect(allowed.status).toBe('Completed');
      expect(allowed.steps[0].response.body).toEqual({ secret: 'internal' });
      expect(received).toBe(before + 1);
      const other = await gateway.run(`http://[::1]:${port}/`);
      expect(other.steps[0].error.code).toBe('EGRESS_DENIED');
      expect(received).toBe(before + 1);
    } finally {
      await gateway.close();
    }
  });

  it('SVC_EGRESS_DENY refuses under the local policy too', async () => {
    const gateway = await gatewayWith(egressPolicyOf(loadConfig({ SVC_EGRESS_DENY: `127.0.0.1:${port}` }), 'local'));
    try {
      const execution = await gateway.run(`http://127.1:${port}/`);
      expect(execution.steps[0].error.message).toContain(`SVC_EGRESS_DENY entry "127.0.0.1:${port}" refuses it`);
    } finally {
      await gateway.close();
    }
  });

  it('the local policy (svc run, local svc-mcp) reaches loopback', async () => {
    const gateway = await gatewayWith(createEgressPolicy({ mode: 'local' }));
    try {
      expect((await gateway.run(`http://127.0.0.1:${port}/`)).status).toBe('Completed');
      expect((await gateway.run(`http://[::1]:${port}/`)).status).toBe('Completed');
    } finally {
      await gateway.close();
    }
  });

  it('startGatewayServer applies the service policy from the environment by default', async () => {
    const store = openSqliteStore({ path: ':memory:' });
    const server = await startGatewayServer({ store, port: 0, host: '127.0.0.1' });
    try {
      const { clientSecret } = await createClient(store, systemClock, {
        tenantId: server.bootstrapped!.tenantId,
        name: 'probe',
        scopes: ['flows:write', 'flows:read', 'executions:run'],
      });
      const headers = { 'X-API-Key': clientSecret, 'Content-Type': 'application/json' };
      // The service's own OpenAPI document, on the address it listens on.
      const created = await fetch(`${server.url}/api/gateway/flows`, {
        method: 'POST',
        headers,
        body: JSON.stringify(oneCall(`${server.url}/api/openapi.json`)),
      });
      const flowId = ((await created.json()) as Json).data.id as string;
      const run = (await (
        await fetch(`${server.url}/api/gateway/flows/${flowId}/run`, { method: 'POST', headers, body: '{}' })
      ).json()) as Json;
      expect(run.data.steps[0].error.code).toBe('EGRESS_DENIED');
    } finally {
      await server.close();
      await store.close();
    }
  });

  it('a bad SVC_EGRESS_ALLOW entry is a CONFIG_ERROR naming the variable and the entry', () => {
    expect(() => egressPolicyOf(loadConfig({ SVC_EGRESS_ALLOW: '127.0.0.1,10.0.0.0/99' }), 'service')).toThrow(
      /SVC_EGRESS_ALLOW entry "10.0.0.0\/99" is not/,
    );
  });
});
