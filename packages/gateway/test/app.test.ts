import { createEgressPolicy, parseEgressRules, createEngine, type Engine } from '@svc/engine';
import { openSqliteStore } from '@svc/engine/sqlite';
import { createApp } from '@svc/gateway';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDemoApi, type DemoApi } from '../../../examples/demo-api/server.js';
import { orderFlow, slowFlow } from './flows.js';
import { stubAuthenticator } from './stub-authenticator.js';

type Json = Record<string, any>;

describe('the REST gateway app', () => {
  let demo: DemoApi;
  let engine: Engine;
  let store: ReturnType<typeof openSqliteStore>;
  let app: ReturnType<typeof createApp>;
  let env: { baseUrl: string };

  const authenticator = stubAuthenticator({
    'key-a': { tenantId: 'tenant-a' },
    'key-b': { tenantId: 'tenant-b' },
    'key-a-read': { tenantId: 'tenant-a', scopes: ['flows:read'] },
  });

  async function call(
    method: string,
    path: string,
    options: { body?: unknown; raw?: string; type?: string; key?: string; headers?: Record<string, string> } = {},
  ) {
    const headers: Record<string, string> = { 'X-API-Key': options.key ?? 'key-a', ...options.headers };
    let body: string | undefined;
    if (options.raw !== undefined) body = options.raw;
    else if (options.body !== undefined) body = JSON.stringify(options.body);
    if (body !== undefined) headers['Content-Type'] = options.type ?? 'application/json';
    const response = await app.request(path, { method, headers, body });
    return { status: response.status, headers: response.headers, json: (await response.json()) as Json };
  }

  const createFlow = async (document: object = orderFlow()) => {
    const created = await call('POST', '/api/gateway/flows', { body: document });
    expect(created.status, JSON.stringify(created.json)).toBe(201);
    return created.json.data as Json;
  };

  beforeAll(async () => {
    demo = await startDemoApi({ port: 0 });
    env = { baseUrl: demo.url };
    store = openSqliteStore({ path: ':memory:' });
    // The flows here call test servers on loopback, which svc serve refuses unless an operator allows it.
    engine = await createEngine({
      store,
      egress: createEgressPolicy({ mode: 'service', allow: parseEgressRules('127.0.0.1', 'SVC_EGRESS_ALLOW') }),
    });
    app = createApp({ engine, authenticator, maxBodyBytes: 64 * 1024 });
  });
  afterAll(async () => {
    await engine?.stop();
    await store?.close();
    await demo?.close();
  });

  describe('flows', () => {
    it('creates a flow, answers 201 with the saved document, and reads it back with its version as ETag', async () => {
      const created = await call('POST', '/api/gateway/flows', { body: orderFlow('create-read') });
      expect(created.status).toBe(201);
      expect(created.json).toMatchObject({ success: true, data: { name: 'create-read', version: 1 } });
      const id = created.json.data.id as string;
      expect(id).toMatch(/^flw_/);
      expect(created.headers.get('location')).toBe(`/api/gateway/flows/${id}`);

      const read = await call('GET', `/api/gateway/flows/${id}`);
      expect(read.status).toBe(200);
      expect(read.headers.get('etag')).toBe('"1"');
      expect(read.json).toEqual({ success: true, data: created.json.data });
    });

    it('lists flows as a page, filtered by search and folder, and pages with cursors', async () => {
      await createFlow({ ...orderFlow('list-alpha'), folderId: 'fld_list' });
      await createFlow({ ...orderFlow('list-beta'), folderId: 'fld_list' });
      await createFlow({ ...orderFlow('list-gamma'), folderId: 'fld_other' });

      const folder = await call('GET', '/api/gateway/flows?folderId=fld_list');
      expect(folder.status).toBe(200);
      expect(folder.json.data.items.map((flow: Json) => flow.name).sort()).toEqual(['list-alpha', 'list-beta']);
      expect(folder.json.data.nextCursor).toBeNull();

      const search = await call('GET', '/api/gateway/flows?search=LIST-G');
      expect(search.json.data.items.map((flow: Json) => flow.name)).toEqual(['list-gamma']);
      expect(search.json.data.items[0]).toMatchObject({ nodeCount: 3, version: 1, folderId: 'fld_other' });

      const first = await call('GET', '/api/gateway/flows?search=list-&limit=2');
      expect(first.json.data.items).toHaveLength(2);
      expect(first.json.data.nextCursor).toEqual(expect.any(String));
      const second = await call(
        'GET',
        `/api/gateway/flows?search=list-&limit=2&cursor=${encodeURIComponent(first.json.data.nextCursor)}`,
      );
      expect(second.json.data.items).toHaveLength(1);
      expect(second.json.data.nextCursor).toBeNull();
      const names = [...first.json.data.items, ...second.json.data.items].map((flow: Json) => flow.name).sort();
      expect(names).toEqual(['list-alpha', 'list-beta', 'list-gamma']);
    });

    it('refuses list parameters out of range with every problem and its path', async () => {
      const answer = await call('GET', '/api/gateway/flows?limit=0&cursor=');
      expect(answer.status).toBe(400);
      expect(answer.json.success).toBe(false);
      expect(answer.json.error.code).toBe('VALIDATION_ERROR');
      expect(answer.json.error.details.problems.map((problem: Json) => problem.path).sort()).toEqual([
        'query.cursor',
        'query.limit',
      ]);
      const badCursor = await call('GET', '/api/gateway/flows?cursor=not-a-cursor');
      expect(badCursor.status).toBe(400);
      expect(badCursor.json.error.code).toBe('VALIDATION_ERROR');
    });

    it('refuses a flow that does not validate with every problem and its path, and saves nothing', async () => {
      const answer = await call('POST', '/api/gateway/flows', {
        body: {
          name: 'broken',
          nodes: [
            { id: 'a', name: 'First', type: 'endpoint', config: { url: 'http://x' } },
            { id: 'b', name: 'First', type: 'teleport', config: {} },
          ],
          connections: [{ id: 'w1', source: 'a', target: 'ghost' }],
        },
      });
      expect(answer.status).toBe(400);
      expect(answer.json.success).toBe(false);
      expect(answer.json.error.code).toBe('VALIDATION_ERROR');
      expect(answer.json.error.details.problems.map((problem: Json) => `${problem.path} ${problem.code}`)).toEqual(
        expect.arrayContaining([
          'nodes[1].name DUPLICATE_NODE_NAME',
          'nodes[1].type UNKNOWN_NODE_TYPE',
          'connections[0].target WIRE_TO_MISSING_NODE',
        ]),
      );
      expect((await call('GET', '/api/gateway/flows?search=broken')).json.data.items).toEqual([]);
    });

    it('updates a flow with the version expected in the body or in If-Match, and answers 409 on a stale one', async () => {
      const flow = await createFlow(orderFlow('versioned'));
      const v2 = await call('PUT', `/api/gateway/flows/${flow.id}`, {
        body: { ...flow, description: 'second', expectedVersion: 1 },
      });
      expect(v2.status).toBe(200);
      expect(v2.json.data).toMatchObject({ id: flow.id, version: 2, description: 'second' });
      expect(v2.headers.get('etag')).toBe('"2"');

      const stale = await call('PUT', `/api/gateway/flows/${flow.id}`, {
        body: { ...flow, description: 'late', expectedVersion: 1 },
      });
      expect(stale.status).toBe(409);
      expect(stale.json).toMatchObject({
        success: false,
        error: { code: 'CONFLICT', details: { currentVersion: 2, expectedVersion: 1 } },
      });

      const staleHeader = await call('PUT', `/api/gateway/flows/${flow.id}`, {
        body: { ...flow, description: 'late' },
        headers: { 'If-Match': '"1"' },
      });
      expect(staleHeader.status).toBe(409);
      const v3 = await call('PUT', `/api/gateway/flows/${flow.id}`, {
        body: { ...flow, description: 'third' },
        headers: { 'If-Match': 'W/"2"' },
      });
      expect(v3.json.data).toMatchObject({ version: 3, description: 'third' });

      const unconditional = await call('PUT', `/api/gateway/flows/${flow.id}`, {
        body: { ...flow, description: 'fourth' },
      });
      expect(unconditional.json.data.version).toBe(4);
      expect((await call('GET', `/api/gateway/flows/${flow.id}`)).json.data.description).toBe('fourth');

      const badHeader = await call('PUT', `/api/gateway/flows/${flow.id}`, {
        body: flow,
        headers: { 'If-Match': '*' },
      });
      expect(badHeader.status).toBe(400);
      expect(badHeader.json.error.details.problems[0].path).toBe('header');
    });

    it('validates a document without saving it, and refuses a second flow of one name unless allowDuplicateName', async () => {
      const invalid = await call('POST', '/api/gateway/flows/validate', {
        body: { name: 'v', nodes: [{ id: 'a', name: 'A', type: 'endpoint', config: { url: '/orders' } }] },
      });
      expect(invalid.status).toBe(200);
      expect(invalid.json.data).toEqual({
        ok: false,
        problems: [expect.objectContaining({ code: 'RELATIVE_URL', path: 'nodes[0].config.url' })],
      });
      expect((await call('POST', '/api/gateway/flows/validate', { body: orderFlow('would-save') })).json.data).toEqual({
        ok: true,
        problems: [],
      });
      expect((await call('GET', '/api/gateway/flows?search=would-save')).json.data.items).toEqual([]);

      const first = await createFlow(orderFlow('twice'));
      const again = await call('POST', '/api/gateway/flows', { body: orderFlow('twice') });
      expect(again.status).toBe(409);
      expect(again.json.error.code).toBe('FLOW_NAME_TAKEN');
      expect(again.json.error.message).toContain(first.id);
      expect(
        (await call('POST', '/api/gateway/flows?allowDuplicateName=true', { body: orderFlow('twice') })).status,
      ).toBe(201);
      expect(
        (await call('POST', '/api/gateway/flows?allowDuplicateName=maybe', { body: orderFlow('twice') })).status,
      ).toBe(400);
    });

    it('deletes a flow; afterwards every route answers FLOW_NOT_FOUND', async () => {
      const flow = await createFlow(orderFlow('doomed'));
      const deleted = await call('DELETE', `/api/gateway/flows/${flow.id}`);
      expect(deleted).toMatchObject({ status: 200, json: { success: true, data: { id: flow.id, deleted: true } } });
      for (const [method, path] of [
        ['GET', `/api/gateway/flows/${flow.id}`],
        ['DELETE', `/api/gateway/flows/${flow.id}`],
        ['POST', `/api/gateway/flows/${flow.id}/run`],
        ['GET', `/api/gateway/flows/${flow.id}/executions`],
      ] as const) {
        const answer = await call(method, path);
        expect(answer.status, `${method} ${path}`).toBe(404);
        expect(answer.json).toEqual({
          success: false,
          error: { code: 'FLOW_NOT_FOUND', message: `flow "${flow.id}" not found` },
        });
      }
      const update = await call('PUT', `/api/gateway/flows/${flow.id}`, { body: orderFlow('doomed') });
      expect(update.json.error.code).toBe('FLOW_NOT_FOUND');
    });

    it("answers another tenant's flow exactly as an unknown one", async () => {
      const flow = await createFlow(orderFlow('tenant-a-only'));
      const theirs = await call('GET', `/api/gateway/flows/${flow.id}`, { key: 'key-b' });
      expect(theirs.status).toBe(404);
      expect(theirs.json).toEqual({
        success: false,
        error: { code: 'FLOW_NOT_FOUND', message: `flow "${flow.id}" not found` },
      });
      expect((await call('POST', `/api/gateway/flows/${flow.id}/run`, { key: 'key-b', body: { env } })).status).toBe(
        404,
      );
      expect((await call('DELETE', `/api/gateway/flows/${flow.id}`, { key: 'key-b' })).status).toBe(404);
      expect((await call('GET', '/api/gateway/flows', { key: 'key-b' })).json.data.items).toEqual([]);
      expect((await call('GET', `/api/gateway/flows/${flow.id}`)).status).toBe(200);
    });
  });

  describe('runs and executions', () => {
    it('runs a flow to its end and answers the execution with its trace', async () => {
      const flow = await createFlow(orderFlow('run-me'));
      const run = await call('POST', `/api/gateway/flows/${flow.id}/run`, { body: { env } });
      expect(run.status).toBe(200);
      expect(run.json.data).toMatchObject({ status: 'Completed', nodesExecuted: 3, nodesSkipped: 0, flowId: flow.id });
      expect(run.json.data.durationMs).toBeGreaterThanOrEqual(0);
      expect(run.json.data.steps.map((step: Json) => [step.nodeName, step.status])).toEqual([
        ['Health', 'Completed'],
        ['CreateOrder', 'Completed'],
        ['ReadOrder', 'Completed'],
      ]);
      expect(run.json.data.trigger).toEqual({ type: 'api', clientId: 'cli_key-a' });

      const execution = await call('GET', `/api/gateway/executions/${run.json.data.executionId}`);
      expect(execution.status).toBe(200);
      expect(execution.json.data).toMatchObject({
        executionId: run.json.data.executionId,
        status: 'Completed',
        steps: expect.any(Array),
      });
    });

    it('passes inputs to the run as flowVars', async () => {
      const flow = await createFlow({
        name: 'echo-input',
        inputs: { who: { type: 'string', required: true } },
        nodes: [
          { id: 'e', name: 'Echo', type: 'endpoint', config: { url: '{{env.baseUrl}}/echo?who={{flowVars.who}}' } },
        ],
      });
      const run = await call('POST', `/api/gateway/flows/${flow.id}/run`, { body: { env, inputs: { who: 'ada' } } });
      expect(run.json.data.status).toBe('Completed');
      expect(run.json.data.steps[0].response.body.query).toEqual({ who: 'ada' });
    });

    it('answers 202 with the current status when the run outlasts ?waitMs=, and the run goes on', async () => {
      const flow = await createFlow(slowFlow('slow-run', '800ms'));
      const run = await call('POST', `/api/gateway/flows/${flow.id}/run?waitMs=100`, { body: { env } });
      expect(run.status).toBe(202);
      expect(['Queued', 'Running', 'Waiting']).toContain(run.json.data.status);
      await expect
        .poll(
          async () => (await call('GET', `/api/gateway/executions/${run.json.data.executionId}`)).json.data.status,
          { timeout: 5_000, interval: 100 },
        )
        .toBe('Completed');
    });

    it('refuses an unknown environment name, unknown body fields and a negative wait', async () => {
      const flow = await createFlow(orderFlow('env-name'));
      const named = await call('POST', `/api/gateway/flows/${flow.id}/run`, { body: { env: 'staging' } });
      expect(named.status).toBe(404);
      expect(named.json.error.code).toBe('ENVIRONMENT_NOT_FOUND');
      expect(named.json.error.message).toContain('environment "staging" not found');

      const unknown = await call('POST', `/api/gateway/flows/${flow.id}/run?waitMs=-1`, {
        body: { env, environment: 'x' },
      });
      expect(unknown.status).toBe(400);
      expect(unknown.json.error.code).toBe('VALIDATION_ERROR');
      expect(unknown.json.error.details.problems.map((problem: Json) => problem.path).sort()).toEqual(['query.waitMs']);
      const badBody = await call('POST', `/api/gateway/flows/${flow.id}/run`, { body: { env: 5 } });
      expect(badBody.json.error.details.problems.map((problem: Json) => problem.path)).toEqual(['body.env']);
    });

    it('lists the executions of a flow, newest first, with paging', async () => {
      const flow = await createFlow(orderFlow('listed-runs'));
      const ids: string[] = [];
      for (let i = 0; i < 3; i += 1)
        ids.push((await call('POST', `/api/gateway/flows/${flow.id}/run`, { body: { env } })).json.data.executionId);
      const first = await call('GET', `/api/gateway/flows/${flow.id}/executions?limit=2`);
      expect(first.status).toBe(200);
      expect(first.json.data.items).toHaveLength(2);
      const second = await call(
        'GET',
        `/api/gateway/flows/${flow.id}/executions?limit=2&cursor=${encodeURIComponent(first.json.data.nextCursor)}`,
      );
      expect(second.json.data.nextCursor).toBeNull();
      const listed = [...first.json.data.items, ...second.json.data.items].map((item: Json) => item.executionId);
      expect(listed).toEqual([...ids].reverse());
      expect(first.json.data.items[0]).toMatchObject({ flowId: flow.id, status: 'Completed' });
    });

    it('holds GET /executions/{id}?waitMs= until the end, and cancels a running execution', async () => {
      const flow = await createFlow(slowFlow('cancel-route', '20s'));
      const run = await call('POST', `/api/gateway/flows/${flow.id}/run?waitMs=0`, { body: { env } });
      expect(run.status).toBe(202);
      const id = run.json.data.executionId as string;
      const held = await call('GET', `/api/gateway/executions/${id}?waitMs=200`);
      expect(['Running', 'Waiting']).toContain(held.json.data.status);
      const readOnly = await call('POST', `/api/gateway/executions/${id}/cancel`, { key: 'key-a-read' });
      expect(readOnly.status).toBe(403);
      const cancelled = await call('POST', `/api/gateway/executions/${id}/cancel`);
      expect(cancelled.status).toBe(200);
      expect(cancelled.json.data).toMatchObject({ executionId: id, status: 'Cancelled' });
      const done = await createFlow(orderFlow('held-read'));
      const quick = await call('POST', `/api/gateway/flows/${done.id}/run?waitMs=0`, { body: { env } });
      const ended = await call('GET', `/api/gateway/executions/${quick.json.data.executionId}?waitMs=10000`);
      expect(ended.json.data.status).toBe('Completed');
      expect(
        (await call('POST', '/api/gateway/executions/00000000-0000-4000-8000-000000000000/cancel')).json.error.code,
      ).toBe('EXECUTION_NOT_FOUND');
    });

    it("answers EXECUTION_NOT_FOUND for an unknown id and for another tenant's execution", async () => {
      const flow = await createFlow(orderFlow('private-run'));
      const run = await call('POST', `/api/gateway/flows/${flow.id}/run`, { body: { env } });
      const theirs = await call('GET', `/api/gateway/executions/${run.json.data.executionId}`, { key: 'key-b' });
      expect(theirs.status).toBe(404);
      expect(theirs.json.error).toEqual({
        code: 'EXECUTION_NOT_FOUND',
        message: `execution "${run.json.data.executionId}" not found`,
      });
      const unknown = await call('GET', '/api/gateway/executions/00000000-0000-4000-8000-000000000000');
      expect(unknown.status).toBe(404);
      expect(unknown.json.error.code).toBe('EXECUTION_NOT_FOUND');
    });
  });

  describe('suites and schedules', () => {
    it('lists no suites and answers SUITE_NOT_FOUND for a run', async () => {
      expect(await call('GET', '/api/gateway/suites')).toMatchObject({
        status: 200,
        json: { success: true, data: { items: [], nextCursor: null } },
      });
      const run = await call('POST', '/api/gateway/suites/smoke/run');
      expect(run.status).toBe(404);
      expect(run.json).toEqual({
        success: false,
        error: { code: 'SUITE_NOT_FOUND', message: 'suite "smoke" not found' },
      });
    });

    it('lists no schedules', async () => {
      expect(await call('GET', '/api/schedules')).toMatchObject({
        status: 200,
        json: { success: true, data: { items: [], nextCursor: null } },
      });
    });
  });

  describe('errors', () => {
    it('answers malformed JSON with 400 MALFORMED_JSON', async () => {
      const answer = await call('POST', '/api/gateway/flows', { raw: '{"name": "x",' });
      expect(answer.status).toBe(400);
      expect(answer.json.success).toBe(false);
      expect(answer.json.error.code).toBe('MALFORMED_JSON');
    });

    it('answers a body that is not JSON with 415', async () => {
      const answer = await call('POST', '/api/gateway/flows', {
        raw: 'name=x',
        type: 'application/x-www-form-urlencoded',
      });
      expect(answer.status).toBe(415);
      expect(answer.json).toMatchObject({ success: false, error: { code: 'UNSUPPORTED_MEDIA_TYPE' } });
    });

    it('answers a body over the limit with 413, before reading it whole', async () => {
      const big = { ...orderFlow('huge'), description: 'x'.repeat(70 * 1024) };
      const answer = await call('POST', '/api/gateway/flows', { body: big });
      expect(answer.status).toBe(413);
      expect(answer.json).toEqual({
        success: false,
        error: { code: 'PAYLOAD_TOO_LARGE', message: `the request body is larger than ${64 * 1024} bytes` },
      });
      expect((await call('GET', '/api/gateway/flows?search=huge')).json.data.items).toEqual([]);
    });

    it('answers an unknown route with 404 in the envelope', async () => {
      const answer = await call('GET', '/api/gateway/nothing-here');
      expect(answer).toMatchObject({ status: 404, json: { success: false, error: { code: 'NOT_FOUND' } } });
    });

    it('answers a missing scope with 403 INSUFFICIENT_SCOPE and the scope it needs', async () => {
      expect((await call('GET', '/api/gateway/flows', { key: 'key-a-read' })).status).toBe(200);
      const answer = await call('POST', '/api/gateway/flows', { key: 'key-a-read', body: orderFlow('not-allowed') });
      expect(answer.status).toBe(403);
      expect(answer.json.error).toMatchObject({
        code: 'INSUFFICIENT_SCOPE',
        details: { requiredScope: 'flows:write' },
      });
      expect(answer.headers.get('www-authenticate')).toBe(
        'Bearer realm="svc", error="insufficient_scope", scope="flows:write"',
      );
      expect((await call('POST', '/api/gateway/suites/x/run', { key: 'key-a-read' })).status).toBe(403);
    });

    it('answers anything unexpected with 500, a correlation id, and none of its internals', async () => {
      const failing: Engine = {
        ...engine,
        flows: {
          ...engine.flows,
          list: async () => {
            throw new Error('disk I/O error at /var/lib/svc/svc.db');
          },
        },
      };
      const errors: Json[] = [];
      const logger = {
        debug() {},
        info() {},
        warn() {},
        error: (message: string, fields?: Json) => errors.push({ message, ...fields }),
      };
      const broken = createApp({ engine: failing, authenticator, logger });
      const response = await broken.request('/api/gateway/flows', { headers: { 'X-API-Key': 'key-a' } });
      expect(response.status).toBe(500);
      const text = await response.text();
      expect(text).not.toContain('disk I/O');
      expect(text).not.toContain('/var/lib');
      const json = JSON.parse(text) as Json;
      expect(json.success).toBe(false);
      expect(json.error.code).toBe('INTERNAL_ERROR');
      const correlationId = json.error.details.correlationId as string;
      expect(correlationId).toMatch(/^[0-9a-f-]{36}$/);
      expect(json.error.message).toContain(correlationId);
      expect(response.headers.get('x-correlation-id')).toBe(correlationId);
      expect(errors).toEqual([
        expect.objectContaining({ correlationId, error: expect.stringContaining('disk I/O error') }),
      ]);
    });
  });
});
