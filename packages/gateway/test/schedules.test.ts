import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createEngine, createManualClock, egressPolicyOf, loadConfig, type Engine } from '@svc/engine';
import { openSqliteStore } from '@svc/engine/sqlite';
import { createApp } from '@svc/gateway';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stubAuthenticator } from './stub-authenticator.js';
import { apiCaller, type Json } from './api-call.js';

const T0 = Date.parse('2026-01-01T00:00:00Z');
const paths: string[] = [];
let target: Server;
let targetUrl: string;
let engine: Engine;
let store: ReturnType<typeof openSqliteStore>;
let app: ReturnType<typeof createApp>;
const clock = createManualClock(T0);
let flowId: string;

beforeAll(async () => {
  target = createServer((request, response) => {
    paths.push(request.url ?? '');
    response.setHeader('content-type', 'application/json').end('{"status":"HEALTHY"}');
  });
  await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
  const { port } = target.address() as AddressInfo;
  targetUrl = `http://127.0.0.1:${port}`;
  store = openSqliteStore({ path: ':memory:' });
  engine = await createEngine({
    store,
    clock,
    egress: egressPolicyOf(loadConfig({ SVC_EGRESS_ALLOW: `127.0.0.1:${port}` }), 'service'),
  });
  app = createApp({
    engine,
    authenticator: stubAuthenticator({
      'key-a': { tenantId: 'tenant-a' },
      'key-b': { tenantId: 'tenant-b' },
      'key-a-read': { tenantId: 'tenant-a', scopes: ['schedules:read'] },
      'key-a-flows': { tenantId: 'tenant-a', scopes: ['flows:read', 'flows:write', 'executions:run'] },
    }),
  });
  await engine.environments.create('tenant-a', { name: 'staging', variables: { baseUrl: targetUrl } });
  flowId = (
    await engine.flows.create('tenant-a', {
      name: 'health',
      nodes: [{ id: 'n1', name: 'Health', type: 'endpoint', config: { url: '{{env.baseUrl}}/health' } }],
      connections: [],
    })
  ).id;
  await engine.suites.create('tenant-a', { name: 'smoke', flowIds: [flowId] });
});

afterAll(async () => {
  await engine.stop();
  await store.close();
  target.closeAllConnections();
  await new Promise((resolve) => target.close(resolve));
});

const call = apiCaller(() => app);

const weekdays = {
  name: 'weekday-health',
  cron: '30 8 * * 1-5',
  target: { type: 'flow', id: 'health' },
  environment: 'staging',
};

describe('/api/schedules', () => {
  let id: string;

  it('creates a schedule and answers it with its next three due times', async () => {
    const created = await call('POST', '/api/schedules', { body: weekdays });
    expect(created.status).toBe(201);
    id = created.json.data.id;
    expect(created.json.data).toMatchObject({
      name: 'weekday-health',
      target: { type: 'flow', id: flowId },
      timezone: 'UTC',
      enabled: true,
      overlap: 'skip',
      nextDueAt: '2026-01-01T08:30:00.000Z',
      nextDueTimes: ['2026-01-01T08:30:00.000Z', '2026-01-02T08:30:00.000Z', '2026-01-05T08:30:00.000Z'],
      lastRun: null,
    });
    expect((await call('GET', `/api/schedules/${id}`)).json.data).toEqual(created.json.data);
    expect((await call('GET', '/api/schedules/weekday-health')).json.data.id).toBe(id);
  });

  it('answers bad input with VALIDATION_ERROR naming each problem, and changes nothing', async () => {
    const bad = await call('POST', '/api/schedules', {
      body: { ...weekdays, name: 'bad', cron: '61 * * * *' },
    });
    expect(bad.status).toBe(400);
    expect(bad.json.error).toMatchObject({
      code: 'VALIDATION_ERROR',
      message: 'the schedule does not validate: cron: "61 * * * *": minute 61 is out of range (0-59)',
      details: { problems: [{ path: 'cron' }] },
    });
    const unknown = await call('POST', '/api/schedules', {
      body: { ...weekdays, name: 'bad', target: { type: 'suite', id: 'nightly' }, environment: 'prod' },
    });
    expect(unknown.status).toBe(400);
    expect(unknown.json.error.details.problems).toMatchObject([
      { path: 'target.id', code: 'SUITE_NOT_FOUND' },
      { path: 'environment', code: 'ENVIRONMENT_NOT_FOUND' },
    ]);
    const zone = await call('POST', '/api/schedules', {
      body: { ...weekdays, name: 'bad', timezone: 'Europe/Atlantis' },
    });
    expect(zone.json.error.details.problems).toMatchObject([{ path: 'timezone' }]);
    const update = await call('PUT', `/api/schedules/${id}`, { body: { ...weekdays, cron: '*/15 * * *' } });
    expect(update.status).toBe(400);
    expect((await call('GET', `/api/schedules/${id}`)).json.data.cron).toBe('30 8 * * 1-5');
    expect((await call('GET', '/api/schedules?all=true')).json.data.items).toHaveLength(1);
    expect((await call('POST', '/api/schedules', { body: weekdays })).json.error.code).toBe('CONFLICT');
  });

  it('answers a cron expression that never matches a date with 400 saying so, on POST and PUT', async () => {
    for (const cron of ['0 0 30 2 *', '0 0 31 4,6,9,11 *', '0 0 31 apr,jun,sep,nov *', '0 0 31 2 *', '0 0 30,31 2 *']) {
      const created = await call('POST', '/api/schedules', { body: { ...weekdays, name: 'never', cron } });
      expect(created.status, cron).toBe(400);
      expect(created.json.error, cron).toMatchObject({
        code: 'VALIDATION_ERROR',
        message: `the schedule does not validate: cron: "${cron}": it never matches a date`,
        details: { problems: [{ path: 'cron', message: `"${cron}": it never matches a date` }] },
      });
      const replaced = await call('PUT', `/api/schedules/${id}`, { body: { ...weekdays, cron } });
      expect(replaced.json.error.details.problems, cron).toMatchObject([
        { path: 'cron', message: `"${cron}": it never matches a date` },
      ]);
    }
    expect((await call('GET', `/api/schedules/${id}`)).json.data.cron).toBe('30 8 * * 1-5');
    expect((await call('GET', '/api/schedules?all=true')).json.data.items).toHaveLength(1);
  });

  it('replaces a schedule with PUT; every 15 minutes in a time zone', async () => {
    const updated = await call('PUT', `/api/schedules/${id}`, {
      body: { ...weekdays, cron: '*/15 * * * *', timezone: 'Asia/Kolkata' },
    });
    expect(updated.status).toBe(200);
    // Kolkata is 5:30 ahead: its quarter hours fall on the quarter hours of UTC too.
    expect(updated.json.data).toMatchObject({
      cron: '*/15 * * * *',
      timezone: 'Asia/Kolkata',
      nextDueTimes: ['2026-01-01T00:15:00.000Z', '2026-01-01T00:30:00.000Z', '2026-01-01T00:45:00.000Z'],
    });
  });

  it('pauses, lists the active ones only unless all=true, resumes', async () => {
    const suiteSchedule = await call('POST', '/api/schedules', {
      body: { name: 'smoke-hourly', cron: '0 * * * *', target: { type: 'suite', id: 'smoke' }, environment: 'staging' },
    });
    expect(suiteSchedule.status).toBe(201);
    const paused = await call('POST', `/api/schedules/${id}/pause`);
    expect(paused.json.data).toMatchObject({ enabled: false, nextDueAt: null });
    const active = await call('GET', '/api/schedules');
    expect(active.json.data.items.map((item: Json) => item.name)).toEqual(['smoke-hourly']);
    const all = await call('GET', '/api/schedules?all=true&limit=1');
    expect(all.json.data.items.map((item: Json) => item.name)).toEqual(['weekday-health']);
    const next = await call('GET', `/api/schedules?all=true&limit=1&cursor=${all.json.data.nextCursor}`);
    expect(next.json.data).toMatchObject({ items: [{ name: 'smoke-hourly' }], nextCursor: null });
    expect((await call('GET', '/api/schedules?limit=500')).json.error.code).toBe('VALIDATION_ERROR');
    expect((await call('GET', '/api/schedules?all=maybe')).json.error.code).toBe('VALIDATION_ERROR');
    const resumed = await call('POST', `/api/schedules/${id}/resume`);
    expect(resumed.json.data).toMatchObject({ enabled: true, nextDueAt: '2026-01-01T00:15:00.000Z' });
    await call('DELETE', `/api/schedules/${suiteSchedule.json.data.id}`);
  });

  it('fires on the clock through the scheduler, and runs now by hand', async () => {
    paths.length = 0;
    const fired = await engine.scheduler.tick(Date.parse('2026-01-01T00:15:00Z'));
    expect(fired).toMatchObject([{ scheduleId: id, status: 'fired' }]);
    await engine.waitForExecution('tenant-a', fired[0]!.runId!, 5_000);
    expect(paths).toEqual(['/health']);
    const schedule = (await call('GET', `/api/schedules/${id}`)).json.data;
    expect(schedule.lastRun).toMatchObject({ executionId: fired[0]!.runId, outcome: 'passed', missed: 0 });
    const execution = await call('GET', `/api/gateway/executions/${fired[0]!.runId}`);
    expect(execution.json.data.status).toBe('Completed');

    const manual = await call('POST', `/api/schedules/${id}/run`);
    expect(manual.status).toBe(202);
    expect(manual.json.data.run).toMatchObject({ status: 'fired', scheduleId: id });
    expect(manual.json.data.schedule).toMatchObject({
      nextDueAt: '2026-01-01T00:30:00.000Z',
      lastRun: { manual: true },
    });
    await engine.waitForExecution('tenant-a', manual.json.data.run.runId, 5_000);
    expect(paths).toEqual(['/health', '/health']);
  });

  it("answers SCHEDULE_NOT_FOUND (404) for another tenant's schedule on every route", async () => {
    for (const [method, path, body] of [
      ['GET', `/api/schedules/${id}`],
      ['PUT', `/api/schedules/${id}`, weekdays],
      ['DELETE', `/api/schedules/${id}`],
      ['POST', `/api/schedules/${id}/pause`],
      ['POST', `/api/schedules/${id}/resume`],
      ['POST', `/api/schedules/${id}/run`],
    ] as const) {
      const answer = await call(method, path, { key: 'key-b', ...(body ? { body } : {}) });
      expect([method, path, answer.status, answer.json.error?.code]).toEqual([method, path, 404, 'SCHEDULE_NOT_FOUND']);
    }
    expect((await call('GET', '/api/schedules?all=true', { key: 'key-b' })).json.data.items).toEqual([]);
  });

  it('asks schedules:read to read and schedules:write to change', async () => {
    expect((await call('GET', '/api/schedules', { key: 'key-a-read' })).status).toBe(200);
    expect((await call('GET', `/api/schedules/${id}`, { key: 'key-a-flows' })).status).toBe(403);
    for (const [method, path] of [
      ['POST', '/api/schedules'],
      ['PUT', `/api/schedules/${id}`],
      ['DELETE', `/api/schedules/${id}`],
      ['POST', `/api/schedules/${id}/pause`],
      ['POST', `/api/schedules/${id}/run`],
    ] as const) {
      const answer = await call(method, path, { key: 'key-a-read', body: weekdays });
      expect([path, answer.status, answer.json.error.code]).toEqual([path, 403, 'INSUFFICIENT_SCOPE']);
    }
  });

  it('is described in the OpenAPI document, every route with its scope', async () => {
    const document = (await (await app.request('/api/openapi.json')).json()) as Json;
    const scopes = (route: string, method: string) => document.paths[route][method].security[0].oauth2;
    expect(scopes('/api/schedules', 'get')).toEqual(['schedules:read']);
    expect(scopes('/api/schedules', 'post')).toEqual(['schedules:write']);
    for (const method of ['put', 'delete']) expect(scopes('/api/schedules/{id}', method)).toEqual(['schedules:write']);
    for (const action of ['pause', 'resume', 'run'])
      expect(scopes(`/api/schedules/{id}/${action}`, 'post')).toEqual(['schedules:write']);
    expect(document.components.schemas.ScheduleBody.required).toEqual(['name', 'target', 'cron']);
    expect(document.components.schemas.Schedule.properties.nextDueTimes).toMatchObject({ type: 'array' });
  });

  it('deletes a schedule', async () => {
    const deleted = await call('DELETE', `/api/schedules/${id}`);
    expect(deleted.json.data).toEqual({ id, name: 'weekday-health', deleted: true });
    expect((await call('GET', `/api/schedules/${id}`)).status).toBe(404);
  });
});
