import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { spawnSvc } from './cli.js';

interface Seen {
  method: string;
  path: string;
  query: string;
  idempotencyKey: string | undefined;
}

/**
 * A server whose `/gate` holds the first request forever (the process calling it is killed
 * while it waits) and answers later ones at once. Requests marked `hold=0` are never held.
 */
function startGateServer(): Promise<{ url: string; seen: Seen[]; gateReached: Promise<void>; close(): Promise<void> }> {
  const seen: Seen[] = [];
  const held: ServerResponse[] = [];
  let reached!: () => void;
  const gateReached = new Promise<void>((resolve) => (reached = resolve));
  let orders = 0;
  let heldOnce = false;
  const server: Server = createServer((request: IncomingMessage, response: ServerResponse) => {
    request.resume();
    request.on('end', () => {
      const url = new URL(request.url ?? '/', 'http://x');
      const path = url.pathname;
      const holdable = url.searchParams.get('hold') !== '0';
      seen.push({
        method: request.method ?? '',
        path,
        query: url.search,
        idempotencyKey: request.headers['idempotency-key'] as string | undefined,
      });
      const json = (status: number, body: unknown) => {
        response.writeHead(status, { 'content-type': 'application/json' });
        response.end(JSON.stringify(body));
      };
      if (request.method === 'POST' && path === '/orders') return json(201, { id: `ord_${++orders}` });
      if (path === '/gate') {
        if (holdable && held.length === 0 && !heldOnce) {
          heldOnce = true;
          held.push(response);
          reached();
          return;
        }
        return json(200, { open: true });
      }
      if (path.startsWith('/orders/')) return json(200, { id: path.split('/')[2] });
      json(404, {});
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        seen,
        gateReached,
        close: () =>
          new Promise<void>((done) => {
            for (const response of held) response.destroy();
            server.closeAllConnections();
            server.close(() => done());
          }),
      }),
    ),
  );
}

const FLOW = `
name: crash-safe-order
nodes:
  - { id: create, name: CreateOrder, type: endpoint, config: { method: POST, url: "{{env.baseUrl}}/orders", body: { total: 10 } } }
  - { id: gate, name: Gate, type: endpoint, config: { method: POST, url: "{{env.baseUrl}}/gate", body: { order: "{{CreateOrder.response.body.id}}" } } }
  - { id: read, name: ReadOrder, type: endpoint, config: { url: "{{env.baseUrl}}/orders/{{ResponseBinding.CreateOrder.body.id}}" } }
connections:
  - { id: w1, source: create, target: gate }
  - { id: w2, source: gate, target: read }
`;

describe('durability across a killed process', () => {
  let dir: string;
  let server: Awaited<ReturnType<typeof startGateServer>>;
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'svc-durability-'));
    server = await startGateServer();
  });
  afterEach(async () => {
    await server.close();
  });

  it('finishes in a fresh process after SIGKILL mid-flow, without sending completed steps again', async () => {
    const flowFile = join(dir, 'flow.yaml');
    writeFileSync(flowFile, FLOW);
    const env = { SVC_DB: join(dir, 'svc.db') };

    //  CreateOrder ──▶ Gate (process killed while this request is in flight) ──▶ ReadOrder
    const first = spawnSvc(['run', 'flow', flowFile, '--env', `baseUrl=${server.url}`, '--json'], env);
    await server.gateReached;
    first.child.kill('SIGKILL');
    const killed = await first.done;
    expect(killed.signal).toBe('SIGKILL');

    const second = spawnSvc(['resume', '--json'], env);
    const resumed = await second.done;
    expect(resumed.stderr).toBe('');
    expect(resumed.code).toBe(0);
    const { resumed: executions } = JSON.parse(resumed.stdout) as {
      resumed: { status: string; steps: { nodeName: string; status: string }[] }[];
    };
    expect(executions).toHaveLength(1);
    expect(executions[0]!.status).toBe('Completed');
    expect(executions[0]!.steps.map((step) => [step.nodeName, step.status])).toEqual([
      ['CreateOrder', 'Completed'],
      ['Gate', 'Completed'],
      ['ReadOrder', 'Completed'],
    ]);

    const posts = server.seen.filter((entry) => entry.path === '/orders');
    const gates = server.seen.filter((entry) => entry.path === '/gate');
    expect(posts).toHaveLength(1);
    // The step in flight is sent again, with the same idempotency key.
    expect(gates).toHaveLength(2);
    expect(gates[0]!.idempotencyKey).toBeDefined();
    expect(gates[1]!.idempotencyKey).toBe(gates[0]!.idempotencyKey);
    expect(server.seen.filter((entry) => entry.path === '/orders/ord_1')).toHaveLength(1);
  });

  it('continues a loop at the iteration it was in, without sending completed iterations again', async () => {
    //  Each (for 3 items) ─L─▶ Gate (item 1 hangs; the process is killed) ──▶ Seen (collect)
    //       └─D─▶ Done (reads Seen)
    const flowFile = join(dir, 'loop.yaml');
    writeFileSync(
      flowFile,
      `
name: crash-safe-loop
variables:
  items: [{ hold: 0, name: a }, { hold: 1, name: b }, { hold: 0, name: c }]
nodes:
  - { id: each, name: Each, type: for, config: { items: "{{flowVars.items}}" } }
  - { id: gate, name: Gate, type: endpoint, config: { method: POST, url: "{{env.baseUrl}}/gate?i={{forNode.index}}&hold={{forNode.item.hold}}", body: { name: "{{forNode.item.name}}" } } }
  - { id: seen, name: Seen, type: collect, config: { source: "{{forNode.item.name}}" } }
  - { id: done, name: Done, type: variables, config: { set: { seen: "{{ResponseBinding.Seen.body.items}}" } } }
connections:
  - { id: w1, source: each, sourceHandle: L, target: gate }
  - { id: w2, source: gate, target: seen }
  - { id: w3, source: each, sourceHandle: D, target: done }
`,
    );
    const env = { SVC_DB: join(dir, 'svc.db') };
    const first = spawnSvc(['run', 'flow', flowFile, '--env', `baseUrl=${server.url}`, '--json'], env);
    await server.gateReached;
    first.child.kill('SIGKILL');
    await first.done;

    const second = spawnSvc(['resume', '--json'], env);
    const resumed = await second.done;
    expect(resumed.code).toBe(0);
    const { resumed: executions } = JSON.parse(resumed.stdout) as {
      resumed: {
        status: string;
        steps: { nodeName: string; scope: string; status: string; output: { body: unknown } | null }[];
      }[];
    };
    expect(executions[0]!.status).toBe('Completed');
    const gates = (index: number) =>
      server.seen.filter((entry) => entry.path === '/gate' && entry.query.startsWith(`?i=${index}&`));
    expect(gates(0)).toHaveLength(1);
    expect(gates(1)).toHaveLength(2);
    expect(gates(1)[1]!.idempotencyKey).toBe(gates(1)[0]!.idempotencyKey);
    expect(gates(2)).toHaveLength(1);
    expect(
      executions[0]!.steps.filter((step) => step.nodeName === 'Gate').map((step) => [step.scope, step.status]),
    ).toEqual([
      ['Each[0]', 'Completed'],
      ['Each[1]', 'Completed'],
      ['Each[2]', 'Completed'],
    ]);
    expect(executions[0]!.steps.find((step) => step.nodeName === 'Done')!.output!.body).toEqual({
      seen: ['a', 'b', 'c'],
    });
  });

  it('keeps a delay as a stored wait: a fresh process continues it at its due time', async () => {
    const flowFile = join(dir, 'delay.yaml');
    writeFileSync(
      flowFile,
      `
name: crash-safe-delay
nodes:
  - { id: create, name: CreateOrder, type: endpoint, config: { method: POST, url: "{{env.baseUrl}}/orders" } }
  - { id: pause, name: Pause, type: delay, config: { duration: 1500ms } }
  - { id: read, name: ReadOrder, type: endpoint, config: { url: "{{env.baseUrl}}/orders/{{CreateOrder.response.body.id}}" } }
connections:
  - { id: w1, source: create, target: pause }
  - { id: w2, source: pause, target: read }
`,
    );
    const env = { SVC_DB: join(dir, 'svc.db') };
    const first = spawnSvc(['run', 'flow', flowFile, '--env', `baseUrl=${server.url}`, '--json'], env);
    while (!server.seen.some((entry) => entry.path === '/orders'))
      await new Promise((resolve) => setTimeout(resolve, 10));
    await new Promise((resolve) => setTimeout(resolve, 200));
    first.child.kill('SIGKILL');
    await first.done;

    const second = spawnSvc(['resume', '--json'], env);
    const resumed = await second.done;
    expect(resumed.code).toBe(0);
    const { resumed: executions } = JSON.parse(resumed.stdout) as {
      resumed: { status: string; steps: { nodeName: string; status: string; startedAt: string; endedAt: string }[] }[];
    };
    expect(executions[0]!.status).toBe('Completed');
    const pause = executions[0]!.steps.find((step) => step.nodeName === 'Pause')!;
    // The wait kept its original due time: it ended about 1.5 s after it started, in another process.
    expect(Date.parse(pause.endedAt) - Date.parse(pause.startedAt)).toBeGreaterThanOrEqual(1500);
    expect(Date.parse(pause.endedAt) - Date.parse(pause.startedAt)).toBeLessThan(5000);
    expect(server.seen.filter((entry) => entry.path === '/orders')).toHaveLength(1);
  });
});
