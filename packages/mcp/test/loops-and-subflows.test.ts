import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDemoApi, type DemoApi } from '../../../examples/demo-api/server.js';
import { connect, openMemoryEngine, structured, textOf, type Connected } from './helpers.js';

let api: DemoApi;
let engine: Awaited<ReturnType<typeof openMemoryEngine>>;
let mcp: Connected;
beforeAll(async () => {
  api = await startDemoApi({ port: 0 });
  engine = await openMemoryEngine();
  mcp = await connect(engine.api);
});
afterAll(async () => {
  await mcp.close();
  await engine.close();
  await api.close();
});

interface FlowResult {
  flow: { id: string; nodes: { type: string }[] };
}
interface RunResult {
  execution: {
    status: string;
    outputs: Record<string, unknown> | null;
    steps: { nodeName: string; scope: string; status: string; childExecutionId?: string }[];
  };
}

describe('loops and subflows through the tools', () => {
  it('creates and reads For, Collect and Subflow nodes, and a run shows iterations and the child execution', async () => {
    //  Child "tag-order":  Tag (POST /orders with the input label)     outputs: orderId
    const child = await mcp.call('svc_create_flow', {
      name: 'tag-order',
      inputs: { label: { type: 'string', required: true } },
      outputs: { orderId: '{{ResponseBinding.Tag.body.id}}' },
      nodes: [
        {
          id: 't',
          name: 'Tag',
          type: 'endpoint',
          config: { method: 'POST', url: '{{env.baseUrl}}/orders', body: { label: '{{flowVars.label}}' } },
        },
      ],
      connections: [],
    });
    expect(child.isError).toBeFalsy();
    const childId = structured<FlowResult>(child).flow.id;

    //  Each (for a, b) ─L─▶ Sub (tag-order) ──▶ Ids (collect)       Each ─D─▶ Done
    const created = await mcp.call('svc_create_flow', {
      name: 'tag-each',
      variables: { labels: ['a', 'b'] },
      outputs: { ids: '{{ResponseBinding.Ids.body.items}}' },
      nodes: [
        { id: 'f', name: 'Each', type: 'for', config: { items: '{{flowVars.labels}}' } },
        { id: 's', name: 'Sub', type: 'subflow', config: { flowId: childId, inputs: { label: '{{forNode.item}}' } } },
        { id: 'c', name: 'Ids', type: 'collect', config: { source: '{{ResponseBinding.Sub.body.orderId}}' } },
        { id: 'd', name: 'Done', type: 'variables', config: { set: { count: '{{Each.response.body.iterations}}' } } },
      ],
      connections: [
        { id: 'w1', source: 'f', sourceHandle: 'L', target: 's' },
        { id: 'w2', source: 's', target: 'c' },
        { id: 'w3', source: 'f', sourceHandle: 'D', target: 'd' },
      ],
    });
    expect(created.isError).toBeFalsy();
    const flowId = structured<FlowResult>(created).flow.id;
    const read = await mcp.call('svc_get_flow', { flowId });
    expect(structured<FlowResult>(read).flow.nodes.map((node) => node.type)).toEqual([
      'for',
      'subflow',
      'collect',
      'variables',
    ]);

    const run = await mcp.call('svc_run_flow', { flowId, env: { baseUrl: api.url } });
    expect(run.isError).toBeFalsy();
    const { execution } = structured<RunResult>(run);
    expect(execution.status).toBe('Completed');
    const subs = execution.steps.filter((step) => step.nodeName === 'Sub' && step.status === 'Completed');
    expect(subs.map((step) => step.scope)).toEqual(['Each[0]', 'Each[1]']);
    expect(subs.every((step) => typeof step.childExecutionId === 'string')).toBe(true);
    expect((execution.outputs!.ids as string[]).every((id) => id.startsWith('ord_'))).toBe(true);

    const text = textOf(run);
    expect(text).toMatch(/Each\[1\]\/Sub\s+Completed/);
    expect(text).toContain(`child execution ${subs[1]!.childExecutionId}`);

    const childRun = await mcp.call('svc_get_execution', { executionId: subs[0]!.childExecutionId! });
    expect(structured<RunResult>(childRun).execution).toMatchObject({
      status: 'Completed',
      outputs: { orderId: (execution.outputs!.ids as string[])[0] },
    });
  });

  it('describes the loop and subflow node types to the assistant in the node-type reference', async () => {
    const { contents } = await mcp.client.readResource({ uri: 'svc://reference/node-types' });
    const description = (contents[0] as { text: string }).text;
    for (const type of ['for:', 'repeat:', 'collect:', 'subflow:']) expect(description).toContain(`- ${type}`);
    expect(description).toContain('{{forNode.item.id}}');
  });

  it('teaches endpoint polling in the node-type reference and in the schema of svc_create_flow', async () => {
    const { contents } = await mcp.client.readResource({ uri: 'svc://reference/node-types' });
    const description = (contents[0] as { text: string }).text;
    expect(description).toContain('## Polling (endpoint)');
    expect(description).toContain('{{self.response.body.jobId}}');
    expect(description).toContain('POLLING_UNEXPECTED_STATE');

    const { tools } = await mcp.client.listTools();
    const nodes = (tools.find((tool) => tool.name === 'svc_create_flow')!.inputSchema.properties as Record<string, any>)
      .nodes;
    const endpoint = (nodes.items.oneOf as any[]).find((member) => member.properties.type.const === 'endpoint');
    const polling = endpoint.properties.config.properties.polling;
    expect(Object.keys(polling.properties)).toEqual([
      'enabled',
      'interval',
      'maxDuration',
      'request',
      'continueWhen',
      'stopWhen',
    ]);
    expect(polling.properties.continueWhen.items.properties.operator.enum).toEqual(
      expect.arrayContaining(['EQUALS', 'NOT_EQUALS', 'CONTAINS', 'EXISTS', '==', 'starts_with']),
    );
    expect(polling.properties.stopWhen).toEqual({ type: 'array', description: 'the same schema as continueWhen' });
    expect(polling.properties.interval).toEqual({ type: ['integer', 'string'] });
  });
});
