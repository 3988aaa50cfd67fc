import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, manyNodes, openMemoryEngine, orderFlow, structured, textOf, type Connected } from './helpers.js';

describe('hostile input', () => {
  let engine: Awaited<ReturnType<typeof openMemoryEngine>>;
  let mcp: Connected;
  beforeAll(async () => {
    engine = await openMemoryEngine();
    mcp = await connect(engine.api);
  });
  afterAll(async () => {
    await mcp?.close();
    await engine?.close();
  });

  /** After each bad call the server must still answer a good one. */
  async function stillServes() {
    const result = await mcp.call('svc_list_flows');
    expect(result.isError).toBeFalsy();
  }

  it.each([
    ['svc_get_flow', { flowId: 42 }, /expected string, received number at flowId/],
    ['svc_get_flow', {}, /expected string, received undefined at flowId/],
    ['svc_run_flow', { flowId: 'flw_1', env: 7 }, /at env/],
    ['svc_get_execution', { executionId: ['x'] }, /at executionId/],
    ['svc_list_flows', { search: { $ne: null } }, /at search/],
    [
      'svc_create_flow',
      { name: 'x', nodes: 'all of them', connections: [] },
      /expected array, received string at nodes/,
    ],
    ['svc_create_flow', { name: 'x', connections: [] }, /at nodes/],
    [
      'svc_create_flow',
      { name: 'x', nodes: [{ id: 'a', type: 'endpoint' }], connections: [] },
      /expected string, received undefined at nodes\[0\]\.name/,
    ],
  ])('rejects bad arguments to %s naming the argument', async (tool, args, message) => {
    const result = await mcp.call(tool, args);
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(
      new RegExp(`^MCP error -32602: Input validation error: Invalid arguments for tool ${tool}: `),
    );
    expect(textOf(result)).toMatch(message);
    await stillServes();
  });

  it('rejects a call to a tool that does not exist', async () => {
    const result = await mcp.call('svc_drop_database', {});
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('Tool svc_drop_database not found');
    await stillServes();
  });

  it('rejects 5 MB of nodes by the node limit, before anything is saved', async () => {
    const nodes = manyNodes(20_000, 300);
    expect(JSON.stringify(nodes).length).toBeGreaterThan(5_000_000);
    const result = await mcp.call('svc_create_flow', { name: 'huge', nodes, connections: [] });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/expected array to have <=1000 items at nodes/);
    expect(structured<{ flows: unknown[] }>(await mcp.call('svc_list_flows')).flows).toEqual([]);
  });

  it('rejects a flow of few nodes that carries 5 MB of data as PAYLOAD_TOO_LARGE', async () => {
    const result = await mcp.call('svc_create_flow', {
      name: 'heavy',
      nodes: manyNodes(5, 1_000_000),
      connections: [],
    });
    expect(result.isError).toBe(true);
    expect(structured<{ error: { code: string } }>(result).error.code).toBe('PAYLOAD_TOO_LARGE');
    expect(textOf(result)).toMatch(
      /^PAYLOAD_TOO_LARGE: the flow is \d+ characters of JSON; a flow may hold at most 1048576/,
    );
    await stillServes();
  });

  it('rejects arguments with more elements than the server reads, whatever the tool', async () => {
    const env = Object.fromEntries(Array.from({ length: 250_000 }, (_, index) => [`k${index}`, index]));
    const result = await mcp.call('svc_run_flow', { flowId: 'flw_1', env });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('arguments contain more than the maximum of 200000 elements');
    await stillServes();
  });

  /**
   *   A ──▶ B ──▶ C
   *   ▲           │
   *   └───────────┘
   */
  it('rejects a flow with a cycle, naming the nodes on it', async () => {
    const result = await mcp.call('svc_create_flow', {
      name: 'loop',
      nodes: [
        { id: 'a', name: 'A', type: 'delay', config: { duration: '1ms' } },
        { id: 'b', name: 'B', type: 'delay', config: { duration: '1ms' } },
        { id: 'c', name: 'C', type: 'delay', config: { duration: '1ms' } },
      ],
      connections: [
        { id: 'w1', source: 'a', target: 'b' },
        { id: 'w2', source: 'b', target: 'c' },
        { id: 'w3', source: 'c', target: 'a' },
      ],
    });
    expect(result.isError).toBe(true);
    const { error } = structured<{
      error: { code: string; problems: { code: string; path: string; message: string }[] };
    }>(result);
    expect(error.code).toBe('VALIDATION_ERROR');
    expect(error.problems).toEqual([
      expect.objectContaining({
        code: 'CYCLE',
        path: 'connections',
        message: expect.stringMatching(/A → B → C → A|B → C → A → B|C → A → B → C/),
      }),
    ]);
    expect(textOf(result)).toContain('- connections: CYCLE: the wires form a cycle');
    await stillServes();
  });

  it('answers unknown and absurd ids as not found', async () => {
    for (const flowId of ['flw_missing', "' OR 1=1 --", '../../etc/passwd', '%00']) {
      const result = await mcp.call('svc_get_flow', { flowId });
      expect(result.isError, flowId).toBe(true);
      expect(structured<{ error: { code: string } }>(result).error.code).toBe('FLOW_NOT_FOUND');
    }
    const tooLong = await mcp.call('svc_get_flow', { flowId: 'f'.repeat(5_000) });
    expect(textOf(tooLong)).toMatch(/expected string to have <=200 characters at flowId/);
    await stillServes();
  });

  it('handles many calls at once and still creates and reads a flow after the abuse', async () => {
    const calls = Array.from({ length: 50 }, (_, index) =>
      index % 2 === 0
        ? mcp.call('svc_get_flow', { flowId: `flw_${index}` })
        : mcp.call('svc_run_flow', { flowId: index }),
    );
    const results = await Promise.all(calls);
    expect(results.every((result) => result.isError === true)).toBe(true);
    const created = await mcp.call('svc_create_flow', orderFlow('after-abuse') as Record<string, unknown>);
    expect(created.isError).toBeFalsy();
    const id = structured<{ flow: { id: string } }>(created).flow.id;
    expect(structured<{ flow: { name: string } }>(await mcp.call('svc_get_flow', { flowId: id })).flow.name).toBe(
      'after-abuse',
    );
  });
});
