import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDemoApi, type DemoApi } from '../../../examples/demo-api/server.js';
import { spawnSvc } from './cli.js';

let api: DemoApi;
let dir: string;
beforeAll(async () => {
  api = await startDemoApi({ port: 0 });
  dir = mkdtempSync(join(tmpdir(), 'svc-cli-'));
});
afterAll(async () => {
  await api.close();
});

const examples = new URL('../../../examples/flows/', import.meta.url).pathname;

function svc(args: string[]) {
  return spawnSvc(args, { SVC_DB: join(dir, 'svc.db') }).done;
}

describe('svc run flow', () => {
  it('runs an example flow and prints exactly one JSON object with --json', async () => {
    const result = await svc([
      'run',
      'flow',
      join(examples, 'order-lifecycle.yaml'),
      '--env',
      `baseUrl=${api.url}`,
      '--json',
    ]);
    // stderr carries the step lines only, one per step as it finished.
    expect(result.stderr.trimEnd().split('\n')).toHaveLength(6);
    expect(result.stderr).toMatch(/^ +6 ReadOrder {2}Completed 200 /m);
    expect(result.code).toBe(0);
    const execution = JSON.parse(result.stdout) as Record<string, unknown> & {
      steps: { nodeName: string; status: string; skipKind: string | null }[];
    };
    expect(execution).toMatchObject({ status: 'Completed', nodesExecuted: 5, nodesSkipped: 1, stepsExecuted: 5 });
    expect(typeof execution.executionId).toBe('string');
    expect(typeof execution.durationMs).toBe('number');
    expect(execution.steps.find((step) => step.nodeName === 'WaitForBatch')).toMatchObject({
      status: 'Skipped',
      skipKind: 'condition',
    });
  });

  it('prints a readable trace by default', async () => {
    const result = await svc(['run', 'flow', join(examples, 'retry-and-recover.yaml'), '--env', `baseUrl=${api.url}`]);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/FlakyInventory \(attempt 3\)\s+endpoint\s+Completed\s+200/);
    expect(result.stdout).toMatch(/BrokenPricing\s+endpoint\s+Failed\s+500/);
    expect(result.stdout).toMatch(
      /^Completed in \d+ ms · 4 nodes executed · 0 skipped · 6 steps · execution [0-9a-f-]{36}$/m,
    );
  });

  it('runs the JSON example with a sandboxed expression switch', async () => {
    const result = await svc([
      'run',
      'flow',
      join(examples, 'expression-switch.json'),
      '--env',
      `baseUrl=${api.url}`,
      '--json',
    ]);
    expect(result.code).toBe(0);
    const execution = JSON.parse(result.stdout) as {
      steps: { nodeName: string; status: string; branch: string | null }[];
    };
    expect(execution.steps.find((step) => step.nodeName === 'Route')!.branch).toBe('big-eu');
    expect(execution.steps.find((step) => step.nodeName === 'OtherDesk')!.status).toBe('Skipped');
  });

  it('runs the loop example: For with Collect, then Repeat polling a job until it is done', async () => {
    const result = await svc([
      'run',
      'flow',
      join(examples, 'loops-and-collect.yaml'),
      '--env',
      `baseUrl=${api.url}`,
      '--json',
    ]);
    expect(result.code).toBe(0);
    const execution = JSON.parse(result.stdout) as {
      outputs: { orderIds: string[]; pollsNeeded: number };
      steps: { nodeName: string; scope: string }[];
    };
    expect(execution.outputs.orderIds).toHaveLength(3);
    expect(execution.outputs.pollsNeeded).toBeGreaterThan(1);
    expect(
      execution.steps
        .filter((step) => step.nodeName === 'CreateOrder')
        .map((step) => step.scope)
        .sort(),
    ).toEqual(['EachCustomer[0]', 'EachCustomer[1]', 'EachCustomer[2]']);
  });

  it('runs the polling example: submit, poll until COMPLETED, publish; a FAILED job takes the error route', async () => {
    const file = join(examples, 'async-job-polling.yaml');
    const done = await svc(['run', 'flow', file, '--env', `baseUrl=${api.url}`, '--json']);
    expect(done.code).toBe(0);
    // One line for the submit's first wait and one for its end, not one per poll.
    expect(done.stderr.trimEnd().split('\n')).toHaveLength(4);
    expect(done.stderr).toMatch(/^ +1 GenerateReport {2}Completed 200 .* polls$/m);
    type Step = { nodeName: string; status: string; error: { code: string; message: string } | null };
    const execution = JSON.parse(done.stdout) as {
      status: string;
      outputs: { status: string };
      steps: (Step & { response: { polling: { polls: number } }; output: { body: unknown } })[];
    };
    expect(execution).toMatchObject({ status: 'Completed', outputs: { status: 'COMPLETED' } });
    const report = execution.steps.find((step) => step.nodeName === 'GenerateReport')!;
    expect(report.response.polling.polls).toBeGreaterThanOrEqual(2);
    const published = execution.steps.find((step) => step.nodeName === 'PublishReport')!;
    expect(published.output.body).toMatchObject({ body: { result: { ok: true, input: { report: 'daily' } } } });

    const failing = await svc(['run', 'flow', file, '--env', `baseUrl=${api.url}`, '--input', 'jobFails=1', '--json']);
    expect(failing.code).toBe(0);
    const failed = JSON.parse(failing.stdout) as { status: string; outputs: { status: string }; steps: Step[] };
    expect(failed).toMatchObject({ status: 'Completed', outputs: { status: 'FAILED' } });
    expect(failed.steps.find((step) => step.nodeName === 'GenerateReport')!.error!.code).toBe(
      'POLLING_UNEXPECTED_STATE',
    );
    expect(failed.steps.find((step) => step.nodeName === 'ReportFailed')!.status).toBe('Completed');
    expect(failed.steps.find((step) => step.nodeName === 'PublishReport')!.status).toBe('Skipped');
  });

  it('exits 1 when the flow runs and fails', async () => {
    const file = join(dir, 'down.yaml');
    writeFileSync(
      file,
      'name: down\nnodes:\n  - { id: a, name: Health, type: endpoint, config: { url: "{{env.baseUrl}}/health", assertions: [{ target: body.status, operator: "==", value: DOWN }] } }\n',
    );
    const result = await svc(['run', 'flow', file, '--env', `baseUrl=${api.url}`]);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('Health failed: ASSERTION_FAILED');
  });

  it('exits 2 and prints every problem with its path when the flow does not validate', async () => {
    const file = join(dir, 'broken.json');
    writeFileSync(
      file,
      JSON.stringify({
        name: 'broken',
        nodes: [
          { id: 'a', name: 'A', type: 'endpoint', config: { url: 'http://x/{{B.statusCode}}' } },
          { id: 'b', name: 'B', type: 'endpoint', config: { url: 'http://x' } },
          { id: 'c', name: 'C', type: 'warp', config: {} },
        ],
        connections: [
          { id: 'w1', source: 'a', target: 'b' },
          { id: 'w2', source: 'b', target: 'a' },
        ],
      }),
    );
    const result = await svc(['run', 'flow', file]);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('does not validate (2 problems)');
    expect(result.stderr).toContain('nodes[2].type: UNKNOWN_NODE_TYPE');
    expect(result.stderr).toContain('connections: CYCLE');
  });

  it('exits 2 on a malformed option, naming it', async () => {
    const result = await svc(['run', 'flow', join(examples, 'health-check.yaml'), '--env', 'baseUrl']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("option '--env <KEY=VALUE>' argument 'baseUrl' is invalid");
  });

  it('exits 2 with the line of a YAML syntax error, and for a missing file', async () => {
    const file = join(dir, 'bad.yaml');
    writeFileSync(file, 'name: bad\nnodes: [\n  - oops: {\n');
    const bad = await svc(['run', 'flow', file]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/not valid YAML: .*line/i);
    const missing = await svc(['run', 'flow', join(dir, 'nope.yaml')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('cannot read');
    // A name the file gives is quoted in the problem with its control characters written out.
    const escapes = join(dir, 'escapes.json');
    writeFileSync(
      escapes,
      JSON.stringify({
        name: 'esc',
        nodes: [{ id: 'n', name: 'bad\u001b]0;PWNED\u0007\u001b[2J', type: 'endpoint', config: { url: 'http://x' } }],
      }),
    );
    const quoted = await svc(['run', 'flow', escapes]);
    expect(quoted.code).toBe(2);
    expect(quoted.stderr).toContain('\\u001b]0;PWNED');
    // eslint-disable-next-line no-control-regex -- finding control characters is the point
    expect(quoted.stderr).not.toMatch(/[\u0000-\u0008\u000b-\u001f]/);
    // A FIFO would never end: refused at once, as is anything but a regular file.
    const fifo = join(dir, 'flow.fifo');
    execFileSync('mkfifo', [fifo]);
    const pipe = await svc(['run', 'flow', fifo]);
    expect(pipe.code).toBe(2);
    expect(pipe.stderr).toContain('not a regular file');
  });
});
