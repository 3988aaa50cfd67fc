import { describe, expect, it } from 'vitest';
import { parseFlowFile, toFlowFile } from './flow-file.js';

const YAML_FLOW = `name: order-check
description: flows as code
nodes:
  - id: n1
    name: CreateOrder
    type: endpoint
    position: { x: 0, y: 0 }
    config:
      method: POST
      url: "{{env.baseUrl}}/orders"
  - id: n2
    name: ReadOrder
    type: endpoint
    position: { x: 300, y: 0 }
    config:
      url: "{{env.baseUrl}}/orders/{{CreateOrder.body.id}}"
connections:
  - { id: w1, source: n1, target: n2 }
flowData:
  canvasGroups:
    - id: g1
      title: Orders
      color: Amber
      bounds: { x: -40, y: -60, width: 600, height: 200 }
      nodeIds: [n1, n2]
`;

describe('parseFlowFile', () => {
  it('reads a YAML flow file, frames included', async () => {
    const parsed = await parseFlowFile(YAML_FLOW, 'order-check.flow.yaml');
    if (!parsed.ok) throw new Error(parsed.message);
    expect(parsed.flow.name).toBe('order-check');
    expect(parsed.flow.nodes.map((node) => node.name)).toEqual(['CreateOrder', 'ReadOrder']);
    expect(parsed.flow.flowData.canvasGroups[0]).toMatchObject({ title: 'Orders', nodeIds: ['n1', 'n2'] });
  });

  it('reads back what it exports as JSON, without the id and version the server keeps', async () => {
    const yaml = await parseFlowFile(YAML_FLOW, 'order-check.yaml');
    if (!yaml.ok) throw new Error(yaml.message);
    const json = await parseFlowFile(toFlowFile({ ...yaml.flow, id: 'flw_1', version: 4 }), 'order-check.flow.json');
    if (!json.ok) throw new Error(json.message);
    expect(json.flow).toEqual(yaml.flow);
    expect(json.flow).not.toHaveProperty('id');
    expect(json.flow).not.toHaveProperty('version');
  });

  it('names the line and column of a YAML syntax error', async () => {
    const parsed = await parseFlowFile('name: broken\nnodes: [\n  - id: n1\n', 'broken.yaml');
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.message).toMatch(/^broken\.yaml: not valid YAML: .* at line \d+, column \d+/);
  });

  it('says which field of a parsed file is not a flow document', async () => {
    const parsed = await parseFlowFile('name: x\nnodes: 12\n', 'bad.yml');
    expect(parsed).toEqual({ ok: false, message: expect.stringMatching(/^bad\.yml: not a flow document: nodes: /) });
  });

  it('refuses a file nested too deep before it reaches the schema', async () => {
    const deep = `${'['.repeat(100)}${']'.repeat(100)}`;
    const parsed = await parseFlowFile(`{"name":"x","nodes":${deep}}`, 'deep.json');
    expect(parsed).toEqual({ ok: false, message: expect.stringContaining('deeper than') });
  });
});
