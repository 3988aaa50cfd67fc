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
  at: number;
}

/** A job API whose one job stays IN_PROGRESS until the test says it is done. */
function startJobServer(): Promise<{ url: string; seen: Seen[]; finish(): void; close(): Promise<void> }> {
  const seen: Seen[] = [];
  let done = false;
  const server: Server = createServer((request: IncomingMessage, response: ServerResponse) => {
    request.resume();
    request.on('end', () => {
      const path = new URL(request.url ?? '/', 'http://x').pathname;
      seen.push({ method: request.method ?? '', path, at: Date.now() });
      const json = (status: number, body: unknown) => {
        response.writeHead(status, { 'content-type': 'application/json' });
        response.end(JSON.stringify(body));
      };
      if (request.method === 'POST' && path === '/jobs') return json(202, { jobId: `job_${seen.length}` });
      if (request.method === 'GET' && path.startsWith('/jobs/'))
        return json(200, { status: done ? 'COMPLETED' : 'IN_PROGRESS', result: done ? { rows: 42 } : null });
      json(404, {});
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        seen,
        finish: () => {
          done = true;
        },
        close: () =>
          new Promise<void>((closed) => {
            server.closeAllConnections();
            server.close(() => closed());
          }),
      }),
    ),
  );
}

//  SubmitJob (POST /jobs, then GET /jobs/{id} every 600 ms) ──▶ Rows (reads the job's result)
const FLOW = `
name: crash-safe-polling
nodes:
  - id: submit
    name: SubmitJob
    type: endpoint
    config:
      method: POST
      url: "{{env.baseUrl}}/jobs"
      polling:
        interval: 600ms
        maxDuration: 1m
        request: { url: "{{env.baseUrl}}/jobs/{{self.response.body.jobId}}" }
        continueWhen: [{ target: body.status, operator: EQUALS, values: [PENDING, IN_PROGRESS] }]
        stopWhen: [{ target: body.status, operator: EQUALS, values: [COMPLETED] }]
  - { id: rows, name: Rows, type: variables, config: { set: { rows: "{{SubmitJob.response.body.result.rows}}" } } }
connections:
  - { id: w1, source: submit, target: rows }
`;

describe('polling across a killed process', () => {
  let dir: string;
  let server: Awaited<ReturnType<typeof startJobServer>>;
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'svc-polling-durability-'));
    server = await startJobServer();
  });
  afterEach(async () => {
    await server.close();
  });

  it('continues a polling sleep in a fresh process after SIGKILL, without submitting the job again', async () => {
    const flowFile = join(dir, 'flow.yaml');
    writeFileSync(flowFile, FLOW);
    const env = { SVC_DB: join(dir, 'svc.db') };
    const polls = () => server.seen.filter((entry) => entry.method === 'GET');

    const first = spawnSvc(['run', 'flow', flowFile, '--env', `baseUrl=${server.url}`, '--json'], env);
    // Two polls answered IN_PROGRESS, and the process sleeps until the third: kill it there.
    while (polls().length < 2) await new Promise((resolve) => setTimeout(resolve, 10));
    await new Promise((resolve) => setTimeout(resolve, 200));
    first.child.kill('SIGKILL');
    expect((await first.done).signal).toBe('SIGKILL');
    const beforeKill = polls().length;
    expect(beforeKill).toBe(2);
    server.finish();

    const resumed = await spawnSvc(['resume', '--json'], env).done;
    expect(resumed.stderr).toBe('');
    expect(resumed.code).toBe(0);
    const { resumed: executions } = JSON.parse(resumed.stdout) as {
      resumed: {
        status: string;
        steps: {
          nodeName: string;
          status: string;
          startedAt: string;
          endedAt: string;
          output: { body: Record<string, unknown> };
          response: { polling: { polls: number; first: { attempt: number }; last: { attempt: number } } };
        }[];
      }[];
    };
    expect(executions).toHaveLength(1);
    expect(executions[0]!.status).toBe('Completed');
    const [submit, rows] = executions[0]!.steps;
    expect(submit!.nodeName).toBe('SubmitJob');
    expect(submit!.status).toBe('Completed');
    // The poll count went on from the stored state: polls 1 and 2 were the killed process's.
    expect(submit!.response.polling).toMatchObject({ polls: 3, first: { attempt: 1 }, last: { attempt: 3 } });
    expect(rows!.output.body).toEqual({ rows: 42 });

    expect(server.seen.filter((entry) => entry.method === 'POST')).toHaveLength(1);
    expect(polls()).toHaveLength(3);
    // The sleep kept its due time: the third poll came about one interval after the second.
    const gap = polls()[2]!.at - polls()[1]!.at;
    expect(gap).toBeGreaterThanOrEqual(550);
    expect(gap).toBeLessThan(5_000);
  });
});
