import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  createEgressPolicy,
  createEngine,
  createManualClock,
  MAX_SCHEDULES_PER_TENANT,
  type Engine,
  type FiredRun,
} from '@svc/engine';
import { openSqliteStore } from '@svc/engine/sqlite';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';

const A = 'tenant-a';
const B = 'tenant-b';
const at = (text: string) => Date.parse(text);

/** A local API: `/ok` answers 200, `/fail` 500, `/hold` only once the test releases it. */
async function startApi() {
  const paths: string[] = [];
  const held: ServerResponse[] = [];
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    paths.push(url.pathname);
    if (url.pathname === '/hold') {
      held.push(response);
      return;
    }
    response.writeHead(url.pathname === '/ok' ? 200 : 500, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ path: url.pathname }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    paths,
    held,
    release() {
      for (const response of held.splice(0)) {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end('{}');
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function callFlow(name: string, path: string) {
  return {
    name,
    nodes: [{ id: 'n1', name: 'Call', type: 'endpoint', config: { url: `{{env.baseUrl}}${path}` } }],
    connections: [],
  };
}

let api: Awaited<ReturnType<typeof startApi>>;
const dirs: string[] = [];
beforeAll(async () => {
  api = await startApi();
});
afterAll(async () => {
  await api.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

async function openEngine(path = ':memory:', clock = createManualClock(at('2026-01-01T00:00:00Z'))) {
  const store = openSqliteStore({ path });
  const engine = await createEngine({ store, clock, egress: createEgressPolicy({ mode: 'local' }) });
  return {
    engine,
    store,
    clock,
    async close() {
      api.release();
      await engine.stop({ graceMs: 1_000 });
      await store.close();
    },
  };
}

async function seed(engine: Engine, tenantId = A) {
  await engine.environments.create(tenantId, { name: 'staging', variables: { baseUrl: api.url } });
  const ok = await engine.flows.create(tenantId, callFlow('health', '/ok'));
  const failing = await engine.flows.create(tenantId, callFlow('broken', '/fail'));
  const hold = await engine.flows.create(tenantId, callFlow('slow', '/hold'));
  return { ok, failing, hold };
}

describe('schedules', () => {
  let opened: Awaited<ReturnType<typeof openEngine>>;
  let engine: Engine;
  let flows: Awaited<ReturnType<typeof seed>>;
  beforeEach(async () => {
    opened = await openEngine();
    engine = opened.engine;
    flows = await seed(engine);
    api.paths.length = 0;
  });
  afterEach(async () => {
    await opened.close();
  });

  describe('validation', () => {
    it('answers a cron field out of range with the field and why, and saves nothing', async () => {
      const error = await engine.schedules
        .create(A, { name: 'bad', cron: '61 * * * *', target: { type: 'flow', id: flows.ok.id } })
        .catch((caught: unknown) => caught);
      expect(error).toMatchObject({
        code: 'VALIDATION_ERROR',
        message: 'the schedule does not validate: cron: "61 * * * *": minute 61 is out of range (0-59)',
        details: { problems: [{ path: 'cron', message: '"61 * * * *": minute 61 is out of range (0-59)' }] },
      });
      expect((await engine.schedules.list(A, { all: true })).items).toEqual([]);
    });

    it.each([
      ['* * * *', 'a cron expression has 5 fields (minute hour day-of-month month day-of-week), this one has 4'],
      ['0 0 * * * *', 'a cron expression has 5 fields (minute hour day-of-month month day-of-week), this one has 6'],
      ['0 24 * * *', 'hour 24 is out of range (0-23)'],
      ['0 0 0 * *', 'day-of-month 0 is out of range (1-31)'],
      ['0 0 * 13 *', 'month 13 is out of range (1-12)'],
      ['0 0 * * 8', 'day-of-week 8 is out of range (0-7)'],
      ['*/0 * * * *', 'minute step 0 is out of range (1-59)'],
      ['5-2 * * * *', 'minute range 5-2 runs backwards (write 2-5? a range goes from low to high)'],
      ['x * * * *', 'minute "x" is not a number (0-59)'],
      ['0 0 * * funday', 'day-of-week "funday" is not a number (0-7) or a name (sun, mon, tue, …)'],
      ['0 0 31 2 *', 'it never matches a date'],
      ['0 0 30 2 *', 'it never matches a date'],
      ['0 0 30,31 2 *', 'it never matches a date'],
      ['0 0 31 4,6,9,11 *', 'it never matches a date'],
      ['0 0 31 apr,jun,sep,nov *', 'it never matches a date'],
      ['*/5 * 30-31 2 *', 'it never matches a date'],
    ])('refuses %s: %s', async (cron, why) => {
      await expect(
        engine.schedules.create(A, { name: 'bad', cron, target: { type: 'flow', id: flows.ok.id } }),
      ).rejects.toMatchObject({
        code: 'VALIDATION_ERROR',
        details: { problems: [{ path: 'cron', message: `"${cron}": ${why}` }] },
      });
    });

    it('answers every other problem at once with its path: time zone, target, environment, unknown field', async () => {
      const error = await engine.schedules
        .create(A, {
          name: 'bad',
          cron: '*/15 * * * *',
          timezone: 'Mars/Olympus',
          target: { type: 'flow', id: 'nope' },
        })
        .catch((caught: unknown) => caught);
      expect(error).toMatchObject({
        code: 'VALIDATION_ERROR',
        details: {
          problems: [
            {
              path: 'timezone',
              message: '"Mars/Olympus" is not a time zone: use UTC or an IANA name such as Europe/Zurich',
            },
            { path: 'target.id', code: 'FLOW_NOT_FOUND' },
          ],
        },
      });
      const unknownTarget = await engine.schedules
        .create(A, { name: 'bad', cron: '*/15 * * * *', target: { type: 'suite', id: 'nope' }, environment: 'prod' })
        .catch((caught: unknown) => caught);
      expect(unknownTarget).toMatchObject({
        code: 'VALIDATION_ERROR',
        details: {
          problems: [
            { path: 'target.id', code: 'SUITE_NOT_FOUND', message: 'suite "nope" not found' },
            { path: 'environment', code: 'ENVIRONMENT_NOT_FOUND' },
          ],
        },
      });
      await expect(
        engine.schedules.create(A, {
          name: 'bad',
          cron: '*/15 * * * *',
          target: { type: 'flow', id: flows.ok.id },
          every: 5,
        }),
      ).rejects.toMatchObject({ details: { problems: [{ path: 'every', code: 'UNKNOWN_FIELD' }] } });
      expect((await engine.schedules.list(A, { all: true })).items).toEqual([]);
    });

    it('holds a tenant to MAX_SCHEDULES_PER_TENANT schedules', async () => {
      const definition = {
        description: '',
        target: { type: 'flow' as const, id: flows.ok.id },
        cron: '0 0 * * *',
        timezone: 'UTC',
        environment: null,
        enabled: false,
        overlap: 'skip' as const,
      };
      for (let index = 0; index < MAX_SCHEDULES_PER_TENANT; index += 1)
        await opened.store.schedules.create(A, { ...definition, name: `s${index}` }, { nextDueAt: null });
      await expect(
        engine.schedules.create(A, { name: 'one-more', cron: '0 0 * * *', target: { type: 'flow', id: flows.ok.id } }),
      ).rejects.toMatchObject({ code: 'CONFLICT', message: /the tenant has 1000 schedules/ });
      expect(
        await engine.schedules
          .create(B, { name: 'theirs', cron: '0 0 * * *', target: { type: 'flow', id: flows.ok.id } })
          .catch((error: unknown) => error),
      ).toMatchObject({ code: 'VALIDATION_ERROR' });
    });

    it("answers SCHEDULE_NOT_FOUND for another tenant's schedule, whatever is asked", async () => {
      const mine = await engine.schedules.create(A, {
        name: 'mine',
        cron: '*/15 * * * *',
        target: { type: 'flow', id: flows.ok.id },
      });
      for (const attempt of [
        () => engine.schedules.get(B, mine.id),
        () => engine.schedules.update(B, mine.id, { name: 'x', cron: '* * * * *', target: { type: 'flow', id: 'x' } }),
        () => engine.schedules.pause(B, mine.id),
        () => engine.schedules.resume(B, mine.id),
        () => engine.schedules.runNow(B, mine.id),
        () => engine.schedules.delete(B, mine.id),
      ]) {
        await expect(attempt()).rejects.toMatchObject({ code: 'SCHEDULE_NOT_FOUND' });
      }
      expect((await engine.schedules.list(B, { all: true })).items).toEqual([]);
      expect((await engine.schedules.get(A, mine.id)).enabled).toBe(true);
    });
  });

  describe('due times', () => {
    it('spells out the spec examples in UTC: weekdays at 08:30, and every 15 minutes', async () => {
      // 2026-01-01 is a Thursday.
      const weekdays = await engine.schedules.create(A, {
        name: 'weekdays',
        cron: '30 8 * * 1-5',
        target: { type: 'flow', id: flows.ok.id },
      });
      expect(weekdays.timezone).toBe('UTC');
      expect(weekdays.nextDueTimes).toEqual([
        '2026-01-01T08:30:00.000Z',
        '2026-01-02T08:30:00.000Z',
        '2026-01-05T08:30:00.000Z',
      ]);
      const often = await engine.schedules.create(A, {
        name: 'often',
        cron: '*/15 * * * *',
        target: { type: 'flow', id: 'health' },
      });
      expect(often.target).toEqual({ type: 'flow', id: flows.ok.id });
      expect(often.nextDueAt).toBe('2026-01-01T00:15:00.000Z');
      expect(often.nextDueTimes).toEqual([
        '2026-01-01T00:15:00.000Z',
        '2026-01-01T00:30:00.000Z',
        '2026-01-01T00:45:00.000Z',
      ]);
    });

    it('evaluates in an IANA time zone, across a daylight-saving change', async () => {
      opened.clock.set(at('2026-03-26T12:00:00Z'));
      const zurich = await engine.schedules.create(A, {
        name: 'zurich',
        cron: '30 8 * * 1-5',
        timezone: 'Europe/Zurich',
        target: { type: 'flow', id: flows.ok.id },
      });
      // 08:30 in Zurich is 07:30 UTC in winter and 06:30 UTC from 29 March.
      expect(zurich.nextDueTimes).toEqual([
        '2026-03-27T07:30:00.000Z',
        '2026-03-30T06:30:00.000Z',
        '2026-03-31T06:30:00.000Z',
      ]);
    });
  });

  describe('firing', () => {
    const fired = (runs: FiredRun[]) => runs.map((run) => run.status);

    it('fires a due run once, on the stored environment, with trigger { type: schedule, scheduleId }', async () => {
      const schedule = await engine.schedules.create(A, {
        name: 'often',
        cron: '*/15 * * * *',
        target: { type: 'flow', id: flows.ok.id },
        environment: 'staging',
      });
      expect(await engine.scheduler.tick(at('2026-01-01T00:14:59Z'))).toEqual([]);
      const runs = await engine.scheduler.tick(at('2026-01-01T00:15:00Z'));
      expect(runs).toMatchObject([{ scheduleId: schedule.id, status: 'fired', missed: 0 }]);
      expect(await engine.scheduler.tick(at('2026-01-01T00:15:01Z'))).toEqual([]);

      const execution = await engine.waitForExecution(A, runs[0]!.runId!, 5_000);
      expect(execution.status).toBe('Completed');
      const record = await opened.store.executions.get(A, execution.executionId);
      expect(record?.trigger).toMatchObject({
        type: 'schedule',
        scheduleId: schedule.id,
        dueAt: '2026-01-01T00:15:00.000Z',
      });
      expect(api.paths).toEqual(['/ok']);

      const after = await engine.schedules.get(A, schedule.id);
      expect(after.nextDueAt).toBe('2026-01-01T00:30:00.000Z');
      expect(after.lastRun).toMatchObject({
        executionId: execution.executionId,
        suiteRunId: null,
        outcome: 'passed',
        dueAt: '2026-01-01T00:15:00.000Z',
        missed: 0,
        manual: false,
      });
    });

    it('after downtime fires once, not once per missed slot, and records how many it missed', async () => {
      const schedule = await engine.schedules.create(A, {
        name: 'often',
        cron: '*/15 * * * *',
        target: { type: 'flow', id: flows.ok.id },
        environment: 'staging',
      });
      // Due at 00:15; nothing ticked until 03:07: slots 00:15, 00:30, …, 03:00 are 12, one fires.
      const runs = await engine.scheduler.tick(at('2026-01-01T03:07:00Z'));
      expect(runs).toMatchObject([{ status: 'fired', missed: 11, dueAt: at('2026-01-01T00:15:00Z') }]);
      expect(await engine.scheduler.tick(at('2026-01-01T03:07:30Z'))).toEqual([]);
      await engine.waitForExecution(A, runs[0]!.runId!, 5_000);
      expect(api.paths).toEqual(['/ok']);
      const record = await opened.store.executions.get(A, runs[0]!.runId!);
      expect(record?.trigger).toMatchObject({ type: 'schedule', scheduleId: schedule.id, missed: 11 });
      const after = await engine.schedules.get(A, schedule.id);
      expect(after).toMatchObject({ nextDueAt: '2026-01-01T03:15:00.000Z', missedRuns: 11, lastRun: { missed: 11 } });
    });

    it('skips a due run while the previous one is still going, and records the skip', async () => {
      const schedule = await engine.schedules.create(A, {
        name: 'slow',
        cron: '* * * * *',
        target: { type: 'flow', id: flows.hold.id },
        environment: 'staging',
      });
      const first = await engine.scheduler.tick(at('2026-01-01T00:01:00Z'));
      await waitUntil(() => api.held.length === 1);
      expect(fired(await engine.scheduler.tick(at('2026-01-01T00:02:00Z')))).toEqual(['skipped']);
      const skipped = await engine.schedules.get(A, schedule.id);
      expect(skipped).toMatchObject({
        skippedRuns: 1,
        lastSkippedAt: '2026-01-01T00:02:00.000Z',
        nextDueAt: '2026-01-01T00:03:00.000Z',
        lastRun: { executionId: first[0]!.runId, outcome: 'running' },
      });
      await expect(engine.schedules.runNow(A, schedule.id)).rejects.toMatchObject({ code: 'CONFLICT' });

      api.release();
      await engine.waitForExecution(A, first[0]!.runId!, 5_000);
      const third = await engine.scheduler.tick(at('2026-01-01T00:03:00Z'));
      expect(fired(third)).toEqual(['fired']);
      expect(third[0]!.runId).not.toBe(first[0]!.runId);
      await waitUntil(() => api.held.length === 1);
      api.release();
      await engine.waitForExecution(A, third[0]!.runId!, 5_000);
    });

    it('with overlap allow, starts a due run while the previous one is still going', async () => {
      await engine.schedules.create(A, {
        name: 'slow',
        cron: '* * * * *',
        target: { type: 'flow', id: flows.hold.id },
        environment: 'staging',
        overlap: 'allow',
      });
      expect(fired(await engine.scheduler.tick(at('2026-01-01T00:01:00Z')))).toEqual(['fired']);
      const second = await engine.scheduler.tick(at('2026-01-01T00:02:00Z'));
      expect(fired(second)).toEqual(['fired']);
      await waitUntil(() => api.held.length === 2);
      api.release();
      await engine.waitForExecution(A, second[0]!.runId!, 5_000);
    });

    it('runs a suite target through the suites, recording the outcome when the run ends', async () => {
      const suite = await engine.suites.create(A, { name: 'smoke', flowIds: [flows.ok.id, flows.failing.id] });
      const schedule = await engine.schedules.create(A, {
        name: 'smoke-hourly',
        cron: '0 * * * *',
        target: { type: 'suite', id: 'smoke' },
        environment: 'staging',
      });
      expect(schedule.target).toEqual({ type: 'suite', id: suite.id });
      const runs = await engine.scheduler.tick(at('2026-01-01T01:00:00Z'));
      expect(fired(runs)).toEqual(['fired']);
      await engine.schedules.drain();
      expect(api.paths).toEqual(['/ok', '/fail']);
      const after = await engine.schedules.get(A, schedule.id);
      expect(after.lastRun).toMatchObject({
        suiteRunId: runs[0]!.runId,
        executionId: null,
        outcome: 'failed',
        error: { code: 'HTTP_ERROR_STATUS' },
      });
      const executions = (await opened.store.executions.list(A)).items;
      expect(executions).toHaveLength(2);
      for (const execution of executions)
        expect(execution.trigger).toMatchObject({
          type: 'suite',
          suiteId: suite.id,
          suiteRunId: runs[0]!.runId,
          startedBy: { type: 'schedule', scheduleId: schedule.id },
        });
    });

    it('records a run that cannot start (its environment was deleted) as failed, and keeps the schedule', async () => {
      const schedule = await engine.schedules.create(A, {
        name: 'often',
        cron: '*/15 * * * *',
        target: { type: 'flow', id: flows.ok.id },
        environment: 'staging',
      });
      await engine.environments.delete(A, 'staging');
      expect(fired(await engine.scheduler.tick(at('2026-01-01T00:15:00Z')))).toEqual(['failed']);
      const after = await engine.schedules.get(A, schedule.id);
      expect(after).toMatchObject({
        enabled: true,
        nextDueAt: '2026-01-01T00:30:00.000Z',
        lastRun: { outcome: 'failed', error: { code: 'ENVIRONMENT_NOT_FOUND' } },
      });
    });

    it('fires nothing while paused; resuming is due from the next slot, without making up the pause', async () => {
      const schedule = await engine.schedules.create(A, {
        name: 'often',
        cron: '*/15 * * * *',
        target: { type: 'flow', id: flows.ok.id },
        environment: 'staging',
      });
      const paused = await engine.schedules.pause(A, schedule.id);
      expect(paused).toMatchObject({ enabled: false, nextDueAt: null });
      expect(paused.nextDueTimes).toHaveLength(3);
      expect(await engine.scheduler.tick(at('2026-01-01T02:00:00Z'))).toEqual([]);
      expect((await engine.schedules.list(A)).items).toEqual([]);
      expect((await engine.schedules.list(A, { all: true })).items).toHaveLength(1);

      opened.clock.set(at('2026-01-01T02:05:00Z'));
      const resumed = await engine.schedules.resume(A, 'often');
      expect(resumed).toMatchObject({ enabled: true, nextDueAt: '2026-01-01T02:15:00.000Z' });
      expect(await engine.scheduler.tick(at('2026-01-01T02:10:00Z'))).toEqual([]);
      expect(await engine.scheduler.tick(at('2026-01-01T02:15:00Z'))).toMatchObject([{ missed: 0 }]);
    });

    it('runs now by hand, leaving the next due time as it was', async () => {
      const schedule = await engine.schedules.create(A, {
        name: 'often',
        cron: '*/15 * * * *',
        target: { type: 'flow', id: flows.ok.id },
        environment: 'staging',
      });
      const { schedule: after, run } = await engine.schedules.runNow(A, schedule.id);
      expect(run).toMatchObject({ status: 'fired', scheduleId: schedule.id });
      expect(after.nextDueAt).toBe(schedule.nextDueAt);
      expect(after.lastRun).toMatchObject({ manual: true, executionId: run.runId });
      const record = await opened.store.executions.get(A, run.runId!);
      expect(record?.trigger).toMatchObject({ type: 'schedule', scheduleId: schedule.id, manual: true });
    });
  });
});

describe('schedules with several processes on one store', () => {
  it('fires each due run exactly once, whichever process claims it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-schedules-'));
    dirs.push(dir);
    const path = join(dir, 'svc.db');
    const processes = [await openEngine(path), await openEngine(path), await openEngine(path)];
    try {
      const [first] = processes;
      const flows = await seed(first!.engine);
      const ids: string[] = [];
      for (let index = 0; index < 6; index += 1) {
        const schedule = await first!.engine.schedules.create(A, {
          name: `every-minute-${index}`,
          cron: '* * * * *',
          target: { type: 'flow', id: flows.ok.id },
          environment: 'staging',
          overlap: 'allow',
        });
        ids.push(schedule.id);
      }
      const executions: string[] = [];
      for (const minute of [1, 2, 3]) {
        const now = at(`2026-01-01T00:0${minute}:00Z`);
        const runs = (await Promise.all(processes.map((each) => each.engine.scheduler.tick(now)))).flat();
        expect(runs.map((run) => run.scheduleId).sort()).toEqual([...ids].sort());
        executions.push(...runs.map((run) => run.runId!));
      }
      expect(new Set(executions).size).toBe(18);
      await Promise.all(processes.map((each) => each.engine.drain()));
      const stored = (await first!.store.executions.list(A, { limit: 200 })).items;
      expect(stored).toHaveLength(18);
      for (const id of ids) {
        const triggers = stored.filter((execution) => execution.trigger.scheduleId === id);
        expect(triggers.map((execution) => execution.trigger.dueAt).sort()).toEqual([
          '2026-01-01T00:01:00.000Z',
          '2026-01-01T00:02:00.000Z',
          '2026-01-01T00:03:00.000Z',
        ]);
      }
    } finally {
      for (const each of processes) await each.close();
    }
  });
});

async function waitUntil(condition: () => boolean, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
