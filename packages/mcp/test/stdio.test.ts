import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDemoApi, type DemoApi } from '../../../examples/demo-api/server.js';
import { manyNodes, orderFlow, structured, textOf } from './helpers.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const MAIN = join(ROOT, 'packages/mcp/dist/main.js');

interface Session {
  client: Client;
  stderr: () => string;
  pid: number;
  call(name: string, args?: Record<string, unknown>): Promise<CallToolResult>;
  close(): Promise<void>;
}

/** Spawns the built `svc-mcp` the way an assistant does, and connects a real MCP client to it. */
async function startSession(env: Record<string, string>, args = ['--transport', 'stdio']): Promise<Session> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [MAIN, ...args], env, stderr: 'pipe' });
  let stderr = '';
  transport.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const client = new Client({ name: 'svc-mcp-e2e', version: '0' });
  await client.connect(transport);
  return {
    client,
    stderr: () => stderr,
    pid: transport.pid!,
    call: async (name, toolArgs = {}) => (await client.callTool({ name, arguments: toolArgs })) as CallToolResult,
    close: () => client.close(),
  };
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('svc-mcp over stdio', () => {
  let demo: DemoApi;
  let dir: string;
  let db: string;
  let session: Session;

  beforeAll(async () => {
    // The binary under test is the built one; `tsc -b` only rebuilds what changed.
    execFileSync(
      process.execPath,
      [join(ROOT, 'node_modules/typescript/bin/tsc'), '-b', 'packages/engine', 'packages/discovery', 'packages/mcp'],
      { cwd: ROOT, stdio: 'inherit' },
    );
    demo = await startDemoApi({ port: 0 });
    dir = mkdtempSync(join(tmpdir(), 'svc-mcp-'));
    db = join(dir, 'svc.db');
    session = await startSession({ SVC_DB: db });
  }, 180_000);
  afterAll(async () => {
    await session?.close();
    await demo?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('lists every tool, each with a description and input and output schemas', async () => {
    const { tools } = await session.client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual([
      'svc_cancel_execution',
      'svc_create_flow',
      'svc_create_schedule',
      'svc_delete_flow',
      'svc_delete_schedule',
      'svc_generate_test_suite',
      'svc_get_execution',
      'svc_get_flow',
      'svc_get_job',
      'svc_import_openapi',
      'svc_list_endpoints',
      'svc_list_environments',
      'svc_list_executions',
      'svc_list_flows',
      'svc_list_schedules',
      'svc_list_suites',
      'svc_plan_roadmap',
      'svc_run_flow',
      'svc_run_suite',
      'svc_scaffold_flow',
      'svc_set_environment',
      'svc_suite_health',
      'svc_update_flow',
      'svc_update_schedule',
      'svc_validate_flow',
    ]);
    for (const tool of tools) {
      expect(tool.description!.length, tool.name).toBeGreaterThan(40);
      expect(tool.inputSchema.type).toBe('object');
      expect(tool.outputSchema?.type).toBe('object');
    }
    const create = tools.find((tool) => tool.name === 'svc_create_flow')!;
    expect(create.description).toContain('{{CreateOrder.response.body.id}}');
    expect(create.description).toContain('svc://reference/node-types');
    expect(create.inputSchema.required).toEqual(['name', 'nodes', 'connections']);
  });

  it('creates a flow that calls the demo API, runs it, and reads the execution, on the SQLite file', async () => {
    const created = await session.call('svc_create_flow', orderFlow('stdio-order') as Record<string, unknown>);
    expect(created.isError, textOf(created)).toBeFalsy();
    const flowId = structured<{ flow: { id: string } }>(created).flow.id;

    const run = await session.call('svc_run_flow', { flowId, env: { baseUrl: demo.url } });
    expect(run.isError, textOf(run)).toBeFalsy();
    const execution = structured<{
      execution: { executionId: string; status: string; steps: { nodeName: string; statusCode: number }[] };
    }>(run).execution;
    expect(execution.status).toBe('Completed');
    expect(execution.steps.map((step) => [step.nodeName, step.statusCode])).toEqual([
      ['CreateCustomer', 201],
      ['CreateOrder', 201],
      ['ReadOrder', 200],
    ]);
    expect(textOf(run)).toMatch(/1\s+CreateCustomer\s+Completed\s+201\s+\d+ ms/);
    expect(demo.requests.filter((request) => request.path === '/orders' && request.method === 'POST')).not.toHaveLength(
      0,
    );

    const read = await session.call('svc_get_execution', { executionId: execution.executionId });
    expect(structured<{ execution: { executionId: string; status: string } }>(read).execution).toMatchObject({
      executionId: execution.executionId,
      status: 'Completed',
    });

    // The edit loop: fix the flow by a merge patch, run it again, and find both runs.
    const patched = await session.call('svc_update_flow', {
      flowId: 'stdio-order',
      expectedVersion: 1,
      patch: { description: 'patched over stdio' },
    });
    expect(patched.isError, textOf(patched)).toBeFalsy();
    expect(structured<{ flow: { version: number; description: string } }>(patched).flow).toMatchObject({
      version: 2,
      description: 'patched over stdio',
    });
    const stale = await session.call('svc_update_flow', { flowId, expectedVersion: 1, patch: { description: 'late' } });
    expect(textOf(stale)).toMatch(/^CONFLICT: .*Re-read it with svc_get_flow/);
    await session.call('svc_run_flow', { flowId, env: { baseUrl: demo.url } });
    const runs = structured<{ executions: { executionId: string }[] }>(
      await session.call('svc_list_executions', { flowId }),
    );
    expect(runs.executions).toHaveLength(2);
    expect(runs.executions[1]!.executionId).toBe(execution.executionId);

    expect(existsSync(db)).toBe(true);
    // Another server on the same file, started with no --transport (stdio is the default), sees the flow.
    const second = await startSession({ SVC_DB: db }, []);
    try {
      const list = structured<{ flows: { id: string }[] }>(
        await second.call('svc_list_flows', { search: 'stdio-order' }),
      );
      expect(list.flows.map((flow) => flow.id)).toEqual([flowId]);
    } finally {
      await second.close();
    }
  });

  it('answers hostile input with errors and keeps serving', async () => {
    const huge = await session.call('svc_create_flow', {
      name: 'huge',
      nodes: manyNodes(20_000, 300),
      connections: [],
    });
    expect(huge.isError).toBe(true);
    expect(textOf(huge)).toContain('at nodes');

    const cycle = await session.call('svc_create_flow', {
      name: 'cycle',
      nodes: [
        { id: 'a', name: 'A', type: 'delay', config: { duration: 1 } },
        { id: 'b', name: 'B', type: 'delay', config: { duration: 1 } },
      ],
      connections: [
        { id: 'w1', source: 'a', target: 'b' },
        { id: 'w2', source: 'b', target: 'a' },
      ],
    });
    expect(
      structured<{ error: { problems: { code: string }[] } }>(cycle).error.problems.map((problem) => problem.code),
    ).toEqual(['CYCLE']);

    // Past the server's 16 MiB message limit: refused as a request, not a reason to close the stream.
    await expect(
      session.call('svc_run_flow', { flowId: 'flw_x', env: { blob: 'z'.repeat(20 * 1024 * 1024) } }),
    ).rejects.toThrow(/svc-mcp reads messages of at most 16777216 bytes/);

    expect((await session.call('svc_get_flow', { flowId: 'flw_missing' })).isError).toBe(true);
    expect((await session.call('svc_get_flow', { flowId: 12 })).isError).toBe(true);
    expect((await session.call('svc_list_flows')).isError).toBeFalsy();
    expect(isAlive(session.pid)).toBe(true);
    // stderr holds log lines only (text by default: time, level, message), never the protocol.
    for (const line of session.stderr().split('\n').filter(Boolean))
      expect(line).toMatch(/^\S+Z (ERROR|WARN|INFO|DEBUG) /);
  });

  it('in remote mode answers an unreachable SVC_API_URL as a tool error', async () => {
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const { port } = probe.address() as AddressInfo;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const remote = await startSession({ SVC_API_URL: `http://127.0.0.1:${port}`, SVC_API_KEY: 'svc_sk_x' });
    try {
      const result = await remote.call('svc_list_flows');
      expect(result.isError).toBe(true);
      expect(textOf(result)).toMatch(/^SERVICE_UNREACHABLE: cannot reach the svc API/);
    } finally {
      await remote.close();
    }
  });

  it('answers the requests in flight when the client closes its input, then exits 0', async () => {
    const child = spawn(process.execPath, [MAIN, '--transport', 'stdio'], {
      env: { PATH: process.env.PATH ?? '', SVC_DB: db },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    const flow = {
      name: 'closing-stdin',
      nodes: [{ id: 'p', name: 'Pause', type: 'delay', config: { duration: '300ms' } }],
      connections: [],
    };
    const lines = [
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '0' } },
      },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'svc_create_flow', arguments: flow } },
    ];
    child.stdin.write(lines.map((line) => JSON.stringify(line)).join('\n') + '\n');
    while (!stdout.includes('"id":2')) await new Promise((resolve) => setTimeout(resolve, 10));
    const created = JSON.parse(stdout.split('\n').find((line) => line.includes('"id":2'))!) as {
      result: { structuredContent: { flow: { id: string } } };
    };
    const run = {
      jsonrpc: '2.0',
      id: 3,
      method: 'tools/call',
      params: { name: 'svc_run_flow', arguments: { flowId: created.result.structuredContent.flow.id } },
    };
    // The last request, and the input closes while the run (300 ms) is still going.
    child.stdin.end(JSON.stringify(run) + '\n');
    expect(await exited).toBe(0);
    const answer = JSON.parse(stdout.split('\n').find((line) => line.includes('"id":3'))!) as {
      result: { structuredContent: { execution: { status: string } } };
    };
    expect(answer.result.structuredContent.execution.status).toBe('Completed');
  });

  it('exits 0 when the client closes its input', async () => {
    const child = spawn(process.execPath, [MAIN, '--transport', 'stdio'], {
      env: { PATH: process.env.PATH ?? '', SVC_DB: db },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    child.stdin.end();
    expect(await exited).toBe(0);
  });

  it.each(
    [['--transport', 'http'], ['--transport'], ['--port', '8080']].map((args) => [args.join(' '), args] as const),
  )('refuses "%s" with exit code 2 and a message on stderr', async (_label, args) => {
    const child = spawn(process.execPath, [MAIN, ...args], {
      env: { PATH: process.env.PATH ?? '', SVC_DB: db },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toMatch(/^svc-mcp: /);
    if (args[1] === 'http') expect(stderr).toContain('unsupported transport "http"; the only transport is "stdio"');
  });
});
