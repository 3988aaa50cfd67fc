import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { egressPolicyOf, loadConfig, systemClock, type Store } from '@svc/engine';
import { openSqliteStore } from '@svc/engine/sqlite';
import { createClient, startGatewayServer } from '@svc/gateway';
import { createRemoteApi, type SvcApi } from '@svc/mcp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, openMemoryEngine, structured, textOf, type Connected } from '../../mcp/test/helpers.js';

const SECRET = 'mcp-hidden-value-51b7';

let target: Server;
let targetUrl: string;
const greetings: (string | undefined)[] = [];

beforeAll(async () => {
  target = createServer((request: IncomingMessage, response) => {
    greetings.push(request.headers['x-greeting'] as string | undefined);
    response
      .setHeader('content-type', 'application/json')
      .end(JSON.stringify({ youSaid: request.headers['x-greeting'] }));
  });
  await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
  targetUrl = `http://127.0.0.1:${(target.address() as AddressInfo).port}`;
});

afterAll(async () => {
  target.closeAllConnections();
  await new Promise((resolve) => target.close(resolve));
});

const greetFlow = {
  name: 'mcp-greet',
  nodes: [
    {
      id: 'g',
      name: 'Greet',
      type: 'endpoint',
      position: { x: 0, y: 0 },
      config: { url: '{{env.baseUrl}}/hello', headers: { 'x-greeting': '{{env.greeting}}' } },
    },
  ],
  connections: [],
};

/** The tools over the engine in this process, and over the real REST gateway. */
const modes: [string, () => Promise<{ api: SvcApi; runner?: SvcApi; close(): Promise<void> }>][] = [
  [
    'local',
    async () => {
      const local = await openMemoryEngine();
      return { api: local.api, close: () => local.close() };
    },
  ],
  [
    'remote',
    async () => {
      const store: Store = openSqliteStore({ path: ':memory:' });
      const port = Number(new URL(targetUrl).port);
      const server = await startGatewayServer({
        store,
        port: 0,
        host: '127.0.0.1',
        egress: egressPolicyOf(loadConfig({ SVC_EGRESS_ALLOW: `127.0.0.1:${port}` }), 'service'),
      });
      const tenantId = server.bootstrapped!.tenantId;
      const { clientSecret } = await createClient(store, systemClock, {
        tenantId,
        name: 'svc-mcp',
        scopes: ['flows:read', 'flows:write', 'executions:run', 'environments:read', 'environments:write'],
      });
      // A pipeline's credential: it may run flows, not read environments.
      const { clientSecret: runOnly } = await createClient(store, systemClock, {
        tenantId,
        name: 'runner',
        scopes: ['flows:read', 'executions:run'],
      });
      return {
        api: createRemoteApi({ baseUrl: server.url, apiKey: clientSecret }),
        runner: createRemoteApi({ baseUrl: server.url, apiKey: runOnly }),
        async close() {
          await server.close();
          await store.close();
        },
      };
    },
  ],
];

describe.each(modes)('svc_set_environment and svc_list_environments (%s)', (_mode, open) => {
  let mcp: Connected;
  let runner: Connected | undefined;
  let closeApi: () => Promise<void>;

  beforeAll(async () => {
    const opened = await open();
    closeApi = opened.close;
    mcp = await connect(opened.api);
    if (opened.runner) runner = await connect(opened.runner);
  });
  afterAll(async () => {
    await runner?.close();
    await mcp.close();
    await closeApi();
  });

  it('creates an environment, then sets and unsets single variables, never showing a secret', async () => {
    const created = await mcp.call('svc_set_environment', {
      name: 'staging',
      variables: { baseUrl: 'http://127.0.0.1:9', region: 'eu' },
      secrets: { greeting: SECRET },
    });
    expect(created.isError, textOf(created)).toBeFalsy();
    expect(structured(created)).toMatchObject({
      created: true,
      environment: { name: 'staging', variables: { greeting: '***', region: 'eu' }, secretKeys: ['greeting'] },
    });
    const updated = await mcp.call('svc_set_environment', {
      name: 'staging',
      variables: { baseUrl: targetUrl },
      unset: ['region'],
    });
    expect(structured(updated)).toMatchObject({
      created: false,
      environment: { variables: { baseUrl: targetUrl, greeting: '***' }, secretKeys: ['greeting'] },
    });
    expect(structured(updated).environment).not.toHaveProperty('variables.region');

    const listed = await mcp.call('svc_list_environments');
    expect(structured<{ environments: { name: string }[] }>(listed).environments.map((one) => one.name)).toEqual([
      'staging',
    ]);
    expect(textOf(listed)).toContain('greeting (secret)');
    for (const answer of [created, updated, listed]) expect(JSON.stringify(answer)).not.toContain(SECRET);
  });

  it('refuses unknown keys and the mask as a secret value', async () => {
    const unknown = await mcp.call('svc_set_environment', { name: 'staging', secret: { x: 1 } });
    expect(unknown.isError).toBe(true);
    expect(textOf(unknown)).toMatch(/did you mean secrets\?/);
    const masked = await mcp.call('svc_set_environment', { name: 'staging', secrets: { greeting: '***' } });
    expect(structured(masked)).toMatchObject({ error: { code: 'VALIDATION_ERROR' } });
  });

  it('refuses the mask as a plain value of a secret, naming it, and keeps the secret', async () => {
    const masked = await mcp.call('svc_set_environment', { name: 'staging', variables: { greeting: '***' } });
    expect(structured(masked)).toMatchObject({ error: { code: 'VALIDATION_ERROR' } });
    expect(textOf(masked)).toContain('variables.greeting');
    const listed = await mcp.call('svc_list_environments');
    expect(structured(listed)).toMatchObject({
      environments: [{ name: 'staging', variables: { greeting: '***' }, secretKeys: ['greeting'] }],
    });
  });

  it('runs a flow on the stored environment by name: the endpoint gets the secret, the answer shows ***', async () => {
    const createdFlow = await mcp.call('svc_create_flow', greetFlow);
    expect(createdFlow.isError, textOf(createdFlow)).toBeFalsy();
    const flowId = structured<{ flow: { id: string } }>(createdFlow).flow.id;
    const before = greetings.length;
    const run = await mcp.call('svc_run_flow', { flowId, env: 'staging' });
    expect(run.isError, textOf(run)).toBeFalsy();
    expect(structured(run)).toMatchObject({ execution: { status: 'Completed' } });
    expect(greetings.slice(before)).toEqual([SECRET]);
    expect(JSON.stringify(run)).not.toContain(SECRET);
    expect(JSON.stringify(run)).toContain('***');

    const missing = await mcp.call('svc_run_flow', { flowId, env: 'nowhere' });
    expect(structured(missing)).toMatchObject({ error: { code: 'ENVIRONMENT_NOT_FOUND' } });

    if (runner !== undefined) {
      // It cannot read the environment, yet runs on it by name; listing it is refused.
      const ran = await runner.call('svc_run_flow', { flowId, env: 'staging' });
      expect(structured(ran), textOf(ran)).toMatchObject({ execution: { status: 'Completed' } });
      expect(greetings.at(-1)).toBe(SECRET);
      expect(structured(await runner.call('svc_list_environments'))).toMatchObject({
        error: { code: 'INSUFFICIENT_SCOPE' },
      });
    }
  });
});
