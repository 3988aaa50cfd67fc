import { systemClock, type Store } from '@svc/engine';
import { openSqliteStore } from '@svc/engine/sqlite';
import { createClient, startGatewayServer } from '@svc/gateway';
import { createRemoteApi, type SvcApi } from '@svc/mcp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, openMemoryEngine, orderFlow, structured, textOf, type Connected } from '../../mcp/test/helpers.js';

/** The schedule tools over the engine in this process, and over the real REST gateway. */
const modes: [string, () => Promise<{ api: SvcApi; reader?: SvcApi; close(): Promise<void> }>][] = [
  [
    'local',
    async () => {
      const local = await openMemoryEngine();
      return { api: local.api, close: () => local.close() };
    },
  ],
  [
    'remote',
    async () => {
      const store: Store = openSqliteStore({ path: ':memory:' });
      const server = await startGatewayServer({ store, port: 0, host: '127.0.0.1' });
      const tenantId = server.bootstrapped!.tenantId;
      const { clientSecret } = await createClient(store, systemClock, {
        tenantId,
        name: 'svc-mcp',
        // Schedules that name a stored environment start runs with it: `executions:run` too.
        scopes: ['flows:read', 'flows:write', 'executions:run', 'schedules:read', 'schedules:write'],
      });
      const { clientSecret: readOnly } = await createClient(store, systemClock, {
        tenantId,
        name: 'reader',
        scopes: ['schedules:read'],
      });
      return {
        api: createRemoteApi({ baseUrl: server.url, apiKey: clientSecret }),
        reader: createRemoteApi({ baseUrl: server.url, apiKey: readOnly }),
        async close() {
          await server.close();
          await store.close();
        },
      };
    },
  ],
];

type Schedule = { id: string; name: string; enabled: boolean; cron: string; nextDueTimes: string[] };

describe.each(modes)('the schedule tools (%s)', (_mode, open) => {
  let mcp: Connected;
  let reader: Connected | undefined;
  let closeApi: () => Promise<void>;
  let flowId: string;

  beforeAll(async () => {
    const opened = await open();
    closeApi = opened.close;
    mcp = await connect(opened.api);
    if (opened.reader) reader = await connect(opened.reader);
    const created = await mcp.call('svc_create_flow', orderFlow('orders') as unknown as Record<string, unknown>);
    expect(created.isError, textOf(created)).toBeFalsy();
    flowId = structured<{ flow: { id: string } }>(created).flow.id;
  });
  afterAll(async () => {
    await reader?.close();
    await mcp.close();
    await closeApi();
  });

  it('creates a schedule of a flow by name and answers its next due times', async () => {
    const created = await mcp.call('svc_create_schedule', {
      name: 'weekday-orders',
      cron: '30 8 * * 1-5',
      target: { type: 'flow', id: 'orders' },
    });
    expect(created.isError, textOf(created)).toBeFalsy();
    const schedule = structured<{ schedule: Schedule & { target: unknown } }>(created).schedule;
    expect(schedule).toMatchObject({ name: 'weekday-orders', target: { type: 'flow', id: flowId }, enabled: true });
    expect(schedule.nextDueTimes).toHaveLength(3);
    for (const time of schedule.nextDueTimes) {
      expect(time).toMatch(/T08:30:00\.000Z$/);
      expect([1, 2, 3, 4, 5]).toContain(new Date(time).getUTCDay());
    }
    expect(textOf(created)).toContain('Created schedule weekday-orders');
  });

  it('answers a bad cron, an unknown target and an unknown environment with VALIDATION_ERROR and their paths', async () => {
    const badCron = await mcp.call('svc_create_schedule', {
      name: 'bad',
      cron: '61 * * * *',
      target: { type: 'flow', id: flowId },
    });
    expect(badCron.isError).toBe(true);
    expect(structured(badCron)).toMatchObject({
      error: {
        code: 'VALIDATION_ERROR',
        problems: [{ path: 'cron', message: '"61 * * * *": minute 61 is out of range (0-59)' }],
      },
    });
    const unknown = await mcp.call('svc_create_schedule', {
      name: 'bad',
      cron: '*/15 * * * *',
      target: { type: 'suite', id: 'missing-suite' },
      environment: 'nowhere',
    });
    expect(structured(unknown)).toMatchObject({
      error: {
        code: 'VALIDATION_ERROR',
        problems: [
          { path: 'target.id', code: 'SUITE_NOT_FOUND' },
          { path: 'environment', code: 'ENVIRONMENT_NOT_FOUND' },
        ],
      },
    });
    const typo = await mcp.call('svc_create_schedule', { name: 'bad', crom: '* * * * *' });
    expect(typo.isError).toBe(true);
    expect(textOf(typo)).toMatch(/did you mean cron\?/);
  });

  it('updates some fields and keeps the others; pausing hides it from the default list', async () => {
    const updated = await mcp.call('svc_update_schedule', { scheduleId: 'weekday-orders', cron: '*/15 * * * *' });
    expect(updated.isError, textOf(updated)).toBeFalsy();
    expect(structured<{ schedule: Schedule }>(updated).schedule).toMatchObject({
      name: 'weekday-orders',
      cron: '*/15 * * * *',
      target: { type: 'flow', id: flowId },
    });
    const bad = await mcp.call('svc_update_schedule', { scheduleId: 'weekday-orders', timezone: 'Moon/Base' });
    expect(structured(bad)).toMatchObject({ error: { code: 'VALIDATION_ERROR', problems: [{ path: 'timezone' }] } });

    const listed = await mcp.call('svc_list_schedules');
    expect(structured<{ schedules: Schedule[] }>(listed).schedules.map((one) => one.name)).toEqual(['weekday-orders']);
    expect(textOf(listed)).toMatch(/NEXT DUE/);
    expect(textOf(listed)).toMatch(/\d{2}:(00|15|30|45)Z, .*:(00|15|30|45)Z, .*:(00|15|30|45)Z/);

    const paused = await mcp.call('svc_update_schedule', { scheduleId: 'weekday-orders', enabled: false });
    expect(structured<{ schedule: Schedule }>(paused).schedule.enabled).toBe(false);
    expect(structured<{ schedules: Schedule[] }>(await mcp.call('svc_list_schedules')).schedules).toEqual([]);
    expect(
      structured<{ schedules: Schedule[] }>(await mcp.call('svc_list_schedules', { all: true })).schedules,
    ).toHaveLength(1);
  });

  it('refuses a change to a client that may only read schedules', async () => {
    if (reader === undefined) return;
    expect(structured(await reader.call('svc_list_schedules', { all: true }))).toMatchObject({
      schedules: [{ name: 'weekday-orders' }],
    });
    expect(
      structured(await reader.call('svc_update_schedule', { scheduleId: 'weekday-orders', enabled: true })),
    ).toMatchObject({ error: { code: 'INSUFFICIENT_SCOPE' } });
  });

  it('deletes a schedule; a second delete is SCHEDULE_NOT_FOUND', async () => {
    const deleted = await mcp.call('svc_delete_schedule', { scheduleId: 'weekday-orders' });
    expect(structured(deleted)).toMatchObject({ name: 'weekday-orders', deleted: true });
    expect(structured(await mcp.call('svc_delete_schedule', { scheduleId: 'weekday-orders' }))).toMatchObject({
      error: { code: 'SCHEDULE_NOT_FOUND' },
    });
  });
});
