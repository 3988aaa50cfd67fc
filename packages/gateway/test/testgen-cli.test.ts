import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnSvc } from './cli.js';

type Json = Record<string, any>;

const fixture = fileURLToPath(new URL('../../discovery/test/fixtures/orders-testgen.openapi.yaml', import.meta.url));

/**
 * svc catalog import ──▶ svc testgen <endpoint> --wait ──▶ svc jobs get <job> ──▶ svc run suite <suite> --env baseUrl=…
 * on one temporary SQLite file, through the built binary.
 */
describe('svc testgen, svc jobs get and svc run suite', () => {
  let dir: string;
  let env: Record<string, string>;
  let api: Server;
  /** Under `/up` the API answers as the spec says; under `/down` every request fails with 503. */
  let apiUrl: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'svc-testgen-cli-'));
    env = { SVC_DB: join(dir, 'svc.db') };
    api = createServer((request, response) => {
      const up = request.url?.startsWith('/up/') ?? false;
      response.writeHead(up ? 200 : 503, { 'content-type': 'application/json' });
      response.end(up ? '{"status":"ok"}' : '{"message":"down"}');
    });
    await new Promise<void>((resolve) => api.listen(0, '127.0.0.1', resolve));
    apiUrl = `http://127.0.0.1:${(api.address() as AddressInfo).port}`;
    const imported = await spawnSvc(['catalog', 'import', fixture, '--name', 'orders'], env).done;
    expect(imported.code, imported.stderr).toBe(0);
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => (api ? api.close(() => resolve()) : resolve()));
    rmSync(dir, { recursive: true, force: true });
  });

  it('with --wait --json prints exactly one object, the ended job with its suite, and svc jobs get reads it', async () => {
    const generated = await spawnSvc(['testgen', 'orders:createOrder', '--engine', 'schema', '--wait', '--json'], env)
      .done;
    expect(generated.code, generated.stderr).toBe(0);
    const job = JSON.parse(generated.stdout) as Json;
    expect(job).toMatchObject({
      kind: 'testgen',
      status: 'Completed',
      input: { endpointId: 'createOrder', engine: 'schema' },
      error: null,
    });
    expect(job.id).toMatch(/^job_/);
    expect(job.result.suiteId).toMatch(/^ste_/);
    expect(job.result.flowIds.length).toBeGreaterThan(0);
    expect(Object.values(job.result.cases as Record<string, number>).reduce((sum, count) => sum + count, 0)).toBe(
      job.result.flowIds.length,
    );
    expect(job).not.toHaveProperty('tenantId');
    expect(job).not.toHaveProperty('owner');

    const read = await spawnSvc(['jobs', 'get', job.id, '--json'], env).done;
    expect(read.code, read.stderr).toBe(0);
    expect(JSON.parse(read.stdout)).toEqual(job);

    const text = await spawnSvc(['jobs', 'get', job.id], env).done;
    expect(text.code).toBe(0);
    expect(text.stdout).toContain(`Job ${job.id} (testgen): Completed`);
    expect(text.stdout).toContain(`(id ${job.result.suiteId})`);
    expect(text.stdout).toMatch(/flows: \d+ \(positive \d+, negative \d+, boundary \d+, security \d+\)/);
  });

  it('without --wait prints the job as it started, and the job still ends before the process exits', async () => {
    const started = await spawnSvc(['testgen', 'health', '--engine', 'schema', '--json'], env).done;
    expect(started.code, started.stderr).toBe(0);
    const job = JSON.parse(started.stdout) as Json;
    expect(['Queued', 'Running']).toContain(job.status);
    const read = JSON.parse((await spawnSvc(['jobs', 'get', job.id, '--json'], env).done).stdout) as Json;
    expect(read.status).toBe('Completed');
    expect(read.result.suiteId).toMatch(/^ste_/);

    const text = await spawnSvc(['testgen', 'health', '--engine', 'schema', '--wait'], env).done;
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toMatch(/^Job job_\S+ \(testgen\): Completed$/m);
    expect(text.stdout).toMatch(/^Run it: svc run suite ste_\w+ --env baseUrl=…$/m);
  });

  it('refuses an unknown engine and sampling with exit 2, an unknown job or endpoint with exit 1', async () => {
    const unknown = await spawnSvc(['testgen', 'createOrder', '--engine', 'magic', '--json'], env).done;
    expect(unknown.code).toBe(2);
    expect(unknown.stdout).toBe('');
    expect(unknown.stderr).toContain('UNKNOWN_ENGINE');
    expect(unknown.stderr).toContain('schema, sampling, openai');

    const sampling = await spawnSvc(['testgen', 'createOrder', '--engine', 'sampling'], env).done;
    expect(sampling.code).toBe(2);
    expect(sampling.stderr).toContain('SAMPLING_UNAVAILABLE');
    expect(sampling.stderr).toContain('MCP client');

    expect((await spawnSvc(['testgen', 'createOrder'], env).done).code).toBe(2);
    const missing = await spawnSvc(['testgen', 'nope', '--engine', 'schema'], env).done;
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('ENDPOINT_NOT_FOUND');
    const noJob = await spawnSvc(['jobs', 'get', 'job_nope', '--json'], env).done;
    expect(noJob.code).toBe(1);
    expect(noJob.stdout).toBe('');
    expect(noJob.stderr).toContain('JOB_NOT_FOUND');
  });

  it('svc run suite exits 0 when every flow passed and 1 when one failed, with per-flow results and the KPIs', async () => {
    const generated = JSON.parse(
      (await spawnSvc(['testgen', 'health', '--engine', 'schema', '--wait', '--json'], env).done).stdout,
    ) as Json;
    const suiteId = generated.result.suiteId as string;

    const passing = await spawnSvc(['run', 'suite', suiteId, '--env', `baseUrl=${apiUrl}/up`, '--json'], env).done;
    expect(passing.code, passing.stderr).toBe(0);
    const run = JSON.parse(passing.stdout) as Json;
    expect(run).toMatchObject({
      suiteId,
      status: 'passed',
      total: generated.result.flowIds.length,
      failed: 0,
      skipped: 0,
      passRate: 1,
    });
    expect(run.latency.p50).toEqual(expect.any(Number));

    const failing = await spawnSvc(['run', 'suite', generated.result.suiteName, '--env', `baseUrl=${apiUrl}/down`], env)
      .done;
    expect(failing.code).toBe(1);
    expect(failing.stdout).toMatch(/^ {2}FAIL {2}health · /m);
    expect(failing.stdout).toMatch(
      /^total \d+, passed 0, failed \d+, skipped 0; pass rate 0\.0%; duration \d+ ms; p50 \d+ ms, p95 \d+ ms$/m,
    );

    // Without baseUrl the flows cannot resolve their URL: the suite fails rather than calling somewhere else.
    expect((await spawnSvc(['run', 'suite', suiteId], env).done).code).toBe(1);
    const text = await spawnSvc(['run', 'suite', suiteId, '--env', `baseUrl=${apiUrl}/up`], env).done;
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/^ {2}PASS {2}health · /m);
    expect(text.stdout).toContain('pass rate 100.0%');

    const unknown = await spawnSvc(['run', 'suite', 'no-such-suite'], env).done;
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('SUITE_NOT_FOUND');
    expect((await spawnSvc(['run', 'suite', suiteId, '--env', 'novalue'], env).done).code).toBe(2);
  });

  it('runs a generated suite of a secured endpoint with --fail-fast: the flows after the first failure are skipped', async () => {
    const generated = JSON.parse(
      (await spawnSvc(['testgen', 'listOrders', '--engine', 'schema', '--wait', '--json'], env).done).stdout,
    ) as Json;
    const result = await spawnSvc(
      [
        'run',
        'suite',
        generated.result.suiteId,
        '--env',
        `baseUrl=${apiUrl}/down`,
        '--env',
        'bearerAuthToken=t',
        '--fail-fast',
        '--json',
      ],
      env,
    ).done;
    expect(result.code).toBe(1);
    const run = JSON.parse(result.stdout) as Json;
    expect(run).toMatchObject({
      status: 'failed',
      failed: 1,
      skipped: generated.result.flowIds.length - 1,
      failFast: true,
    });
  });
});
