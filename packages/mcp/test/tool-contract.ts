import type { SvcApi } from '@svc/mcp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDemoApi, type DemoApi } from '../../../examples/demo-api/server.js';
import { connect, failingFlow, orderFlow, slowFlow, structured, textOf, type Connected } from './helpers.js';

interface FlowOut {
  id: string;
  name: string;
  version: number;
  nodes: { id: string; name: string; type: string; config: Record<string, unknown> }[];
  connections: { id: string; source: string; target: string; sourceHandle: string }[];
  flowData: { canvasGroups: { title: string; nodeIds: string[] }[] };
  updatedAt: string;
}
interface StepOut {
  nodeName: string;
  status: string;
  statusCode: number | null;
  latencyMs: number | null;
  error: { code: string; message: string } | null;
  skipKind: string | null;
  request: { method: string; url: string } | null;
  response: { status: number; body?: unknown } | null;
}
interface ExecutionOut {
  executionId: string;
  status: string;
  durationMs: number | null;
  nodesExecuted: number;
  nodesSkipped: number;
  stepsExecuted: number;
  error: { code: string; nodeName?: string } | null;
  steps: StepOut[];
}
interface ErrorOut {
  error: { code: string; message: string; problems?: { code: string; path: string; message: string }[] };
}

export interface ContractSubject {
  api: SvcApi;
  close(): Promise<void>;
}

/**
 * The tool behaviour every `SvcApi` must give, run through a real MCP client: the same calls
 * answer the same way whether the engine is in this process or behind the REST gateway.
 */
export function describeToolContract(label: string, open: () => Promise<ContractSubject>): void {
  describe(`svc tools over ${label}`, () => {
    let demo: DemoApi;
    let subject: ContractSubject;
    let mcp: Connected;
    let env: { baseUrl: string };

    beforeAll(async () => {
      demo = await startDemoApi({ port: 0 });
      env = { baseUrl: demo.url };
      subject = await open();
      mcp = await connect(subject.api);
    });
    afterAll(async () => {
      await mcp?.close();
      await subject?.close();
      await demo?.close();
    });

    const create = async (document: object) => {
      const result = await mcp.call('svc_create_flow', document as Record<string, unknown>);
      expect(result.isError, textOf(result)).toBeFalsy();
      return structured<{ flow: FlowOut }>(result).flow;
    };

    it('lists no flows in an empty workspace', async () => {
      const result = await mcp.call('svc_list_flows');
      expect(result.isError).toBeFalsy();
      expect(structured(result)).toEqual({ flows: [], hasMore: false });
      expect(textOf(result)).toBe('No flows found.');
    });

    it('creates a flow and answers it saved, with its id, wires, configs and frames', async () => {
      const result = await mcp.call('svc_create_flow', orderFlow() as Record<string, unknown>);
      expect(result.isError, textOf(result)).toBeFalsy();
      const { flow } = structured<{ flow: FlowOut }>(result);
      expect(flow.id).toMatch(/^flw_/);
      expect(flow).toMatchObject({ name: 'order-check', version: 1 });
      expect(flow.nodes.map((node) => node.name)).toEqual(['CreateCustomer', 'CreateOrder', 'ReadOrder']);
      expect(flow.connections).toEqual([
        { id: 'w1', source: 'n1', sourceHandle: 'out', target: 'n2' },
        { id: 'w2', source: 'n2', sourceHandle: 'out', target: 'n3' },
      ]);
      expect(flow.nodes[1]!.config.body).toEqual({ customerId: '{{CreateCustomer.response.body.id}}', total: 42 });
      expect(textOf(result)).toContain(`Created flow ${flow.id}`);
      expect(textOf(result)).toContain('- CreateCustomer → CreateOrder');
    });

    it('lists flows with name, id, version, node count and last-modified time, and finds them by search', async () => {
      await create(failingFlow('inventory-sync'));
      const all = structured<{ flows: { name: string; id: string; nodeCount: number; version: number; updatedAt: string }[] }>(await mcp.call('svc_list_flows'));
      expect(all.flows.map((flow) => flow.name).sort()).toEqual(['inventory-sync', 'order-check']);
      const order = all.flows.find((flow) => flow.name === 'order-check')!;
      expect(order).toMatchObject({ nodeCount: 3, version: 1, description: 'Create a customer and an order for it, then read the order back.' });
      expect(Number.isNaN(Date.parse(order.updatedAt))).toBe(false);

      const found = await mcp.call('svc_list_flows', { search: 'INVENTORY' });
      expect(structured<{ flows: { name: string }[] }>(found).flows.map((flow) => flow.name)).toEqual(['inventory-sync']);
      expect(textOf(found)).toMatch(/^1 flow:\nname\s+id\s+version\s+nodes\s+updated\ninventory-sync\s+flw_/);
      expect(structured(await mcp.call('svc_list_flows', { search: 'no such flow' }))).toEqual({ flows: [], hasMore: false });
    });

    it('gets the whole flow by id', async () => {
      const { flows } = structured<{ flows: { id: string; name: string }[] }>(await mcp.call('svc_list_flows', { search: 'order-check' }));
      const result = await mcp.call('svc_get_flow', { flowId: flows[0]!.id });
      expect(result.isError).toBeFalsy();
      const { flow } = structured<{ flow: FlowOut }>(result);
      expect(flow.id).toBe(flows[0]!.id);
      expect(flow.nodes).toHaveLength(3);
      expect(flow.nodes[2]!.config).toMatchObject({ url: '{{env.baseUrl}}/orders/{{CreateOrder.response.body.id}}' });
      expect(flow.flowData.canvasGroups).toEqual([expect.objectContaining({ title: 'Checkout', nodeIds: ['n1', 'n2', 'n3'] })]);
      expect(textOf(result)).toContain('- ReadOrder [endpoint] id n3: {"url":"{{env.baseUrl}}/orders/{{CreateOrder.response.body.id}}"');
      expect(textOf(result)).toContain('frame "Checkout" [Purple]: CreateCustomer, CreateOrder, ReadOrder');
    });

    it('refuses a flow that does not validate with every problem and its path, and saves nothing', async () => {
      const before = structured<{ flows: unknown[] }>(await mcp.call('svc_list_flows')).flows.length;
      const result = await mcp.call('svc_create_flow', {
        name: 'broken',
        nodes: [
          { id: 'a', name: 'First', type: 'endpoint', config: { url: '{{env.baseUrl}}/health' } },
          { id: 'b', name: 'First', type: 'teleport', config: {} },
          { id: 'c', name: 'Reader', type: 'endpoint', config: { url: '{{Later.response.body.id}}' } },
          { id: 'd', name: 'Later', type: 'endpoint', config: { method: 'FETCH', url: 'http://x' } },
        ],
        connections: [
          { id: 'w1', source: 'a', target: 'ghost' },
          { id: 'w2', source: 'a', sourceHandle: 'case-0', target: 'c' },
        ],
      });
      expect(result.isError).toBe(true);
      const { error } = structured<ErrorOut>(result);
      expect(error.code).toBe('VALIDATION_ERROR');
      const found = error.problems!.map((problem) => `${problem.path} ${problem.code}`);
      expect(found).toEqual(
        expect.arrayContaining([
          'nodes[1].name DUPLICATE_NODE_NAME',
          'nodes[1].type UNKNOWN_NODE_TYPE',
          'nodes[3].config.method INVALID_CONFIG',
          'connections[0].target WIRE_TO_MISSING_NODE',
          'connections[1].sourceHandle UNKNOWN_HANDLE',
          'nodes[2].config.url NOT_UPSTREAM',
        ]),
      );
      const text = textOf(result);
      expect(text).toMatch(/^VALIDATION_ERROR: the flow does not validate \(\d+ problems\):/);
      for (const problem of error.problems!) expect(text).toContain(`- ${problem.path}: ${problem.code}: `);
      expect(structured<{ flows: unknown[] }>(await mcp.call('svc_list_flows')).flows).toHaveLength(before);
    });

    it('runs a flow to Completed and answers the trace with status codes and latencies', async () => {
      const flow = await create(orderFlow('order-run'));
      const result = await mcp.call('svc_run_flow', { flowId: flow.id, env });
      expect(result.isError, textOf(result)).toBeFalsy();
      const { execution, hint } = structured<{ execution: ExecutionOut; hint?: string }>(result);
      expect(hint).toBeUndefined();
      expect(execution).toMatchObject({ status: 'Completed', nodesExecuted: 3, nodesSkipped: 0, stepsExecuted: 3, error: null });
      expect(execution.executionId).toMatch(/^[0-9a-f-]{36}$/);
      expect(execution.durationMs).toBeGreaterThanOrEqual(0);
      expect(execution.steps.map((step) => [step.nodeName, step.status, step.statusCode])).toEqual([
        ['CreateCustomer', 'Completed', 201],
        ['CreateOrder', 'Completed', 201],
        ['ReadOrder', 'Completed', 200],
      ]);
      for (const step of execution.steps) expect(step.latencyMs).toBeGreaterThanOrEqual(0);
      const order = execution.steps[1]!;
      expect(order.request).toMatchObject({ method: 'POST', url: `${demo.url}/orders` });
      expect(order.response?.body).toMatchObject({ id: expect.stringMatching(/^ord_/), total: 42 });

      const text = textOf(result);
      expect(text).toMatch(/^order-run: Completed in \d+ ms · 3 nodes executed · 0 skipped · 3 steps/);
      expect(text).toMatch(/#\s+step\s+status\s+code\s+latency\s+note/);
      expect(text).toMatch(/2\s+CreateOrder\s+Completed\s+201\s+\d+ ms\s+POST http/);
    });

    it('answers a run whose step fails as a normal result: status Failed, the failing step and its error', async () => {
      const flow = await create(failingFlow('failing-run'));
      const result = await mcp.call('svc_run_flow', { flowId: flow.id, env });
      expect(result.isError).toBeFalsy();
      const { execution } = structured<{ execution: ExecutionOut }>(result);
      expect(execution.status).toBe('Failed');
      expect(execution.error).toMatchObject({ code: 'HTTP_ERROR_STATUS', nodeName: 'MissingOrder' });
      const byName = Object.fromEntries(execution.steps.map((step) => [step.nodeName, step]));
      expect(byName.Health).toMatchObject({ status: 'Completed', statusCode: 200 });
      expect(byName.MissingOrder).toMatchObject({ status: 'Failed', statusCode: 404, error: { code: 'HTTP_ERROR_STATUS' } });
      expect(byName.NeverRuns).toMatchObject({ status: 'Skipped', skipKind: 'failure' });
      const text = textOf(result);
      expect(text).toContain('MissingOrder failed: HTTP_ERROR_STATUS');
      expect(text).toContain('response 404: {"error":');
    });

    it('reads an execution again by id', async () => {
      const flow = await create(orderFlow('order-reread'));
      const run = structured<{ execution: ExecutionOut }>(await mcp.call('svc_run_flow', { flowId: flow.id, env })).execution;
      const result = await mcp.call('svc_get_execution', { executionId: run.executionId });
      expect(result.isError).toBeFalsy();
      const { execution } = structured<{ execution: ExecutionOut }>(result);
      expect(execution).toMatchObject({ executionId: run.executionId, status: 'Completed', nodesExecuted: 3 });
      expect(execution.steps.map((step) => step.nodeName)).toEqual(['CreateCustomer', 'CreateOrder', 'ReadOrder']);
      expect(textOf(result)).toContain(`execution ${run.executionId}`);
    });

    it('answers a run that outlasts the wait with its current status and a hint to read it later', async () => {
      const short = await connect(subject.api, { runWaitMs: 300 });
      try {
        const flow = await create(slowFlow());
        const result = await short.call('svc_run_flow', { flowId: flow.id, env });
        expect(result.isError).toBeFalsy();
        const { execution, hint } = structured<{ execution: ExecutionOut; hint: string }>(result);
        expect(['Running', 'Waiting']).toContain(execution.status);
        expect(hint).toContain(`svc_get_execution with executionId "${execution.executionId}"`);
        expect(textOf(result)).toContain(hint);
        await expect
          .poll(async () => structured<{ execution: ExecutionOut }>(await mcp.call('svc_get_execution', { executionId: execution.executionId })).execution.status, {
            timeout: 5_000,
            interval: 200,
          })
          .toBe('Completed');
      } finally {
        await short.close();
      }
    });

    it('answers unknown ids with isError and the not-found code', async () => {
      for (const [tool, args, code] of [
        ['svc_get_flow', { flowId: 'flw_nope' }, 'FLOW_NOT_FOUND'],
        ['svc_run_flow', { flowId: 'flw_nope', env }, 'FLOW_NOT_FOUND'],
        ['svc_get_execution', { executionId: '00000000-0000-4000-8000-000000000000' }, 'EXECUTION_NOT_FOUND'],
      ] as const) {
        const result = await mcp.call(tool, args);
        expect(result.isError, tool).toBe(true);
        expect(structured<ErrorOut>(result).error.code).toBe(code);
        expect(textOf(result)).toMatch(new RegExp(`^${code}: `));
      }
    });

    it('refuses a stored environment name with a clear error', async () => {
      const flow = await create(orderFlow('env-by-name'));
      const result = await mcp.call('svc_run_flow', { flowId: flow.id, env: 'staging' });
      expect(result.isError).toBe(true);
      expect(structured<ErrorOut>(result).error.code).toBe('ENVIRONMENT_NOT_SUPPORTED');
      expect(textOf(result)).toContain('stored environments are not supported yet');
    });
  });
}
