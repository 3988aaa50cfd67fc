import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createEgressPolicy, parseEgressRules, createEngine, type Engine } from '@svc/engine';
import { openSqliteStore } from '@svc/engine/sqlite';
import { createApp } from '@svc/gateway';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { stubAuthenticator } from './stub-authenticator.js';
import { apiCaller, type Json } from './api-call.js';

/** One endpoint node calling `path` on the run's `env.baseUrl`. */
function callFlow(name: string, path: string) {
  return {
    name,
    nodes: [{ id: 'n1', name: 'Call', type: 'endpoint', config: { url: `{{env.baseUrl}}${path}` } }],
    connections: [],
  };
}

describe('/api/gateway/suites', () => {
  let server: Server;
  let baseUrl: string;
  const paths: string[] = [];
  let store: ReturnType<typeof openSqliteStore>;
  let engine: Engine;
  let app: ReturnType<typeof createApp>;
  let passing: string;
  let failing: string;

  const authenticator = stubAuthenticator({
    'key-a': { tenantId: 'tenant-a' },
    'key-b': { tenantId: 'tenant-b' },
    'key-a-read': { tenantId: 'tenant-a', scopes: ['suites:read'] },
    'key-a-run': { tenantId: 'tenant-a', scopes: ['suites:read', 'suites:run'] },
  });

  const call = apiCaller(() => app);

  const createFlow = async (document: object) => {
    const created = await call('POST', '/api/gateway/flows', { body: document });
    expect(created.status, JSON.stringify(created.json)).toBe(201);
    return created.json.data.id as string;
  };

  beforeAll(async () => {
    // A local API: `/ok` answers 200, anything else 500.
    server = createServer((request, response) => {
      paths.push(request.url ?? '');
      const ok = (request.url ?? '').startsWith('/ok');
      response.writeHead(ok ? 200 : 500, { 'content-type': 'application/json' });
      response.end(JSON.stringify(ok ? { status: 'HEALTHY' } : { error: 'broken' }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    store = openSqliteStore({ path: ':memory:' });
    // The flows here call test servers on loopback, which svc serve refuses unless an operator allows it.
    engine = await createEngine({
      store,
      egress: createEgressPolicy({ mode: 'service', allow: parseEgressRules('127.0.0.1', 'SVC_EGRESS_ALLOW') }),
    });
    app = createApp({ engine, authenticator, store });
    passing = await createFlow(callFlow('health', '/ok'));
    failing = await createFlow(callFlow('orders', '/broken'));
  });
  afterAll(async () => {
    await engine?.stop();
    await store?.close();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  beforeEach(() => {
    paths.length = 0;
  });

  it('creates a suite (201, Location), reads it, and lists it with its flow count and mode', async () => {
    const created = await call('POST', '/api/gateway/suites', {
      body: { name: 'checkout', description: 'Orders end to end', mode: 'parallel', flowIds: [passing, failing] },
    });
    expect(created.status, JSON.stringify(created.json)).toBe(201);
    const suite = created.json.data;
    expect(suite).toMatchObject({
      name: 'checkout',
      mode: 'parallel',
      kind: 'regression',
      flowIds: [passing, failing],
      source: null,
    });
    expect(created.headers.get('location')).toBe(`/api/gateway/suites/${suite.id}`);

    expect(await call('GET', `/api/gateway/suites/${suite.id}`)).toMatchObject({
      status: 200,
      json: { success: true, data: suite },
    });
    const list = await call('GET', '/api/gateway/suites?search=CHECK');
    expect(list.status).toBe(200);
    expect(list.json.data).toEqual({
      items: [
        {
          id: suite.id,
          name: 'checkout',
          description: 'Orders end to end',
          mode: 'parallel',
          kind: 'regression',
          flowCount: 2,
          createdAt: suite.createdAt,
          updatedAt: suite.updatedAt,
        },
      ],
      nextCursor: null,
    });
    expect((await call('GET', '/api/gateway/suites?search=nothing-like-it')).json.data.items).toEqual([]);
  });

  it('pages the list with cursors and refuses bad list parameters with their paths', async () => {
    for (const name of ['page-1', 'page-2', 'page-3'])
      expect((await call('POST', '/api/gateway/suites', { body: { name, flowIds: [passing] } })).status).toBe(201);
    const first = await call('GET', '/api/gateway/suites?search=page-&limit=2');
    expect(first.json.data.items).toHaveLength(2);
    const second = await call(
      'GET',
      `/api/gateway/suites?search=page-&limit=2&cursor=${encodeURIComponent(first.json.data.nextCursor)}`,
    );
    expect([...first.json.data.items, ...second.json.data.items].map((suite: Json) => suite.name).sort()).toEqual([
      'page-1',
      'page-2',
      'page-3',
    ]);
    expect(second.json.data.nextCursor).toBeNull();
    const bad = await call('GET', '/api/gateway/suites?limit=0&kind=weekly');
    expect(bad.status).toBe(400);
    expect(bad.json.error.details.problems.map((problem: Json) => problem.path).sort()).toEqual([
      'query.kind',
      'query.limit',
    ]);
  });

  it('refuses a suite naming flows the tenant does not have, with every problem and its path', async () => {
    const theirs = (await call('POST', '/api/gateway/flows', { key: 'key-b', body: callFlow('theirs', '/ok') })).json
      .data.id;
    const answer = await call('POST', '/api/gateway/suites', {
      body: { name: 'invalid', flowIds: [passing, 'flw_missing', theirs] },
    });
    expect(answer.status).toBe(400);
    expect(answer.json.error.code).toBe('VALIDATION_ERROR');
    expect(answer.json.error.details.problems).toEqual([
      { code: 'FLOW_NOT_FOUND', path: 'flowIds[1]', message: 'flow "flw_missing" not found' },
      { code: 'FLOW_NOT_FOUND', path: 'flowIds[2]', message: `flow "${theirs}" not found` },
    ]);
    const duplicate = await call('POST', '/api/gateway/suites', { body: { name: 'dupe', flowIds: [passing] } });
    expect(duplicate.status).toBe(201);
    expect(
      (await call('POST', '/api/gateway/suites', { body: { name: 'dupe', flowIds: [passing] } })).json.error.code,
    ).toBe('CONFLICT');
  });

  it('runs a suite and answers its KPIs: one flow passes, one fails', async () => {
    const suite = (await call('POST', '/api/gateway/suites', { body: { name: 'mixed', flowIds: [passing, failing] } }))
      .json.data;
    const run = await call('POST', `/api/gateway/suites/${suite.id}/run`, {
      key: 'key-a-run',
      body: { env: { baseUrl } },
    });
    expect(run.status).toBe(200);
    expect(run.json.success).toBe(true);
    const result = run.json.data;
    expect(result).toMatchObject({
      suiteId: suite.id,
      suiteName: 'mixed',
      status: 'failed',
      total: 2,
      passed: 1,
      failed: 1,
      skipped: 0,
      passRate: 0.5,
    });
    expect(result.flows.map((flow: Json) => [flow.flowName, flow.status, flow.executionStatus])).toEqual([
      ['health', 'passed', 'Completed'],
      ['orders', 'failed', 'Failed'],
    ]);
    expect(result.flows[1].error.code).toBe('HTTP_ERROR_STATUS');
    expect(result.latency.p95).toBe(Math.max(...result.flows.map((flow: Json) => flow.durationMs)));
    expect(paths).toEqual(['/ok', '/broken']);

    const execution = await call('GET', `/api/gateway/executions/${result.flows[0].executionId}`);
    expect(execution.json.data.trigger).toMatchObject({
      type: 'suite',
      suiteId: suite.id,
      suiteRunId: result.runId,
      startedBy: { type: 'api', clientId: 'cli_key-a-run' },
    });
  });

  it('with failFast, skips the flows after the first failure', async () => {
    const suite = (await call('POST', '/api/gateway/suites', { body: { name: 'gate', flowIds: [failing, passing] } }))
      .json.data;
    const run = await call('POST', `/api/gateway/suites/${suite.id}/run`, {
      body: { env: { baseUrl }, failFast: true },
    });
    expect(run.json.data).toMatchObject({ total: 2, passed: 0, failed: 1, skipped: 1, passRate: 0, failFast: true });
    expect(run.json.data.flows[1]).toMatchObject({ flowName: 'health', status: 'skipped', executionId: null });
    expect(paths).toEqual(['/broken']);
  });

  it('refuses a run body that does not validate, and an unknown environment name', async () => {
    const suite = (await call('POST', '/api/gateway/suites', { body: { name: 'body-checks', flowIds: [passing] } }))
      .json.data;
    const bad = await call('POST', `/api/gateway/suites/${suite.id}/run`, { body: { failFast: 'yes', extra: 1 } });
    expect(bad.status).toBe(400);
    expect(bad.json.error.details.problems.map((problem: Json) => problem.path).sort()).toEqual([
      'body',
      'body.failFast',
    ]);
    const named = await call('POST', `/api/gateway/suites/${suite.id}/run`, { body: { env: 'staging' } });
    expect(named).toMatchObject({ status: 404, json: { error: { code: 'ENVIRONMENT_NOT_FOUND' } } });
    expect(paths).toEqual([]);
  });

  it("answers another tenant's suite as SUITE_NOT_FOUND, for reading, running and deleting", async () => {
    const suite = (await call('POST', '/api/gateway/suites', { body: { name: 'tenant-a-only', flowIds: [passing] } }))
      .json.data;
    for (const [method, path] of [
      ['GET', `/api/gateway/suites/${suite.id}`],
      ['POST', `/api/gateway/suites/${suite.id}/run`],
      ['DELETE', `/api/gateway/suites/${suite.id}`],
    ] as const) {
      const answer = await call(method, path, { key: 'key-b' });
      expect(answer.status, `${method} ${path}`).toBe(404);
      expect(answer.json).toEqual({
        success: false,
        error: { code: 'SUITE_NOT_FOUND', message: `suite "${suite.id}" not found` },
      });
    }
    expect((await call('GET', '/api/gateway/suites?search=tenant-a-only', { key: 'key-b' })).json.data.items).toEqual(
      [],
    );
    expect(paths).toEqual([]);
    expect((await call('DELETE', `/api/gateway/suites/${suite.id}`)).json.data).toEqual({
      id: suite.id,
      deleted: true,
    });
    expect((await call('GET', `/api/gateway/suites/${suite.id}`)).status).toBe(404);
  });

  it('needs suites:read to read, suites:run to run, and flows:write to create or delete', async () => {
    const suite = (await call('POST', '/api/gateway/suites', { body: { name: 'scoped', flowIds: [passing] } })).json
      .data;
    expect((await call('GET', '/api/gateway/suites', { key: 'key-a-read' })).status).toBe(200);
    const run = await call('POST', `/api/gateway/suites/${suite.id}/run`, {
      key: 'key-a-read',
      body: { env: { baseUrl } },
    });
    expect(run).toMatchObject({
      status: 403,
      json: { error: { code: 'INSUFFICIENT_SCOPE', details: { requiredScope: 'suites:run' } } },
    });
    const create = await call('POST', '/api/gateway/suites', {
      key: 'key-a-run',
      body: { name: 'sneaky', flowIds: [passing] },
    });
    expect(create).toMatchObject({ status: 403, json: { error: { details: { requiredScope: 'flows:write' } } } });
    expect((await call('DELETE', `/api/gateway/suites/${suite.id}`, { key: 'key-a-run' })).status).toBe(403);
    expect(paths).toEqual([]);
  });

  it('is described in the OpenAPI document with its scopes and errors', async () => {
    const document = (await (await app.request('/api/openapi.json')).json()) as Json;
    expect(document.paths['/api/gateway/suites'].get.parameters.map((parameter: Json) => parameter.name)).toEqual([
      'search',
      'kind',
      'limit',
      'cursor',
    ]);
    expect(document.paths['/api/gateway/suites'].post.security[0].oauth2).toEqual(['flows:write']);
    expect(document.paths['/api/gateway/suites/{id}/run'].post.security[0].oauth2).toEqual(['suites:run']);
    expect(document.paths['/api/gateway/suites/{id}'].get.responses['404'].description).toBe('SUITE_NOT_FOUND');
    expect(document.components.schemas.SuiteDefinition.required).toEqual(['name', 'flowIds']);
    expect(document.components.schemas.SuiteRunResult.properties.passRate).toMatchObject({ minimum: 0, maximum: 1 });
  });
});
