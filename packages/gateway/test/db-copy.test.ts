import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine, parseSecretKey, type Store } from '@svc/engine';
import { openSqliteStore } from '@svc/engine/sqlite';
import { openPostgresStore } from '@svc/engine/postgres';
import { dropSchemas, freshSchemaName, probePostgres } from '../../engine/test/helpers/postgres-test-db.js';
import { spawnSvc } from './cli.js';

const probe = await probePostgres();
if (probe.skipReason !== undefined) console.warn(`db-copy.test.ts: skipped: ${probe.skipReason}`);

const T = 'default';

describe.skipIf(probe.url === undefined)('svc db copy --from <sqlite> --to <postgres>', () => {
  const schema = freshSchemaName('copy');
  let dir: string;
  let sqlitePath: string;
  let url: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'svc-copy-'));
    sqlitePath = join(dir, 'svc.db');
    const admin = new pg.Client({ connectionString: probe.url });
    await admin.connect();
    await admin.query(`CREATE SCHEMA "${schema}"`);
    await admin.end();
    const target = new URL(probe.url!);
    target.searchParams.set('options', `-c search_path=${schema}`);
    url = target.toString();
  });
  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    await dropSchemas(probe.url!, [schema]);
  });

  /** What a SQLite store of some use holds: every kind of row the copy carries. */
  async function fill(store: Store) {
    await store.tenants.create({ id: T, name: 'Default', createdAt: 1 });
    await store.clients.create({
      clientId: 'cli_1',
      tenantId: T,
      name: 'ci',
      scopes: ['flows:read'],
      trial: true,
      expiresAt: 99,
      secretHash: 'f'.repeat(64),
      previousSecretHash: null,
      previousSecretExpiresAt: null,
      revokedAt: null,
      createdAt: 2,
    });
    const engine = await createEngine({ store });
    const flow = await engine.flows.create(T, {
      name: 'greet',
      nodes: [
        { id: 'n1', name: 'Set', type: 'variables', position: { x: 0, y: 0 }, config: { set: { who: 'world' } } },
      ],
      connections: [],
    });
    await store.flows.update(T, flow.id, { ...flow, description: 'second version' });
    const run = await engine.runFlow({ tenantId: T, flowId: flow.id, env: { token: 's3cret' }, waitMs: 10_000 });
    await engine.stop();
    const environment = await store.environments.create(T, {
      name: 'staging',
      description: '',
      variables: { baseUrl: 'http://staging' },
      secrets: { apiKey: 'k-123' },
    });
    await store.catalog.importSpec(T, {
      id: 'shop',
      name: 'shop',
      title: 'Shop',
      version: '1',
      sourceVersion: '3.0',
      document: { openapi: '3.0.0' },
      importedAt: 3,
      endpoints: [
        { endpointId: 'listOrders', method: 'GET', path: '/orders', summary: '', tags: ['orders'], endpoint: {} },
      ],
    });
    const schedule = await store.schedules.create(
      T,
      {
        name: 'nightly',
        description: '',
        target: { type: 'flow', id: flow.id },
        cron: '0 2 * * *',
        timezone: 'UTC',
        environment: 'staging',
        enabled: true,
        overlap: 'skip',
      },
      { nextDueAt: 4 },
    );
    return { flowId: flow.id, executionId: run.executionId, environmentId: environment.id, scheduleId: schedule.id };
  }

  it('copies every kind of row, secrets still sealed under the SQLite key, and refuses a second copy', async () => {
    const source = openSqliteStore({ path: sqlitePath });
    const made = await fill(source);
    const expected = {
      versions: [await source.flows.getVersion(T, made.flowId, 1), await source.flows.getVersion(T, made.flowId, 2)],
      execution: await source.executions.get(T, made.executionId),
      steps: await source.executions.listSteps(T, made.executionId),
      schedule: await source.schedules.get(T, made.scheduleId),
    };
    await source.close();

    const copied = await spawnSvc(['db', 'copy', '--from', sqlitePath, '--to', url], {});
    const result = await copied.done;
    expect(result.stderr).toContain('svc: copied 2 flow_versions');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`SVC_SECRET_KEY set to its content`);

    const key = parseSecretKey(readFileSync(`${sqlitePath}.key`, 'utf8'))!;
    const target = await openPostgresStore({ url: probe.url!, schema, secretKey: key });
    try {
      expect(await target.flows.getVersion(T, made.flowId, 1)).toEqual(expected.versions[0]);
      expect(await target.flows.get(T, made.flowId)).toEqual(expected.versions[1]);
      const execution = await target.executions.get(T, made.executionId);
      expect(execution).toEqual(expected.execution);
      expect(execution?.env.token).toBe('s3cret');
      expect(await target.executions.listSteps(T, made.executionId)).toEqual(expected.steps);
      expect((await target.environments.resolveByName(T, 'staging'))?.values).toEqual({
        baseUrl: 'http://staging',
        apiKey: 'k-123',
      });
      expect((await target.clients.findBySecretHash('f'.repeat(64)))?.clientId).toBe('cli_1');
      expect((await target.clients.get(T, 'cli_1'))?.trial).toBe(true);
      expect((await target.catalog.getEndpoint(T, 'listOrders'))?.path).toBe('/orders');
      expect(await target.schedules.get(T, made.scheduleId)).toEqual(expected.schedule);
    } finally {
      await target.close();
    }

    const again = await (await spawnSvc(['db', 'copy', '--from', sqlitePath, '--to', url], {})).done;
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('svc: CONFLICT: the PostgreSQL database already holds svc data');
  });

  it('answers bad input with exit code 2 and a clear message', async () => {
    const notPostgres = await spawnSvc(['db', 'copy', '--from', sqlitePath, '--to', './other.db'], {}).done;
    expect(notPostgres.code).toBe(2);
    expect(notPostgres.stderr).toContain('--to must be a postgres:// URL');
    const missing = await spawnSvc(['db', 'copy', '--from', join(dir, 'none.db'), '--to', url], {}).done;
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('no SQLite store at');
  });
});
