import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
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
      const all = structured<{
        flows: { name: string; id: string; nodeCount: number; version: number; updatedAt: string }[];
      }>(await mcp.call('svc_list_flows'));
      expect(all.flows.map((flow) => flow.name).sort()).toEqual(['inventory-sync', 'order-check']);
      const order = all.flows.find((flow) => flow.name === 'order-check')!;
      expect(order).toMatchObject({
        nodeCount: 3,
        version: 1,
        description: 'Create a customer and an order for it, then read the order back.',
      });
      expect(Number.isNaN(Date.parse(order.updatedAt))).toBe(false);

      const found = await mcp.call('svc_list_flows', { search: 'INVENTORY' });
      expect(structured<{ flows: { name: string }[] }>(found).flows.map((flow) => flow.name)).toEqual([
        'inventory-sync',
      ]);
      expect(textOf(found)).toMatch(/^1 flow:\nname\s+id\s+version\s+nodes\s+updated\ninventory-sync\s+flw_/);
      expect(structured(await mcp.call('svc_list_flows', { search: 'no such flow' }))).toEqual({
        flows: [],
        hasMore: false,
      });
    });

    it('gets the whole flow by id', async () => {
      const { flows } = structured<{ flows: { id: string; name: string }[] }>(
        await mcp.call('svc_list_flows', { search: 'order-check' }),
      );
      const result = await mcp.call('svc_get_flow', { flowId: flows[0]!.id });
      expect(result.isError).toBeFalsy();
      const { flow } = structured<{ flow: FlowOut }>(result);
      expect(flow.id).toBe(flows[0]!.id);
      expect(flow.nodes).toHaveLength(3);
      expect(flow.nodes[2]!.config).toMatchObject({ url: '{{env.baseUrl}}/orders/{{CreateOrder.response.body.id}}' });
      expect(flow.flowData.canvasGroups).toEqual([
        expect.objectContaining({ title: 'Checkout', nodeIds: ['n1', 'n2', 'n3'] }),
      ]);
      expect(textOf(result)).toContain(
        '- ReadOrder [endpoint] id n3: {"url":"{{env.baseUrl}}/orders/{{CreateOrder.response.body.id}}"',
      );
      expect(textOf(result)).toContain('frame "Checkout" [Purple]: CreateCustomer, CreateOrder, ReadOrder');
    });

    it('refuses a flow that does not validate with every problem and its path, and saves nothing', async () => {
      const before = structured<{ flows: unknown[] }>(await mcp.call('svc_list_flows')).flows.length;
      const result = await mcp.call('svc_create_flow', {
        name: 'broken',
        nodes: [
          { id: 'a', name: 'First', type: 'endpoint', config: { url: '{{env.baseUrl}}/health' } },
          { id: 'b', name: 'First', type: 'delay', config: {} },
          { id: 'c', name: 'Reader', type: 'endpoint', config: { url: '{{Later.response.body.id}}' } },
          { id: 'd', name: 'Later', type: 'endpoint', config: { method: 'FETCH', url: 'orders/1' } },
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
          'nodes[1].config.duration INVALID_CONFIG',
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

    it('refuses an unknown node type and unknown keys before calling, naming what was meant', async () => {
      const teleport = await mcp.call('svc_create_flow', {
        name: 'x',
        nodes: [{ id: 'a', name: 'A', type: 'teleport', config: {} }],
        connections: [],
      });
      expect(teleport.isError).toBe(true);
      expect(textOf(teleport)).toContain(
        'unknown node type; type is one of: endpoint, switch, variables, delay, for, repeat, collect, subflow, component-webhook at nodes[0]',
      );
      const typo = await mcp.call('svc_get_flow', { flowid: 'flw_1' });
      expect(textOf(typo)).toContain('unknown key flowid; did you mean flowId?');
    });

    it('refuses a relative URL at save, and a second flow of the same name unless asked', async () => {
      const relative = await mcp.call('svc_create_flow', {
        name: 'relative',
        nodes: [{ id: 'a', name: 'A', type: 'endpoint', config: { url: '/orders' } }],
        connections: [],
      });
      expect(structured<ErrorOut>(relative).error.problems).toEqual([
        expect.objectContaining({ code: 'RELATIVE_URL', path: 'nodes[0].config.url' }),
      ]);
      const first = await create(failingFlow('same-name'));
      const second = await mcp.call('svc_create_flow', failingFlow('same-name') as Record<string, unknown>);
      expect(second.isError).toBe(true);
      expect(structured<ErrorOut>(second).error.code).toBe('FLOW_NAME_TAKEN');
      expect(textOf(second)).toContain(first.id);
      const allowed = await mcp.call('svc_create_flow', { ...failingFlow('same-name'), allowDuplicateName: true });
      expect(allowed.isError, textOf(allowed)).toBeFalsy();
      // Now the name is ambiguous: a name where an id belongs says so, with both ids.
      const ambiguous = await mcp.call('svc_get_flow', { flowId: 'same-name' });
      expect(structured<ErrorOut>(ambiguous).error.code).toBe('FLOW_NAME_AMBIGUOUS');
      expect(textOf(ambiguous)).toContain(first.id);
    });

    it('runs a flow to Completed and answers the trace with status codes and latencies', async () => {
      const flow = await create(orderFlow('order-run'));
      const result = await mcp.call('svc_run_flow', { flowId: flow.id, env });
      expect(result.isError, textOf(result)).toBeFalsy();
      const { execution, hint } = structured<{ execution: ExecutionOut; hint?: string }>(result);
      expect(hint).toBeUndefined();
      expect(execution).toMatchObject({
        status: 'Completed',
        nodesExecuted: 3,
        nodesSkipped: 0,
        stepsExecuted: 3,
        error: null,
      });
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
      expect(byName.MissingOrder).toMatchObject({
        status: 'Failed',
        statusCode: 404,
        error: { code: 'HTTP_ERROR_STATUS' },
      });
      expect(byName.NeverRuns).toMatchObject({ status: 'Skipped', skipKind: 'failure' });
      const text = textOf(result);
      expect(text).toContain('MissingOrder failed: HTTP_ERROR_STATUS');
      expect(text).toContain('response 404: {"error":');
    });

    it('reads an execution again by id', async () => {
      const flow = await create(orderFlow('order-reread'));
      const run = structured<{ execution: ExecutionOut }>(
        await mcp.call('svc_run_flow', { flowId: flow.id, env }),
      ).execution;
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
          .poll(
            async () =>
              structured<{ execution: ExecutionOut }>(
                await mcp.call('svc_get_execution', { executionId: execution.executionId }),
              ).execution.status,
            {
              timeout: 5_000,
              interval: 200,
            },
          )
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

    it('runs a flow given by name, and refuses a run whose env lacks a key the flow reads, naming it', async () => {
      await create(orderFlow('run-by-name'));
      const byName = await mcp.call('svc_run_flow', { flowId: 'run-by-name', env });
      expect(structured<{ execution: ExecutionOut }>(byName).execution.status).toBe('Completed');
      const missing = await mcp.call('svc_run_flow', { flowId: 'run-by-name' });
      expect(missing.isError).toBe(true);
      expect(textOf(missing)).toMatch(/^MISSING_ENV: env does not give baseUrl: baseUrl \(read by run-by-name\)/);
      const named = await mcp.call('svc_run_flow', { flowId: 'run-by-name', env: 'staging' });
      expect(textOf(named)).toMatch(/^ENVIRONMENT_NOT_FOUND: environment "staging" not found/);
    });

    it('reports progress per finished step', async () => {
      const flow = await create(orderFlow('progress-contract'));
      const messages: string[] = [];
      await mcp.client.callTool({ name: 'svc_run_flow', arguments: { flowId: flow.id, env } }, CallToolResultSchema, {
        onprogress: (progress) => messages.push(progress.message ?? ''),
      });
      expect(messages[0]).toMatch(/^execution \S+ started \(flow progress-contract\)$/);
      expect(messages.slice(1).map((message) => message.split(' ')[0])).toEqual([
        'CreateCustomer',
        'CreateOrder',
        'ReadOrder',
      ]);
    });

    it('updates a flow by patch or whole document with expectedVersion, and answers a stale version with how to recover', async () => {
      const flow = await create(failingFlow('to-fix'));
      // The mistake: MissingOrder asks for an order that does not exist. A merge patch replaces the nodes.
      const nodes = flow.nodes.map((node) =>
        node.name === 'MissingOrder' ? { ...node, name: 'Health2', config: { url: '{{env.baseUrl}}/health' } } : node,
      );
      const patched = await mcp.call('svc_update_flow', {
        flowId: flow.id,
        expectedVersion: 1,
        patch: { nodes, description: 'fixed' },
      });
      expect(patched.isError, textOf(patched)).toBeFalsy();
      expect(structured<{ flow: FlowOut }>(patched).flow).toMatchObject({ id: flow.id, version: 2 });
      expect(textOf(patched)).toContain(`Saved flow ${flow.id} as version 2`);
      const run = structured<{ execution: ExecutionOut }>(
        await mcp.call('svc_run_flow', { flowId: flow.id, env }),
      ).execution;
      expect(run.status).toBe('Completed');

      const stale = await mcp.call('svc_update_flow', {
        flowId: flow.id,
        expectedVersion: 1,
        patch: { description: 'late' },
      });
      expect(stale.isError).toBe(true);
      expect(structured<ErrorOut>(stale).error.code).toBe('CONFLICT');
      expect(textOf(stale)).toContain('is at version 2, not expectedVersion 1');
      expect(textOf(stale)).toContain('Re-read it with svc_get_flow');

      const whole = await mcp.call('svc_update_flow', {
        flowId: flow.id,
        expectedVersion: 2,
        document: { ...structured<{ flow: FlowOut }>(patched).flow, name: 'fixed-flow' },
      });
      expect(structured<{ flow: FlowOut }>(whole).flow).toMatchObject({ name: 'fixed-flow', version: 3 });
      const both = await mcp.call('svc_update_flow', { flowId: flow.id, expectedVersion: 3 });
      expect(textOf(both)).toContain('give exactly one of document (the whole flow) and patch');
      const invalid = await mcp.call('svc_update_flow', {
        flowId: flow.id,
        expectedVersion: 3,
        patch: { nodes: [{ id: 'x', name: 'X', type: 'endpoint', config: { url: 'x' } }] },
      });
      expect(structured<ErrorOut>(invalid).error.problems).toEqual(
        expect.arrayContaining([expect.objectContaining({ path: 'nodes[0].config.url', code: 'RELATIVE_URL' })]),
      );
    });

    it('validates a document without saving it, with every problem and its path', async () => {
      const before = structured<{ flows: unknown[] }>(await mcp.call('svc_list_flows')).flows.length;
      const bad = await mcp.call('svc_validate_flow', {
        document: {
          name: 'v',
          nodes: [
            { id: 'a', name: 'A', type: 'endpoint', config: { url: 'orders' } },
            { id: 'b', name: 'A', type: 'delay', config: { duration: 1 } },
          ],
        },
      });
      expect(bad.isError).toBeFalsy();
      const out = structured<{ valid: boolean; problems: { path: string; code: string }[] }>(bad);
      expect(out.valid).toBe(false);
      expect(out.problems.map((problem) => `${problem.path} ${problem.code}`).sort()).toEqual([
        'nodes[0].config.url RELATIVE_URL',
        'nodes[1].name DUPLICATE_NODE_NAME',
      ]);
      expect(textOf(bad)).toContain('- nodes[0].config.url: RELATIVE_URL: ');
      const good = structured<{ valid: boolean }>(
        await mcp.call('svc_validate_flow', { document: orderFlow('valid-one') as Record<string, unknown> }),
      );
      expect(good.valid).toBe(true);
      expect(structured<{ flows: unknown[] }>(await mcp.call('svc_list_flows')).flows).toHaveLength(before);
    });

    it('lists the executions of a flow newest first, pages them, cancels a run, and deletes the flow', async () => {
      const flow = await create(slowFlow('listed', '20s'));
      const done = await create(orderFlow('listed-done'));
      const first = structured<{ execution: ExecutionOut }>(
        await mcp.call('svc_run_flow', { flowId: done.id, env }),
      ).execution;
      const second = structured<{ execution: ExecutionOut }>(
        await mcp.call('svc_run_flow', { flowId: done.id, env }),
      ).execution;
      const page = structured<{
        executions: { executionId: string; status: string; durationMs: number }[];
        nextCursor: string | null;
      }>(await mcp.call('svc_list_executions', { flowId: 'listed-done', limit: 1 }));
      expect(page.executions.map((execution) => execution.executionId)).toEqual([second.executionId]);
      expect(page.executions[0]).toMatchObject({ status: 'Completed', durationMs: expect.any(Number) });
      const rest = structured<{ executions: { executionId: string }[]; nextCursor: string | null }>(
        await mcp.call('svc_list_executions', { flowId: done.id, cursor: page.nextCursor }),
      );
      expect(rest.executions.map((execution) => execution.executionId)).toEqual([first.executionId]);

      const short = await connect(subject.api, { runWaitMs: 300 });
      try {
        const running = structured<{ execution: ExecutionOut }>(
          await short.call('svc_run_flow', { flowId: flow.id, env }),
        ).execution;
        expect(['Running', 'Waiting']).toContain(running.status);
        const cancelled = await mcp.call('svc_cancel_execution', { executionId: running.executionId });
        expect(structured<{ execution: ExecutionOut }>(cancelled).execution.status).toBe('Cancelled');
        const listed = structured<{ executions: { executionId: string; status: string }[] }>(
          await mcp.call('svc_list_executions', { flowId: flow.id }),
        );
        expect(listed.executions[0]).toMatchObject({ executionId: running.executionId, status: 'Cancelled' });
      } finally {
        await short.close();
      }

      const deleted = await mcp.call('svc_delete_flow', { flowId: done.id });
      expect(structured(deleted)).toEqual({ flowId: done.id, name: 'listed-done', deleted: true });
      expect(structured<ErrorOut>(await mcp.call('svc_get_flow', { flowId: done.id })).error.code).toBe(
        'FLOW_NOT_FOUND',
      );
      // Its executions stay readable by id.
      expect(
        structured<{ execution: ExecutionOut }>(await mcp.call('svc_get_execution', { executionId: first.executionId }))
          .execution.status,
      ).toBe('Completed');
    });
  });
}
