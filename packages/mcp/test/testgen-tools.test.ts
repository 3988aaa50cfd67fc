import { readFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { connect, connectWithSampling, openMemoryEngine, structured, textOf, type Connected } from './helpers.js';

const ordersSpec = readFileSync(
  new URL('../../discovery/test/fixtures/orders-testgen.openapi.yaml', import.meta.url),
  'utf8',
);

interface JobView {
  jobId: string;
  status: string;
  result: { suiteId: string; flowIds: string[]; cases: Record<string, number> } | null;
  error: { code: string; message: string } | null;
}

async function pollJob(mcp: Connected, jobId: string): Promise<JobView> {
  for (let attempt = 0; attempt < 200; attempt += 1) {
    const job = structured<{ job: JobView }>(await mcp.call('svc_get_job', { jobId })).job;
    if (job.status === 'Completed' || job.status === 'Failed') return job;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`job ${jobId} did not end`);
}

describe('test generation tools (local)', () => {
  let env: Awaited<ReturnType<typeof openMemoryEngine>>;
  let mcp: Connected;
  let endpointId: string;

  beforeEach(async () => {
    env = await openMemoryEngine();
    mcp = await connect(env.api);
    const imported = await mcp.call('svc_import_openapi', { document: ordersSpec });
    expect(imported.isError).toBeFalsy();
    const { endpoints } = structured<{ endpoints: Array<{ id: string; method: string; path: string }> }>(
      await mcp.call('svc_list_endpoints'),
    );
    endpointId = endpoints.find(
      (endpoint) => endpoint.method.toUpperCase() === 'POST' && endpoint.path === '/orders',
    )!.id;
  });
  afterEach(async () => {
    await mcp.close();
    await env.close();
  });

  it('answers a job at once and completes it with a generated suite of flows (schema engine)', async () => {
    const started = await mcp.call('svc_generate_test_suite', { endpointId, engine: 'schema' });
    expect(started.isError).toBeFalsy();
    const { job } = structured<{ job: JobView }>(started);
    expect(job.jobId).toMatch(/^job_/);
    expect(['Queued', 'Running', 'Completed']).toContain(job.status);

    const done = await pollJob(mcp, job.jobId);
    expect(done.error).toBeNull();
    expect(done.status).toBe('Completed');
    expect(done.result!.suiteId).toBeTruthy();
    expect(done.result!.flowIds.length).toBeGreaterThan(0);
    expect(Object.values(done.result!.cases).reduce((sum, count) => sum + count, 0)).toBe(done.result!.flowIds.length);
    expect(done.result!.cases.negative).toBeGreaterThan(0);

    const suite = await env.engine.suites.get('default', done.result!.suiteId);
    expect(suite.kind).toBe('generated');
    expect(suite.source).toEqual({ endpointId, engine: 'schema', jobId: job.jobId });
    expect(suite.flowIds).toEqual(done.result!.flowIds);
    await expect(env.engine.flows.get('default', done.result!.flowIds[0]!)).resolves.toMatchObject({
      nodes: [expect.objectContaining({ type: 'endpoint' })],
    });

    const listed = structured<{ suites: Array<{ id: string; kind: string; flowCount: number }> }>(
      await mcp.call('svc_list_suites'),
    );
    expect(listed.suites).toEqual([
      expect.objectContaining({ id: done.result!.suiteId, kind: 'generated', flowCount: done.result!.flowIds.length }),
    ]);
  });

  it('refuses an unknown engine at once, listing the allowed ones', async () => {
    const result = await mcp.call('svc_generate_test_suite', { endpointId, engine: 'magic' });
    expect(result.isError).toBe(true);
    // The engine is an enum in the tool's schema: the call is refused before anything starts.
    expect(textOf(result)).toMatch(
      /Invalid arguments for tool svc_generate_test_suite: .*"schema"\|"sampling"\|"openai" at engine/,
    );
  });

  it('refuses an endpoint the catalog does not have', async () => {
    const result = await mcp.call('svc_generate_test_suite', { endpointId: 'nope', engine: 'schema' });
    expect(structured<{ error: { code: string } }>(result).error.code).toBe('ENDPOINT_NOT_FOUND');
  });

  it('refuses the sampling engine at once when the client does not offer sampling', async () => {
    const result = await mcp.call('svc_generate_test_suite', { endpointId, engine: 'sampling' });
    expect(result.isError).toBe(true);
    expect(structured<{ error: { code: string } }>(result).error.code).toBe('SAMPLING_UNAVAILABLE');
    expect(textOf(result)).toMatch(/schema/);
  });

  it("asks the calling client's model for the sampling engine and saves its cases", async () => {
    const cases = [
      {
        name: 'creates an order',
        category: 'positive',
        request: { body: { customerId: 'c1', items: [{ sku: 'A', quantity: 1 }] } },
        expect: { status: 201 },
      },
      { name: 'refuses an empty body', category: 'negative', request: { body: {} }, expect: { status: '4XX' } },
    ];
    const sampling = await connectWithSampling(env.api, JSON.stringify(cases));
    try {
      const started = await sampling.call('svc_generate_test_suite', { endpointId, engine: 'sampling' });
      expect(started.isError).toBeFalsy();
      const done = await pollJob(sampling, structured<{ job: JobView }>(started).job.jobId);
      expect(done.error).toBeNull();
      expect(done.status).toBe('Completed');
      expect(done.result!.flowIds).toHaveLength(2);
      expect(done.result!.cases).toMatchObject({ positive: 1, negative: 1 });
      expect(sampling.prompts).toHaveLength(1);
    } finally {
      await sampling.close();
    }
  });

  it('answers JOB_NOT_FOUND for an unknown job', async () => {
    const result = await mcp.call('svc_get_job', { jobId: 'job_nope' });
    expect(structured<{ error: { code: string } }>(result).error.code).toBe('JOB_NOT_FOUND');
  });
});
