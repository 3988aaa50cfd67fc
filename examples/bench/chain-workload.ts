import { Agent, request } from 'undici';
import { createEgressPolicy, createEngine, type Engine, type FlowDocumentInput, type Store } from '@svc/engine';

/** Pairs of POST /orders then GET /orders/{id}; each POST names the previous order as its parent. */
export const PAIRS = 5;
/** Requests, and steps of the engine's trace, per chain. */
export const STEPS = PAIRS * 2;

/** The workload as a plain undici script: what the engine is measured against. */
export function createPlainChain(baseUrl: string): { run(): Promise<void>; close(): Promise<void> } {
  const agent = new Agent({ keepAliveTimeout: 10_000, connections: 64 });
  return {
    async run() {
      let previous: string | null = null;
      for (let pair = 0; pair < PAIRS; pair += 1) {
        const created = await request(`${baseUrl}/orders`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ total: 10, parentOrderId: previous }),
          dispatcher: agent,
        });
        if (created.statusCode !== 201) throw new Error(`POST /orders answered ${created.statusCode}`);
        const order = (await created.body.json()) as { id: string };
        const read = await request(`${baseUrl}/orders/${order.id}`, { dispatcher: agent });
        if (read.statusCode !== 200) throw new Error(`GET /orders answered ${read.statusCode}`);
        previous = ((await read.body.json()) as { id: string }).id;
      }
    },
    close: () => agent.close(),
  };
}

/** The same workload as a flow: ten endpoint nodes, each with a status assertion. */
export function chainFlow(): FlowDocumentInput {
  const nodes: FlowDocumentInput['nodes'] = [];
  const connections: NonNullable<FlowDocumentInput['connections']> = [];
  for (let pair = 1; pair <= PAIRS; pair += 1) {
    nodes.push({
      id: `post${pair}`,
      name: `CreateOrder${pair}`,
      type: 'endpoint',
      config: {
        method: 'POST',
        url: '{{env.baseUrl}}/orders',
        body: { total: 10, parentOrderId: pair === 1 ? null : `{{ReadOrder${pair - 1}.response.body.id}}` },
        assertions: [{ target: 'statusCode', operator: '==', value: 201 }],
      },
    });
    nodes.push({
      id: `get${pair}`,
      name: `ReadOrder${pair}`,
      type: 'endpoint',
      config: {
        url: `{{env.baseUrl}}/orders/{{CreateOrder${pair}.response.body.id}}`,
        assertions: [{ target: 'statusCode', operator: '==', value: 200 }],
      },
    });
    connections.push({ id: `w${pair}a`, source: `post${pair}`, target: `get${pair}` });
    if (pair > 1) connections.push({ id: `w${pair}b`, source: `get${pair - 1}`, target: `post${pair}` });
  }
  return { name: 'bench-chain', nodes, connections };
}

/**
 * The engine side of the chain on `store`, as `svc` runs it: an engine, the chain's flow saved,
 * and one chain per call of `run`, which throws unless the run completed with a step per request.
 */
export async function startEngineChain(
  store: Store,
  baseUrl: string,
): Promise<{ engine: Engine; run(): Promise<void> }> {
  const engine = await createEngine({
    store,
    maxConcurrentExecutions: 64,
    egress: createEgressPolicy({ mode: 'local' }),
  });
  const flow = await engine.flows.create('bench', chainFlow());
  return {
    engine,
    async run() {
      const execution = await engine.runFlow({ tenantId: 'bench', flowId: flow.id, env: { baseUrl }, waitMs: 60_000 });
      if (execution.status !== 'Completed' || execution.steps?.length !== STEPS)
        throw new Error(`engine run ended ${execution.status}: ${JSON.stringify(execution.error)}`);
    },
  };
}
