import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createEgressPolicy, createEngine, type Engine } from '@svc/engine';
import { openSqliteStore } from '@svc/engine/sqlite';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

const A = 'tenant-a';
const B = 'tenant-b';

/**
 * A local API: `/ok` answers 200, `/fail` 500, `/slow?ms=` 200 after a pause. It counts the
 * requests in flight, so a test can see how many flows ran at once.
 */
async function startApi() {
  const paths: string[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  const server: Server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    paths.push(url.pathname + url.search);
    inFlight += 1;
    maxInFlight = Math.max(maxInFlight, inFlight);
    const answer = (status: number, body: unknown) => {
      inFlight -= 1;
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(body));
    };
    if (url.pathname === '/ok') answer(200, { status: 'HEALTHY' });
    else if (url.pathname === '/fail') answer(500, { error: 'broken' });
    else if (url.pathname === '/slow')
      setTimeout(() => answer(200, { slow: true }), Number(url.searchParams.get('ms') ?? 100));
    else answer(404, { error: 'no route' });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    paths,
    get maxInFlight() {
      return maxInFlight;
    },
    reset() {
      paths.length = 0;
      maxInFlight = 0;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** One endpoint node calling `path` on the run's `env.baseUrl`. */
function callFlow(name: string, path: string) {
  return {
    name,
    nodes: [{ id: 'n1', name: 'Call', type: 'endpoint', config: { url: `{{env.baseUrl}}${path}` } }],
    connections: [],
  };
}

describe('suites', () => {
  let api: Awaited<ReturnType<typeof startApi>>;
  let store: ReturnType<typeof openSqliteStore>;
  let engine: Engine;
  let env: { baseUrl: string };
  let passing: string;
  let failing: string;
  let alsoPassing: string;

  beforeAll(async () => {
    api = await startApi();
    env = { baseUrl: api.url };
    store = openSqliteStore({ path: ':memory:' });
    // The flows here call a test server on loopback, which a developer's local policy allows.
    engine = await createEngine({ store, egress: createEgressPolicy({ mode: 'local' }) });
    passing = (await engine.flows.create(A, callFlow('health', '/ok?flow=health'))).id;
    failing = (await engine.flows.create(A, callFlow('broken-orders', '/fail?flow=broken'))).id;
    alsoPassing = (await engine.flows.create(A, callFlow('catalog', '/ok?flow=catalog'))).id;
  });
  afterAll(async () => {
    await engine?.stop();
    await store?.close();
    await api?.close();
  });
  beforeEach(() => api.reset());

  describe('create', () => {
    it('saves a suite with defaults and reads it back by id and by name', async () => {
      const suite = await engine.suites.create(A, { name: 'smoke', flowIds: [passing, alsoPassing] });
      expect(suite).toMatchObject({
        name: 'smoke',
        description: '',
        mode: 'sequential',
        kind: 'regression',
        source: null,
        flowIds: [passing, alsoPassing],
        tenantId: A,
      });
      expect(suite.id).toMatch(/^ste_/);
      expect(await engine.suites.get(A, suite.id)).toEqual(suite);
      expect(await engine.suites.findByName(A, 'smoke')).toEqual(suite);
      await expect(engine.suites.create(A, { name: 'smoke', flowIds: [passing] })).rejects.toMatchObject({
        code: 'CONFLICT',
      });
    });

    it('answers every problem at once with its path, including flows the tenant does not have', async () => {
      const theirs = (await engine.flows.create(B, callFlow('theirs', '/ok'))).id;
      const attempt = engine.suites.create(A, {
        name: 'bad',
        mode: 'parallel',
        flowIds: [passing, 'flw_missing', passing, theirs],
      });
      await expect(attempt).rejects.toMatchObject({ code: 'VALIDATION_ERROR' });
      const problems = (await attempt.catch(
        (error: { details: { problems: unknown[] } }) => error.details.problems,
      )) as { code: string; path: string }[];
      expect(problems.map((problem) => `${problem.path} ${problem.code}`)).toEqual([
        'flowIds[1] FLOW_NOT_FOUND',
        'flowIds[2] DUPLICATE_FLOW',
        'flowIds[3] FLOW_NOT_FOUND',
      ]);

      const shape = engine.suites.create(A, { name: '', mode: 'random', flowIds: [], flows: [passing] });
      const shapeProblems = (await shape.catch(
        (error: { details: { problems: unknown[] } }) => error.details.problems,
      )) as { path: string }[];
      expect(shapeProblems.map((problem) => problem.path).sort()).toEqual(['flowIds', 'flows', 'mode', 'name']);
      expect((await engine.suites.list(A, { search: 'bad' })).items).toEqual([]);
    });

    it("keeps tenants apart: another tenant's suite is SUITE_NOT_FOUND for every operation", async () => {
      const suite = await engine.suites.create(A, { name: 'private', flowIds: [passing] });
      for (const attempt of [
        engine.suites.get(B, suite.id),
        engine.suites.run(B, suite.id, { env }),
        engine.suites.delete(B, suite.id),
        engine.suites.update(B, suite.id, { name: 'stolen', flowIds: [passing] }),
      ]) {
        await expect(attempt).rejects.toMatchObject({
          code: 'SUITE_NOT_FOUND',
          message: `suite "${suite.id}" not found`,
        });
      }
      expect(await engine.suites.findByName(B, 'private')).toBeUndefined();
      expect((await engine.suites.list(B)).items).toEqual([]);
      expect(api.paths).toEqual([]);
      expect((await engine.suites.get(A, suite.id)).name).toBe('private');
    });

    it('lists summaries with flow counts and modes, by search, and deletes', async () => {
      await engine.suites.create(A, {
        name: 'nightly-regression',
        description: 'Everything',
        mode: 'parallel',
        flowIds: [passing, failing, alsoPassing],
      });
      const found = await engine.suites.list(A, { search: 'NIGHTLY' });
      expect(found.items).toEqual([
        expect.objectContaining({ name: 'nightly-regression', mode: 'parallel', flowCount: 3, kind: 'regression' }),
      ]);
      await engine.suites.delete(A, found.items[0]!.id);
      expect((await engine.suites.list(A, { search: 'nightly' })).items).toEqual([]);
      await expect(engine.suites.delete(A, found.items[0]!.id)).rejects.toMatchObject({ code: 'SUITE_NOT_FOUND' });
    });
  });

  describe('run', () => {
    it('runs flows in order as suite executions and answers KPIs with per-flow results', async () => {
      const suite = await engine.suites.create(A, {
        name: 'sequential-mixed',
        flowIds: [passing, failing, alsoPassing],
      });
      const result = await engine.suites.run(A, suite.id, { env, trigger: { type: 'cli' } });

      expect(api.paths).toEqual(['/ok?flow=health', '/fail?flow=broken', '/ok?flow=catalog']);
      expect(result).toMatchObject({
        suiteId: suite.id,
        suiteName: 'sequential-mixed',
        mode: 'sequential',
        status: 'failed',
        total: 3,
        passed: 2,
        failed: 1,
        skipped: 0,
        passRate: 0.6667,
        failFast: false,
      });
      expect(result.flows.map((flow) => [flow.flowName, flow.status, flow.executionStatus])).toEqual([
        ['health', 'passed', 'Completed'],
        ['broken-orders', 'failed', 'Failed'],
        ['catalog', 'passed', 'Completed'],
      ]);
      expect(result.flows[1]!.error).toMatchObject({ code: 'HTTP_ERROR_STATUS' });
      expect(result.flows[0]!.error).toBeNull();
      const durations = result.flows.map((flow) => flow.durationMs!);
      for (const duration of durations) expect(duration).toBeGreaterThanOrEqual(0);
      expect(result.latency.p50).toBe([...durations].sort((x, y) => x - y)[1]);
      expect(result.latency.p95).toBe(Math.max(...durations));
      expect(result.durationMs).toBeGreaterThanOrEqual(Math.max(...durations) - 1);
      expect(Date.parse(result.endedAt)).toBeGreaterThanOrEqual(Date.parse(result.startedAt));

      // Each flow ran as an execution that says which suite run started it.
      for (const flow of result.flows) {
        const execution = await engine.getExecution(A, flow.executionId!, { steps: false });
        expect(execution.trigger).toEqual({
          type: 'suite',
          suiteId: suite.id,
          suiteRunId: result.runId,
          startedBy: { type: 'cli' },
        });
        expect(execution.status).toBe(flow.executionStatus);
      }
    });

    it('with failFast, runs nothing after the first failure and counts the rest as skipped', async () => {
      const suite = await engine.suites.create(A, { name: 'gate', flowIds: [passing, failing, alsoPassing] });
      const result = await engine.suites.run(A, suite.id, { env, failFast: true });
      expect(api.paths).toEqual(['/ok?flow=health', '/fail?flow=broken']);
      expect(result).toMatchObject({
        status: 'failed',
        total: 3,
        passed: 1,
        failed: 1,
        skipped: 1,
        passRate: 0.3333,
        failFast: true,
      });
      expect(result.flows[2]).toEqual({
        flowId: alsoPassing,
        flowName: 'catalog',
        status: 'skipped',
        executionId: null,
        executionStatus: null,
        durationMs: null,
        error: null,
      });
      const durations = result.flows.slice(0, 2).map((flow) => flow.durationMs!);
      expect(result.latency.p95).toBe(Math.max(...durations));
    });

    it('passes when every flow completes', async () => {
      const suite = await engine.suites.create(A, { name: 'all-green', flowIds: [passing, alsoPassing] });
      const result = await engine.suites.run(A, suite.id, { env, failFast: true });
      expect(result).toMatchObject({ status: 'passed', total: 2, passed: 2, failed: 0, skipped: 0, passRate: 1 });
    });

    it('runs a parallel suite several flows at a time, up to its concurrency, keeping results in suite order', async () => {
      const slow: string[] = [];
      for (let i = 0; i < 5; i += 1)
        slow.push((await engine.flows.create(A, callFlow(`slow-${i}`, `/slow?ms=150&i=${i}`))).id);
      const suite = await engine.suites.create(A, { name: 'parallel-slow', mode: 'parallel', flowIds: slow });
      const result = await engine.suites.run(A, suite.id, { env, concurrency: 2 });
      expect(api.maxInFlight).toBe(2);
      expect(result).toMatchObject({ mode: 'parallel', status: 'passed', total: 5, passed: 5 });
      expect(result.flows.map((flow) => flow.flowName)).toEqual(['slow-0', 'slow-1', 'slow-2', 'slow-3', 'slow-4']);
      // Five flows of 150 ms two at a time take three rounds, not five.
      expect(result.durationMs).toBeLessThan(5 * 150);

      api.reset();
      const sequential = await engine.suites.create(A, { name: 'sequential-slow', flowIds: slow.slice(0, 3) });
      await engine.suites.run(A, sequential.id, { env, concurrency: 3 });
      expect(api.maxInFlight).toBe(1);
    });

    it('fails a flow deleted since the suite was saved, and one that outlasts its time, cancelling its execution', async () => {
      const doomed = (await engine.flows.create(A, callFlow('doomed', '/ok?flow=doomed'))).id;
      const stuck = (
        await engine.flows.create(A, {
          name: 'stuck',
          nodes: [
            { id: 'a', name: 'Call', type: 'endpoint', config: { url: '{{env.baseUrl}}/ok?flow=stuck' } },
            { id: 'b', name: 'Pause', type: 'delay', config: { duration: '5s' } },
          ],
          connections: [{ id: 'w1', source: 'a', target: 'b' }],
        })
      ).id;
      const suite = await engine.suites.create(A, { name: 'decayed', flowIds: [doomed, stuck, passing] });
      await engine.flows.delete(A, doomed);
      const result = await engine.suites.run(A, suite.id, { env, flowTimeoutMs: 300 });
      expect(result).toMatchObject({ total: 3, passed: 1, failed: 2, skipped: 0 });
      expect(result.flows[0]).toMatchObject({
        flowId: doomed,
        flowName: null,
        status: 'failed',
        executionId: null,
        error: { code: 'FLOW_NOT_FOUND' },
      });
      expect(result.flows[1]).toMatchObject({
        flowName: 'stuck',
        status: 'failed',
        executionStatus: 'Cancelled',
        error: { code: 'SUITE_FLOW_TIMEOUT' },
      });
      expect((await engine.getExecution(A, result.flows[1]!.executionId!, { steps: false })).status).toBe('Cancelled');
      expect(result.flows[2]).toMatchObject({ status: 'passed' });
    });
  });
});
