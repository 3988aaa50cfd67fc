import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExecutionView, FlowDocumentInput } from '@svc/engine';
import { startHarness, TENANT, type Harness } from './helpers/harness.js';

let h: Harness;
let childId: string;
beforeAll(async () => {
  h = await startHarness();
  //  Child:  Remember (sets flowVars.internal) ──▶ CreateOrder (for the input customerId)
  //  outputs: orderId, customerId
  const child = await h.engine.flows.create(TENANT, {
    name: 'create-order-for',
    inputs: { customerId: { type: 'string', required: true }, total: { type: 'number', default: 5 } },
    outputs: {
      orderId: '{{ResponseBinding.CreateOrder.body.id}}',
      customerId: '{{CreateOrder.response.body.customerId}}',
    },
    nodes: [
      { id: 'v', name: 'Remember', type: 'variables', config: { set: { internal: 'child only' } } },
      {
        id: 'o',
        name: 'CreateOrder',
        type: 'endpoint',
        config: {
          method: 'POST',
          url: '{{env.baseUrl}}/orders',
          body: { customerId: '{{flowVars.customerId}}', total: '{{flowVars.total}}' },
          assertions: [{ target: 'body.customerId', operator: 'starts_with', value: 'cus_' }],
        },
      },
    ],
    connections: [{ id: 'w', source: 'v', target: 'o' }],
  });
  childId = child.id;
});
afterAll(async () => {
  await h.close();
});

const stepsOf = (execution: ExecutionView, name: string) =>
  (execution.steps ?? []).filter((step) => step.nodeName === name);

//  Customer ──▶ Sub (child flow) ──▶ Read (reads Sub's outputs)
const parent = (customerId: string, onFailure?: string, extra: Partial<FlowDocumentInput> = {}): FlowDocumentInput => ({
  name: `parent-${customerId}-${onFailure ?? 'halt'}`,
  nodes: [
    { id: 'c', name: 'Customer', type: 'variables', config: { set: { id: customerId } } },
    {
      id: 's',
      name: 'Sub',
      type: 'subflow',
      config: { flowId: childId, inputs: { customerId: '{{flowVars.id}}' }, ...(onFailure ? { onFailure } : {}) },
    },
    {
      id: 'r',
      name: 'Read',
      type: 'endpoint',
      config: {
        url: '{{env.baseUrl}}/echo?order={{ResponseBinding.Sub.body.orderId?}}&internal={{flowVars.internal?}}',
      },
    },
    ...(extra.nodes ?? []),
  ],
  connections: [
    { id: 'w1', source: 'c', target: 's' },
    { id: 'w2', source: 's', target: 'r' },
    ...(extra.connections ?? []),
  ],
});

describe('Subflow', () => {
  it('runs the child as its own linked execution and exposes its declared outputs', async () => {
    const execution = await h.run(parent('cus_42'));
    expect(execution.status).toBe('Completed');
    const sub = stepsOf(execution, 'Sub').at(-1)!;
    const { childExecutionId } = sub.response as { childExecutionId: string };
    const child = await h.engine.getExecution(TENANT, childExecutionId);
    expect(child).toMatchObject({
      status: 'Completed',
      parentExecutionId: execution.executionId,
      trigger: { type: 'subflow', depth: 1 },
    });
    expect(child.steps!.map((step) => step.nodeName)).toEqual(['Remember', 'CreateOrder']);
    const orderId = child.outputs!.orderId as string;
    expect(orderId).toMatch(/^ord_/);
    expect(sub.output).toEqual({ body: { orderId, customerId: 'cus_42' } });
    // The parent read the child's output, and none of the child's variables.
    expect(new URL((stepsOf(execution, 'Read')[0]!.request as { url: string }).url).search).toBe(
      `?order=${orderId}&internal=`,
    );
    // The child's steps are its own: the parent's trace holds none of them.
    expect(stepsOf(execution, 'CreateOrder')).toEqual([]);
    expect(child.outputs).toEqual({ orderId, customerId: 'cus_42' });
  });

  it('halts the parent when the child fails (the default policy)', async () => {
    const execution = await h.run(parent('not-a-customer'));
    expect(execution.status).toBe('Failed');
    expect(execution.error).toMatchObject({ code: 'SUBFLOW_FAILED', nodeName: 'Sub' });
    expect(execution.error!.message).toContain('ASSERTION_FAILED');
    expect(stepsOf(execution, 'Read')[0]).toMatchObject({ status: 'Skipped', skipKind: 'failure' });
  });

  it('routes to the error handle with fallback', async () => {
    //  Sub ─error─▶ Fallback
    const execution = await h.run(
      parent('not-a-customer', 'fallback', {
        nodes: [
          {
            id: 'f',
            name: 'Fallback',
            type: 'variables',
            config: { set: { reason: '{{ResponseBinding.Sub.body.error.code}}' } },
          },
        ],
        connections: [{ id: 'w3', source: 's', target: 'f', sourceHandle: 'error' }],
      }),
    );
    expect(execution.status).toBe('Completed');
    expect(stepsOf(execution, 'Fallback')[0]).toMatchObject({
      status: 'Completed',
      output: { body: { reason: 'SUBFLOW_FAILED' } },
    });
    expect(stepsOf(execution, 'Read')[0]).toMatchObject({ status: 'Skipped', skipKind: 'condition' });
  });

  it('completes with the error as its output with continue', async () => {
    const execution = await h.run(parent('not-a-customer', 'continue'));
    expect(execution.status).toBe('Completed');
    expect((stepsOf(execution, 'Sub').at(-1)!.output as { body: { error: { code: string } } }).body.error.code).toBe(
      'SUBFLOW_FAILED',
    );
    expect(stepsOf(execution, 'Read')[0]!.status).toBe('Completed');
  });

  it('checks the child, its inputs and the policy handles when the parent is saved', async () => {
    const save = (flow: FlowDocumentInput) =>
      h.engine.flows.create(TENANT, flow).then(
        () => [],
        (error: { code: string; details?: { problems: { code: string; path: string }[] } }) =>
          error.details?.problems.map((problem) => [problem.code, problem.path]) ?? [error.code],
      );
    expect(
      await save({ name: 'p1', nodes: [{ id: 's', name: 'Sub', type: 'subflow', config: { flowId: 'flw_nowhere' } }] }),
    ).toEqual([['FLOW_NOT_FOUND', 'nodes[0].config.flowId']]);
    expect(
      await save({
        name: 'p2',
        nodes: [{ id: 's', name: 'Sub', type: 'subflow', config: { flowId: childId, inputs: { customer: 'x' } } }],
      }),
    ).toEqual([
      ['UNKNOWN_INPUT', 'nodes[0].config.inputs.customer'],
      ['MISSING_INPUT', 'nodes[0].config.inputs'],
    ]);
    // Only fallback has an error handle: halt fails the parent whatever is wired.
    expect(
      await save({
        name: 'p3',
        nodes: [
          { id: 's', name: 'Sub', type: 'subflow', config: { flowId: childId, inputs: { customerId: 'x' } } },
          { id: 'e', name: 'OnError', type: 'variables', config: { set: { x: 1 } } },
        ],
        connections: [{ id: 'w', source: 's', target: 'e', sourceHandle: 'error' }],
      }),
    ).toEqual([['UNKNOWN_HANDLE', 'connections[0].sourceHandle']]);
  });

  it('refuses, at save, a flow that would run itself through its subflows', async () => {
    const a = await h.engine.flows.create(TENANT, {
      name: 'loop-a',
      nodes: [{ id: 'n', name: 'Note', type: 'variables', config: { set: { a: 1 } } }],
    });
    const b = await h.engine.flows.create(TENANT, {
      name: 'loop-b',
      nodes: [{ id: 's', name: 'CallA', type: 'subflow', config: { flowId: a.id } }],
    });
    await expect(
      h.engine.flows.update(TENANT, a.id, {
        ...a,
        nodes: [{ id: 's', name: 'CallB', type: 'subflow', config: { flowId: b.id } }],
      }),
    ).rejects.toMatchObject({
      code: 'VALIDATION_ERROR',
      details: { problems: [{ code: 'SUBFLOW_RECURSION', path: 'nodes[0].config.flowId' }] },
    });
  });

  it('stops recursion it could not see at save time at a depth limit', async () => {
    // The flow id comes from an expression, so saving cannot know that it names the flow itself.
    const execution = await h.run({
      name: 'self-caller',
      nodes: [{ id: 's', name: 'Again', type: 'subflow', config: { flowId: '{{execution.flowId}}' } }],
    });
    expect(execution.status).toBe('Failed');
    expect(execution.error!.code).toBe('SUBFLOW_FAILED');
    expect(execution.error!.message).toContain('SUBFLOW_DEPTH_EXCEEDED');
    const children = await h.engine.listExecutions(TENANT, { flowId: execution.flowId, limit: 50 });
    expect(children.items).toHaveLength(9);
  });
});
