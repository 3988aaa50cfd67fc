import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { CreateMessageRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { createCatalogService } from '@svc/discovery';
import { createEgressPolicy, createEngine, silentLogger, type Engine, type FlowDocumentInput } from '@svc/engine';
import { openSqliteStore } from '@svc/engine/sqlite';
import { buildServer, createLocalApi, type BuildServerOptions, type SvcApi } from '@svc/mcp';

export interface Connected {
  client: Client;
  call(name: string, args?: Record<string, unknown>): Promise<CallToolResult>;
  close(): Promise<void>;
}

/**
 * A real MCP client joined in memory to `buildServer(api)`. It lists the tools first, so the client
 * checks every structured result against the tool's output schema as an assistant's client would.
 */
export async function connect(api: SvcApi, options: BuildServerOptions = {}): Promise<Connected> {
  const server = buildServer(api, { logger: silentLogger, ...options });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'svc-mcp-test', version: '0' });
  await client.connect(clientSide);
  await client.listTools();
  return {
    client,
    call: async (name, args = {}) => (await client.callTool({ name, arguments: args })) as CallToolResult,
    async close() {
      await client.close();
      await server.close();
    },
  };
}

/** An engine on a private in-memory SQLite database, with the local API (and its catalog) over it. */
export async function openMemoryEngine(): Promise<{ engine: Engine; api: SvcApi; close(): Promise<void> }> {
  const store = openSqliteStore({ path: ':memory:' });
  // The flows here call a test server on loopback, which a developer's local policy allows.
  const engine = await createEngine({ store, egress: createEgressPolicy({ mode: 'local' }) });
  return {
    engine,
    api: createLocalApi({ engine, catalog: createCatalogService({ repository: store.catalog }) }),
    async close() {
      await engine.stop();
      await store.close();
    },
  };
}

export function textOf(result: CallToolResult): string {
  return result.content.map((part) => (part.type === 'text' ? part.text : '')).join('\n');
}

export function structured<T = Record<string, unknown>>(result: CallToolResult): T {
  return result.structuredContent as T;
}

/**
 *   CreateCustomer ──▶ CreateOrder ──▶ ReadOrder
 * Each step reads the one before it through an expression; the run's env gives the base URL.
 */
export function orderFlow(name = 'order-check'): FlowDocumentInput {
  return {
    name,
    description: 'Create a customer and an order for it, then read the order back.',
    nodes: [
      {
        id: 'n1',
        name: 'CreateCustomer',
        type: 'endpoint',
        position: { x: 0, y: 0 },
        config: {
          method: 'POST',
          url: '{{env.baseUrl}}/customers',
          body: { name: 'Ada Lovelace', email: 'ada@example.com' },
          assertions: [{ target: 'statusCode', operator: '==', value: 201 }],
        },
      },
      {
        id: 'n2',
        name: 'CreateOrder',
        type: 'endpoint',
        position: { x: 250, y: 0 },
        config: {
          method: 'POST',
          url: '{{env.baseUrl}}/orders',
          body: { customerId: '{{CreateCustomer.response.body.id}}', total: 42 },
          assertions: [{ target: 'statusCode', operator: '==', value: 201 }],
        },
      },
      {
        id: 'n3',
        name: 'ReadOrder',
        type: 'endpoint',
        position: { x: 500, y: 0 },
        config: {
          url: '{{env.baseUrl}}/orders/{{CreateOrder.response.body.id}}',
          assertions: [{ target: 'body.customerId', operator: '==', value: '{{CreateCustomer.response.body.id}}' }],
        },
      },
    ],
    connections: [
      { id: 'w1', source: 'n1', target: 'n2' },
      { id: 'w2', source: 'n2', target: 'n3' },
    ],
    flowData: {
      canvasGroups: [
        {
          id: 'g1',
          title: 'Checkout',
          color: 'Purple',
          bounds: { x: -40, y: -40, width: 800, height: 200 },
          nodeIds: ['n1', 'n2', 'n3'],
        },
      ],
      annotations: [],
    },
  };
}

/**
 *   Health ──▶ MissingOrder ──▶ NeverRuns
 * The second step asks for an order that does not exist: a 404 fails it and the third is skipped.
 */
export function failingFlow(name = 'failing-check'): FlowDocumentInput {
  return {
    name,
    nodes: [
      { id: 'a', name: 'Health', type: 'endpoint', config: { url: '{{env.baseUrl}}/health' } },
      { id: 'b', name: 'MissingOrder', type: 'endpoint', config: { url: '{{env.baseUrl}}/orders/ord_missing' } },
      { id: 'c', name: 'NeverRuns', type: 'endpoint', config: { url: '{{env.baseUrl}}/health' } },
    ],
    connections: [
      { id: 'w1', source: 'a', target: 'b' },
      { id: 'w2', source: 'b', target: 'c' },
    ],
  };
}

/** Health, then a pause: long enough to outlast a short run wait. */
export function slowFlow(name = 'slow-check', duration = '1500ms'): FlowDocumentInput {
  return {
    name,
    nodes: [
      { id: 'a', name: 'Health', type: 'endpoint', config: { url: '{{env.baseUrl}}/health' } },
      { id: 'b', name: 'Pause', type: 'delay', config: { duration } },
    ],
    connections: [{ id: 'w1', source: 'a', target: 'b' }],
  };
}

/** `count` unwired endpoint nodes of about `bytes` characters of JSON each. */
export function manyNodes(count: number, bytes: number) {
  const pad = 'x'.repeat(Math.max(0, bytes - 120));
  return Array.from({ length: count }, (_, index) => ({
    id: `n${index}`,
    name: `Step${index}`,
    type: 'endpoint',
    config: { url: `http://127.0.0.1:1/${pad}` },
  }));
}

/** A client that offers sampling: its "model" answers every request with these cases. */
export async function connectWithSampling(api: SvcApi, reply: string): Promise<Connected & { prompts: unknown[] }> {
  const server = buildServer(api, { logger: silentLogger });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'svc-mcp-sampling-test', version: '0' }, { capabilities: { sampling: {} } });
  const prompts: unknown[] = [];
  client.setRequestHandler(CreateMessageRequestSchema, async (request) => {
    prompts.push(request.params);
    return { role: 'assistant', model: 'fake-model', content: { type: 'text', text: reply } };
  });
  await client.connect(clientSide);
  await client.listTools();
  return {
    client,
    prompts,
    call: async (name, args = {}) => (await client.callTool({ name, arguments: args })) as CallToolResult,
    async close() {
      await client.close();
      await server.close();
    },
  };
}
