import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDemoApi, type DemoApi } from '../../../examples/demo-api/server.js';
import { connect, openMemoryEngine, structured, textOf, type Connected } from './helpers.js';

type Json = Record<string, any>;

describe('webhook nodes through the MCP tools', () => {
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

  it('answers a trigger flow with its public URL', async () => {
    const created = await mcp.call('svc_create_flow', {
      name: 'on-push',
      nodes: [{ id: 't', name: 'Push', type: 'component-webhook', config: { mode: 'trigger' } }],
      connections: [],
    });
    const flow = structured<{ flow: Json }>(created).flow;
    expect(flow.webhookTriggers[0].url).toMatch(/\/webhooks\/trigger\/[A-Za-z0-9_-]{22}$/);
    expect(textOf(created)).toContain(`starts on POST ${flow.webhookTriggers[0].url}`);
    const read = structured<{ flow: Json }>(await mcp.call('svc_get_flow', { flowId: flow.id })).flow;
    expect(read.webhookTriggers).toEqual(flow.webhookTriggers);
  });

  it('shows a Waiting execution with what it waits for and the callback URL that resumes it', async () => {
    const flow = structured<{ flow: Json }>(
      await mcp.call('svc_create_flow', {
        name: 'wait-for-job',
        nodes: [
          { id: 'h', name: 'Health', type: 'endpoint', config: { url: '{{env.baseUrl}}/health' } },
          { id: 'w', name: 'JobDone', type: 'component-webhook', config: { mode: 'wait', timeoutMinutes: 5 } },
        ],
        connections: [{ id: 'c', source: 'h', target: 'w' }],
      }),
    ).flow;
    const started = await local.engine.startExecution({
      tenantId: 'default',
      flowId: flow.id as string,
      env: { baseUrl: demo.url },
    });
    let answer = await mcp.call('svc_get_execution', { executionId: started.id });
    for (
      let tries = 0;
      tries < 100 && structured<{ execution: Json }>(answer).execution.status !== 'Waiting';
      tries++
    ) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      answer = await mcp.call('svc_get_execution', { executionId: started.id });
    }
    const execution = structured<{ execution: Json }>(answer).execution;
    expect(execution.status).toBe('Waiting');
    expect(execution.waits).toEqual([
      expect.objectContaining({
        nodeName: 'JobDone',
        kind: 'callback',
        callbackUrl: expect.stringContaining('/webhooks/callback/cb_'),
      }),
    ]);
    expect(textOf(answer)).toContain(
      `waiting at JobDone for a callback: POST JSON to ${execution.waits[0].callbackUrl}`,
    );
  });
});
