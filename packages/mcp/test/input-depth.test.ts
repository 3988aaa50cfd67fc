import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, openMemoryEngine, orderFlow, structured, textOf, type Connected } from './helpers.js';

/** `{ a: { a: … 'x' } }`, `levels` objects deep, built without recursion. */
function nested(levels: number): Record<string, unknown> {
  let value: unknown = 'x';
  for (let level = 0; level < levels; level += 1) value = { a: value };
  return value as Record<string, unknown>;
}

describe('tool arguments nested too deep', () => {
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

  it('answers a run whose env nests 5,000 levels with VALIDATION_ERROR and the path, and keeps serving', async () => {
    const flow = structured<{ flow: { id: string } }>(
      await mcp.call('svc_create_flow', orderFlow() as Record<string, unknown>),
    ).flow;
    const result = await mcp.call('svc_run_flow', { flowId: flow.id, env: { deep: nested(5_000) } });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/^VALIDATION_ERROR: /);
    expect(textOf(result)).toMatch(/arguments\.env\.deep(\.a)+: nests deeper than 64 levels/);
    expect((await mcp.call('svc_list_flows')).isError).toBeFalsy();
  });

  it('answers a flow whose variables nest 3,800 levels with VALIDATION_ERROR', async () => {
    const result = await mcp.call('svc_create_flow', {
      ...(orderFlow() as Record<string, unknown>),
      variables: nested(3_800),
    });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/arguments\.variables(\.a)+: nests deeper than 64 levels/);
  });
});
