import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEgressPolicy, createEngine, type Engine, type FlowDocumentInput } from '@svc/engine';
import { openSqliteStore } from '@svc/engine/sqlite';

/*
 * Messages show values shortened (an expression's string, a loop's items, an assertion's actual
 * value); when the value held a secret, what is left of it before the `…` is redacted too.
 */
const TOKEN = 'tok_ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

let server: Server;
let baseUrl: string;
let engine: Engine;
const store = openSqliteStore({ path: ':memory:' });

beforeAll(async () => {
  // Echoes the URL it was asked for, as many APIs echo a request.
  server = createServer((request, response) => {
    response.setHeader('content-type', 'application/json').end(JSON.stringify({ url: request.url }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  engine = await createEngine({ store, egress: createEgressPolicy({ mode: 'local' }) });
});

afterAll(async () => {
  await engine.stop();
  await store.close();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

async function runAlone(node: FlowDocumentInput['nodes'][number]): Promise<string> {
  const flow = await engine.flows.create('acme', { name: `cut-${node.id}`, nodes: [node], connections: [] });
  const execution = await engine.runFlow({
    tenantId: 'acme',
    flowId: flow.id,
    env: { baseUrl, apiToken: TOKEN },
    secretKeys: ['apiToken'],
  });
  expect(execution.status).toBe('Failed');
  return JSON.stringify({ execution, stored: await engine.getExecution('acme', execution.executionId) });
}

describe('a secret cut short in a message', () => {
  it('an expression that reads into a secret string', async () => {
    const text = await runAlone({
      id: 'get',
      name: 'Get',
      type: 'endpoint',
      config: { url: '{{env.baseUrl}}/x?t={{env.apiToken.foo}}' },
    });
    expect(text).toContain('EXPRESSION_UNRESOLVED');
    expect(text).toContain('***…');
    expect(text).not.toContain(TOKEN.slice(0, 8));
  });

  it('a loop over a secret string', async () => {
    const text = await runAlone({ id: 'each', name: 'Each', type: 'for', config: { items: '{{env.apiToken}}' } });
    expect(text).toContain('LOOP_NOT_AN_ARRAY');
    expect(text).not.toContain(TOKEN.slice(0, 8));
  });

  it('an assertion whose actual value, an echo of the request, holds the secret past its cut', async () => {
    const text = await runAlone({
      id: 'echo',
      name: 'Echo',
      type: 'endpoint',
      config: {
        url: `{{env.baseUrl}}/echo?a=${'p'.repeat(80)}&t={{env.apiToken}}`,
        assertions: [{ target: 'body.url', operator: '==', value: 'nope' }],
      },
    });
    expect(text).toContain('ASSERTION_FAILED');
    expect(text).not.toContain(TOKEN.slice(0, 8));
  });
});
