import { describe, expect, it } from 'vitest';
import { createNodeRegistry } from '../nodes/registry.js';
import { flowDocumentSchema } from './flow-schema.js';
import { moveFrame } from './move-frame.js';
import { renameFlowNode } from './rename-flow-node.js';
import { renameNode } from './rename-node.js';
import { validateFlow } from './validate-flow.js';

const registry = createNodeRegistry();

const flow = flowDocumentSchema.parse({
  name: 'rename',
  outputs: { orderId: '{{ResponseBinding.Order.body.id}}' },
  nodes: [
    {
      id: 'n1',
      name: 'Order',
      type: 'endpoint',
      position: { x: 10, y: 20 },
      config: { method: 'POST', url: 'http://api/Order' },
    },
    {
      id: 'n2',
      name: 'Get',
      type: 'endpoint',
      position: { x: 300, y: 20 },
      config: {
        url: 'http://api/orders/{{Order.response.body.id}}?from=Order&x={{flowVars.Order}}',
        headers: {
          'x-id': "{{ ResponseBinding.Order.headers['x-id'] }}",
          'x-other': '{{flowVars.other.Order ?? "Order"}}',
        },
      },
    },
    {
      id: 'n3',
      name: 'Route',
      type: 'switch',
      position: { x: 600, y: 20 },
      config: {
        mode: 'expression',
        cases: [{ expression: "Order.statusCode === 201 && ResponseBinding.Order.body.note !== 'Order'" }],
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
        bounds: { x: 0, y: 0, width: 400, height: 200 },
        nodeIds: ['n1', 'n2'],
      },
    ],
  },
});

describe('renameNode', () => {
  it('rewrites references through parsed expressions and leaves other text alone', () => {
    const renamed = renameNode(flow, 'n1', 'CreateOrder', registry);
    const get = renamed.nodes[1]!.config as { url: string; headers: Record<string, string> };
    expect(renamed.nodes[0]!.name).toBe('CreateOrder');
    expect(get.url).toBe('http://api/orders/{{CreateOrder.response.body.id}}?from=Order&x={{flowVars.Order}}');
    expect(get.headers['x-id']).toBe("{{ ResponseBinding.CreateOrder.headers['x-id'] }}");
    expect(get.headers['x-other']).toBe('{{flowVars.other.Order ?? "Order"}}');
    expect((renamed.nodes[2]!.config as { cases: { expression: string }[] }).cases[0]!.expression).toBe(
      "CreateOrder.statusCode === 201 && ResponseBinding.CreateOrder.body.note !== 'Order'",
    );
    expect(renamed.outputs.orderId).toBe('{{ResponseBinding.CreateOrder.body.id}}');
    expect(validateFlow(renamed, registry).ok).toBe(true);
    expect(flow.nodes[0]!.name).toBe('Order');
  });

  it('refuses a name another node has, and a name that is not an identifier', () => {
    expect(() => renameNode(flow, 'n1', 'Get', registry)).toThrow(/already named/);
    expect(() => renameNode(flow, 'n1', 'has space', registry)).toThrow(/cannot be a node name/);
    expect(() => renameNode(flow, 'nope', 'X', registry)).toThrow(/not in flow/);
  });
});

describe('renameFlowNode (browsers: no registry, acorn as an ES module)', () => {
  const scripted = flowDocumentSchema.parse({
    ...flow,
    nodes: [
      ...flow.nodes,
      {
        id: 'n4',
        name: 'Again',
        type: 'repeat',
        position: { x: 900, y: 20 },
        config: { count: 3, breakWhen: 'Order.body.done === true' },
      },
      {
        id: 'n5',
        name: 'Hook',
        type: 'component-webhook',
        position: { x: 1200, y: 20 },
        config: {
          mode: 'wait',
          verification: { method: 'Pre-script', script: 'ResponseBinding.Order.body.token === headers.token' },
        },
      },
    ],
  });

  it("answers what the engine's renameNode answers, scripts of every built-in type included", () => {
    const renamed = renameFlowNode(scripted, 'n1', 'CreateOrder');
    expect(renamed).toEqual(renameNode(scripted, 'n1', 'CreateOrder', registry));
    expect((renamed.nodes[3]!.config as { breakWhen: string }).breakWhen).toBe('CreateOrder.body.done === true');
    expect((renamed.nodes[4]!.config as { verification: { script: string } }).verification.script).toBe(
      'ResponseBinding.CreateOrder.body.token === headers.token',
    );
  });

  it('refuses what the engine refuses', () => {
    expect(() => renameFlowNode(flow, 'n1', 'Get')).toThrow(/already named/);
    expect(() => renameFlowNode(flow, 'n1', 'flowVars')).toThrow(/cannot be a node name/);
  });
});

describe('moveFrame', () => {
  it('moves the frame and its nodes by the same offset, and nothing else', () => {
    const moved = moveFrame(flow, 'g1', { dx: 100, dy: -20 });
    expect(moved.flowData.canvasGroups[0]!.bounds).toEqual({ x: 100, y: -20, width: 400, height: 200 });
    expect(moved.nodes.map((node) => node.position)).toEqual([
      { x: 110, y: 0 },
      { x: 400, y: 0 },
      { x: 600, y: 20 },
    ]);
    expect(flow.nodes[0]!.position).toEqual({ x: 10, y: 20 });
  });

  it('answers FRAME_NOT_FOUND for an unknown frame', () => {
    expect(() => moveFrame(flow, 'nope', { dx: 1, dy: 1 })).toThrow(/frame "nope"/);
  });
});
