import { CallToolResultSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDemoApi, type DemoApi } from '../../../examples/demo-api/server.js';
import { connect, openMemoryEngine, orderFlow, slowFlow, structured, textOf, type Connected } from './helpers.js';

/**
 * The size of the tools/list answer an assistant reads into its context, in bytes of JSON. It
 * grows only with what a new capability needs: 40 KB with 20 tools; the webhook node's config and
 * endpoint polling (how an assistant writes a valid config the first time) about 2 KB; the four
 * schedule tools about 4.9 KB; svc_suite_health about 1.4 KB: 49.3 KB with 25 tools.
 */
const TOOLS_LIST_BUDGET_BYTES = 50 * 1024;

describe('the assistant edit loop', () => {
  let demo: DemoApi;
  let local: Awaited<ReturnType<typeof openMemoryEngine>>;
  let mcp: Connected;
  beforeAll(async () => {
    demo = await startDemoApi({ port: 0 });
    local = await openMemoryEngine();
    mcp = await connect(local.api);
  });
  afterAll(async () => {
    await mcp?.close();
    await local?.close();
    await demo?.close();
  });

  const create = async (document: object) =>
    structured<{ flow: { id: string } }>(await mcp.call('svc_create_flow', document as Record<string, unknown>)).flow;

  it(`keeps tools/list under ${TOOLS_LIST_BUDGET_BYTES} bytes, with every tool still described`, async () => {
    const list = await mcp.client.listTools();
    expect(JSON.stringify(list).length).toBeLessThan(TOOLS_LIST_BUDGET_BYTES);
    // 25: the four schedule tools and svc_suite_health.
    expect(list.tools).toHaveLength(25);
    for (const tool of list.tools) expect(tool.description!.length, tool.name).toBeGreaterThan(40);
  });

  it('teaches node types and configs in the schema: an enum of types, one config schema per type', async () => {
    const { tools } = await mcp.client.listTools();
    const create = tools.find((tool) => tool.name === 'svc_create_flow')!;
    const nodes = (
      create.inputSchema.properties as Record<
        string,
        {
          items: {
            oneOf: { properties: { type: { const: string }; config: { properties: Record<string, unknown> } } }[];
          };
        }
      >
    ).nodes;
    const members = nodes!.items.oneOf;
    expect(members.map((member) => member.properties.type.const)).toEqual([
      'endpoint',
      'switch',
      'variables',
      'delay',
      'for',
      'repeat',
      'collect',
      'subflow',
      'component-webhook',
    ]);
    expect(Object.keys(members[0]!.properties.config.properties)).toEqual(
      expect.arrayContaining(['method', 'url', 'assertions', 'retry']),
    );
    const testgen = tools.find((tool) => tool.name === 'svc_generate_test_suite')!;
    expect((testgen.inputSchema.properties as Record<string, { enum?: string[] }>).engine!.enum).toEqual([
      'schema',
      'sampling',
      'openai',
    ]);
    const run = tools.find((tool) => tool.name === 'svc_run_flow')!;
    expect(run.inputSchema.additionalProperties).toBe(false);
  });

  it('answers svc_run_flow at its bound with the execution id, and the run goes on', async () => {
    const bounded = await connect(local.api, { runWaitMs: 2_000 });
    try {
      const flow = await create(slowFlow('outlasts-the-bound', '20s'));
      const started = Date.now();
      const result = await bounded.call('svc_run_flow', { flowId: flow.id, env: { baseUrl: demo.url } });
      const elapsed = Date.now() - started;
      // Generous on the late side for a loaded machine; answering after twice the bound was the bug.
      expect(elapsed).toBeLessThan(3_900);
      const { execution, hint } = structured<{ execution: { executionId: string; status: string }; hint: string }>(
        result,
      );
      expect(['Running', 'Waiting']).toContain(execution.status);
      expect(hint).toContain(`svc_get_execution with executionId "${execution.executionId}"`);
      await mcp.call('svc_cancel_execution', { executionId: execution.executionId });
    } finally {
      await bounded.close();
    }
  });

  it('reports progress per finished step when the client sends a progress token', async () => {
    const flow = await create(orderFlow('with-progress'));
    const messages: string[] = [];
    const result = (await mcp.client.callTool(
      { name: 'svc_run_flow', arguments: { flowId: flow.id, env: { baseUrl: demo.url } } },
      CallToolResultSchema,
      {
        onprogress: (progress) => messages.push(`${progress.progress} ${progress.message}`),
      },
    )) as CallToolResult;
    const executionId = structured<{ execution: { executionId: string } }>(result).execution.executionId;
    expect(messages[0]).toBe(`0 execution ${executionId} started (flow with-progress)`);
    expect(messages.slice(1).map((message) => message.replace(/ in \d+ ms$/, ''))).toEqual([
      '1 CreateCustomer Completed 201',
      '2 CreateOrder Completed 201',
      '3 ReadOrder Completed 200',
    ]);
  });

  it('cancels the execution when the tool call is cancelled, and the execution is found afterwards', async () => {
    const flow = await create(slowFlow('cancel-me', '20s'));
    const controller = new AbortController();
    let started: string | undefined;
    const call = mcp.client.callTool(
      { name: 'svc_run_flow', arguments: { flowId: flow.id, env: { baseUrl: demo.url } } },
      CallToolResultSchema,
      {
        signal: controller.signal,
        onprogress: (progress) => {
          started ??= /^execution (\S+) started/.exec(progress.message ?? '')?.[1];
        },
      },
    );
    await expect.poll(() => started, { timeout: 5_000 }).toBeDefined();
    controller.abort('the user stopped it');
    await expect(call).rejects.toThrow();
    await expect
      .poll(
        async () =>
          structured<{ executions: { executionId: string; status: string }[] }>(
            await mcp.call('svc_list_executions', { flowId: 'cancel-me' }),
          ).executions[0],
        {
          timeout: 5_000,
        },
      )
      .toEqual(expect.objectContaining({ executionId: started, status: 'Cancelled' }));
  });

  it('reports a suite run per finished flow', async () => {
    const a = await create(orderFlow('suite-a'));
    const b = await create(orderFlow('suite-b'));
    const suite = await local.engine.suites.create('default', { name: 'edit-loop-suite', flowIds: [a.id, b.id] });
    const messages: string[] = [];
    const result = (await mcp.client.callTool(
      { name: 'svc_run_suite', arguments: { suiteId: suite.id, env: { baseUrl: demo.url } } },
      CallToolResultSchema,
      {
        onprogress: (progress) => messages.push(`${progress.progress}/${progress.total} ${progress.message}`),
      },
    )) as CallToolResult;
    expect(result.isError, textOf(result)).toBeFalsy();
    expect(messages).toEqual(['1/2 suite-a passed', '2/2 suite-b passed']);
  });

  it('lists flows as resources and reads flows and executions by URI', async () => {
    const flow = await create(orderFlow('as-resource'));
    const { resources } = await mcp.client.listResources();
    expect(resources).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ uri: `svc://flows/${flow.id}`, name: 'as-resource', mimeType: 'application/json' }),
      ]),
    );
    expect(resources.map((resource) => resource.uri)).toContain('svc://reference/node-types');
    const { resourceTemplates } = await mcp.client.listResourceTemplates();
    expect(resourceTemplates.map((template) => template.uriTemplate).sort()).toEqual([
      'svc://executions/{executionId}',
      'svc://flows/{flowId}',
    ]);

    const read = await mcp.client.readResource({ uri: `svc://flows/${flow.id}` });
    expect(JSON.parse((read.contents[0] as { text: string }).text)).toMatchObject({
      id: flow.id,
      name: 'as-resource',
      version: 1,
    });
    const run = structured<{ execution: { executionId: string } }>(
      await mcp.call('svc_run_flow', { flowId: flow.id, env: { baseUrl: demo.url } }),
    ).execution;
    const execution = await mcp.client.readResource({ uri: `svc://executions/${run.executionId}` });
    expect(JSON.parse((execution.contents[0] as { text: string }).text)).toMatchObject({
      executionId: run.executionId,
      status: 'Completed',
    });
  });

  it('ships prompts that walk through the tools, the debug one with the failed trace', async () => {
    const { prompts } = await mcp.client.listPrompts();
    expect(prompts.map((prompt) => prompt.name).sort()).toEqual(['create-flow-from-openapi', 'debug-failed-execution']);
    const walk = await mcp.client.getPrompt({
      name: 'create-flow-from-openapi',
      arguments: { requirement: 'create an order', baseUrl: demo.url },
    });
    const text = (walk.messages[0]!.content as { text: string }).text;
    for (const tool of ['svc_plan_roadmap', 'svc_scaffold_flow', 'svc_run_flow', 'svc_update_flow'])
      expect(text).toContain(tool);

    const flow = await create(orderFlow('will-fail'));
    const failed = structured<{ execution: { executionId: string; status: string } }>(
      await mcp.call('svc_run_flow', { flowId: flow.id, env: { baseUrl: `${demo.url}/nowhere` } }),
    ).execution;
    expect(failed.status).toBe('Failed');
    const debug = await mcp.client.getPrompt({
      name: 'debug-failed-execution',
      arguments: { executionId: failed.executionId },
    });
    const debugText = (debug.messages[0]!.content as { text: string }).text;
    expect(debugText).toContain(`execution ${failed.executionId}`);
    expect(debugText).toContain('CreateCustomer failed');
    expect(debugText).toContain('svc_update_flow');
  });

  it('puts assertion results and response bodies in the text, and the roadmap JSON in the plan text', async () => {
    const flow = await create({
      name: 'asserting',
      nodes: [
        {
          id: 'a',
          name: 'Health',
          type: 'endpoint',
          config: {
            url: '{{env.baseUrl}}/health',
            assertions: [{ target: 'body.status', operator: '==', value: 'SICK' }],
          },
        },
      ],
      connections: [],
    });
    const text = textOf(await mcp.call('svc_run_flow', { flowId: flow.id, env: { baseUrl: demo.url } }));
    expect(text).toMatch(/assert body\.status == "SICK": failed \(actual "?\w+"?\)/);
    expect(text).toMatch(/response 200: \{.*"status"/);
  });
});
