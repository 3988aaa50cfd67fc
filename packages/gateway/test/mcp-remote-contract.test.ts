import { createEgressPolicy, parseEgressRules, systemClock } from '@svc/engine';
import { openSqliteStore } from '@svc/engine/sqlite';
import { createClient, startGatewayServer } from '@svc/gateway';
import { createRemoteApi } from '@svc/mcp';
import { describe, expect, it } from 'vitest';
import { connect, textOf } from '../../mcp/test/helpers.js';
import { describeToolContract } from '../../mcp/test/tool-contract.js';

/*
 * The MCP tools' contract, run by `svc-mcp`'s remote mode against this gateway served on a free
 * port: the same tests the tools pass on a local engine and on the fake gateway of packages/mcp.
 */
describeToolContract('the real REST gateway', async () => {
  const store = openSqliteStore({ path: ':memory:' });
  // The flows here call a test server on loopback, which svc serve refuses unless an operator allows it.
  const server = await startGatewayServer({
    store,
    port: 0,
    host: '127.0.0.1',
    egress: createEgressPolicy({ mode: 'service', allow: parseEgressRules('127.0.0.1', 'SVC_EGRESS_ALLOW') }),
  });
  const { clientSecret } = await createClient(store, systemClock, {
    tenantId: server.bootstrapped!.tenantId,
    name: 'svc-mcp',
    scopes: ['flows:read', 'flows:write', 'executions:run'],
  });
  return {
    api: createRemoteApi({ baseUrl: server.url, apiKey: clientSecret }),
    async close() {
      await server.close();
      await store.close();
    },
  };
});

describe('svc-mcp against the real REST gateway with a wrong key', () => {
  it('answers a clear UNAUTHORIZED tool error', async () => {
    const store = openSqliteStore({ path: ':memory:' });
    const server = await startGatewayServer({ store, port: 0, host: '127.0.0.1' });
    const mcp = await connect(createRemoteApi({ baseUrl: server.url, apiKey: 'svc_sk_wrong' }));
    try {
      const result = await mcp.call('svc_list_flows');
      expect(result.isError).toBe(true);
      expect(textOf(result)).toBe('UNAUTHORIZED: the API key is unknown, rotated out or revoked');
    } finally {
      await mcp.close();
      await server.close();
      await store.close();
    }
  });
});
