import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { getTableConfig } from 'drizzle-orm/sqlite-core';
import { drizzle } from 'drizzle-orm/better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { createManualClock, type ExecutionRecord, type Logger, type StepRecord, type Store } from '@svc/engine';
import { MIGRATIONS, applyMigrations } from '../src/store/sqlite/migrations.js';
import { RECEIPTS_PRUNED_PER_CLAIM } from '../src/store/sqlite/webhook-repository.js';
import { describeStoreContract } from './store-contract/contract.js';
import { executionFixture, stepFixture } from './store-contract/fixtures.js';
import {
  apiClients,
  executions,
  changeCounters,
  flowVersions,
  flows,
  openSqliteStore,
  signingKeys,
  catalogSpecs,
  catalogEndpoints,
  jobs,
  suites,
  environments,
  webhookTriggers,
  webhookDeliveries,
  webhookReceipts,
  schedules,
  alertChannels,
  healthChecks,
  alertDeliveries,
  steps,
  tenants,
  type ExecutionRow,
  type FlowRow,
  type FlowVersionRow,
  type StepRow,
} from '@svc/engine/sqlite';

const tempDirs: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'svc-store-'));
  tempDirs.push(dir);
  return dir;
}
const tempDbPath = (): string => join(tempDir(), 'svc.db');
afterAll(() => {
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
});

describeStoreContract('sqlite :memory:', { open: () => openSqliteStore({ path: ':memory:' }) });
for (const synchronous of ['normal', 'full'] as const) {
  let path = '';
  describeStoreContract(`sqlite file, synchronous=${synchronous}`, {
    open: () => openSqliteStore({ path: (path = tempDbPath()), synchronous }),
    openAnother: () => openSqliteStore({ path, synchronous }),
  });
}

const T0 = Date.parse('2026-01-01T00:00:00.000Z');

function execution(id: string, overrides: Partial<ExecutionRecord> = {}): ExecutionRecord {
  return executionFixture({
    id,
    tenantId: 'acme',
    flowName: 'orders',
    env: {},
    createdAt: T0,
    updatedAt: T0,
    ...overrides,
  });
}

function endpointStep(executionId: string, seq: number, response: unknown): StepRecord {
  return stepFixture({
    id: `${executionId}:${seq}`,
    executionId,
    tenantId: 'acme',
    seq,
    nodeName: 'GetOrders',
    startedAt: T0,
    endedAt: T0 + 3,
    latencyMs: 3,
    request: { method: 'GET', url: 'http://localhost:4010/orders', headers: { accept: 'application/json' } },
    response,
    output: { statusCode: 200 },
  });
}

const minimalFlow = {
  name: 'orders',
  description: '',
  folderId: null,
  variables: {},
  inputs: {},
  outputs: {},
  nodes: [],
  connections: [],
  flowData: { canvasGroups: [], annotations: [] },
};

describe('openSqliteStore', () => {
  it('keeps flows, executions and steps across close and reopen', async () => {
    const path = tempDbPath();
    const first = openSqliteStore({ path });
    const flow = await first.flows.create('acme', minimalFlow);
    await first.flows.update('acme', flow.id, { ...flow, description: 'v2' });
    await first.executions.create(execution('exe-1'));
    await first.executions.commitStep(endpointStep('exe-1', 1, { status: 200 }), { stepsExecuted: 1 });
    await first.close();

    const second = openSqliteStore({ path });
    expect(await second.flows.get('acme', flow.id)).toMatchObject({ version: 2, description: 'v2' });
    expect(await second.flows.getVersion('acme', flow.id, 1)).toEqual(flow);
    expect(await second.executions.get('acme', 'exe-1')).toMatchObject({ stepsExecuted: 1 });
    expect(await second.executions.listSteps('acme', 'exe-1')).toHaveLength(1);
    await second.close();
  });

  it("answers a flow's current version as another connection on the file changes it", async () => {
    const path = tempDbPath();
    const reader = openSqliteStore({ path });
    const writer = openSqliteStore({ path });
    try {
      expect(await reader.flows.currentVersion('acme', 'flw_later')).toBeUndefined();
      const flow = await writer.flows.create('acme', { ...minimalFlow, id: 'flw_later' });
      expect(await reader.flows.currentVersion('acme', flow.id)).toBe(1);
      await writer.flows.update('acme', flow.id, { ...flow, description: 'v2' });
      expect(await reader.flows.currentVersion('acme', flow.id)).toBe(2);
      // Its own writes too.
      await reader.flows.update('acme', flow.id, { ...flow, description: 'v3' });
      expect(await reader.flows.currentVersion('acme', flow.id)).toBe(3);
      // Commits that change no flow keep the answer; a change of the table by plain SQL is seen.
      await writer.executions.create(executionFixture({ tenantId: 'acme', id: 'exe-unrelated', flowId: flow.id }));
      await writer.executions.get('acme', 'exe-unrelated');
      expect(await reader.flows.currentVersion('acme', flow.id)).toBe(3);
      const raw = new Database(path);
      raw.prepare('UPDATE flows SET version = 7 WHERE tenant_id = ? AND id = ?').run('acme', flow.id);
      raw.close();
      expect(await reader.flows.currentVersion('acme', flow.id)).toBe(7);
      await writer.flows.delete('acme', flow.id);
      expect(await reader.flows.currentVersion('acme', flow.id)).toBeUndefined();
    } finally {
      await reader.close();
      await writer.close();
    }
  });

  it('lands writes still queued for the group commit when it closes', async () => {
    // Nothing else in close() waits, so it would otherwise shut the connection before the queued
    // group runs.
    const store = openSqliteStore({ path: ':memory:' });
    await store.executions.create(execution('exe-queued', { status: 'Running' }));
    // Not awaited: the step is queued for the next group when close() is called.
    const committed = store.executions.commitStep(endpointStep('exe-queued', 1, { status: 200 }), {});
    await store.close();
    await expect(committed).resolves.toBeUndefined();
  });

  it('rolls back only the failing write of a group commit; the writes around it land', async () => {
    const path = tempDbPath();
    const store = openSqliteStore({ path });
    try {
      await store.executions.create(execution('exe-taken', { status: 'Running' }));
      // Made in one turn, so they share one group: the duplicate create and the step of an
      // unknown execution fail, the writes before, between and after them do not.
      const results = await Promise.allSettled([
        store.executions.create(execution('exe-new', { status: 'Running' })),
        store.executions.commitStep(endpointStep('exe-new', 1, { status: 200 }), {}),
        store.executions.create(execution('exe-taken', { status: 'Running' })),
        store.executions.commitStep(endpointStep('exe-new', 2, { status: 201 }), {
          status: 'Waiting',
          wakeAt: T0 + 60_000,
        }),
        store.executions.commitStep(endpointStep('exe-missing', 1, { status: 200 }), {}),
        store.executions.update('acme', 'exe-taken', { status: 'Completed', endedAt: T0 + 5 }),
      ]);
      expect(results.map((result) => result.status)).toEqual([
        'fulfilled',
        'fulfilled',
        'rejected',
        'fulfilled',
        'rejected',
        'fulfilled',
      ]);
      expect((results[2] as PromiseRejectedResult).reason).toMatchObject({ code: 'CONFLICT' });
      expect((results[4] as PromiseRejectedResult).reason).toMatchObject({ code: 'EXECUTION_NOT_FOUND' });
      // What another connection reads from the file: every write that was acknowledged.
      const reader = openSqliteStore({ path });
      try {
        expect((await reader.executions.listSteps('acme', 'exe-new')).map((step) => step.seq)).toEqual([1, 2]);
        expect(await reader.executions.get('acme', 'exe-new')).toMatchObject({
          status: 'Waiting',
          wakeAt: T0 + 60_000,
        });
        expect(await reader.executions.get('acme', 'exe-taken')).toMatchObject({
          status: 'Completed',
          endedAt: T0 + 5,
        });
        expect(await reader.executions.listSteps('acme', 'exe-missing')).toEqual([]);
      } finally {
        await reader.close();
      }
    } finally {
      await store.close();
    }
  });

  it('keeps a step and its execution patch atomic when the write is alone in its turn', async () => {
    const path = tempDbPath();
    const store = openSqliteStore({ path });
    try {
      await store.executions.create(execution('exe-alone', { status: 'Running' }));
      // The patch applies, then the step's row breaks a NOT NULL column: both must roll back.
      const broken = { ...endpointStep('exe-alone', 1, { status: 200 }), nodeId: null as unknown as string };
      await expect(store.executions.commitStep(broken, { status: 'Completed', endedAt: T0 + 9 })).rejects.toThrow(
        /NOT NULL/,
      );
      // One-statement writes alone in their turn answer as in a group.
      await expect(store.executions.create(execution('exe-alone'))).rejects.toMatchObject({ code: 'CONFLICT' });
      await expect(
        store.executions.commitStep(endpointStep('exe-nowhere', 1, { status: 200 }), {}),
      ).rejects.toMatchObject({ code: 'EXECUTION_NOT_FOUND' });
      await store.executions.commitStep(endpointStep('exe-alone', 2, { status: 200 }), {});

      const reader = openSqliteStore({ path });
      try {
        expect(await reader.executions.get('acme', 'exe-alone')).toMatchObject({ status: 'Running', endedAt: null });
        expect((await reader.executions.listSteps('acme', 'exe-alone')).map((step) => step.seq)).toEqual([2]);
        expect(await reader.executions.listSteps('acme', 'exe-nowhere')).toEqual([]);
      } finally {
        await reader.close();
      }
    } finally {
      await store.close();
    }
  });

  it('warns through its logger of an execution log an earlier version left beside the file, and of nothing otherwise', async () => {
    const warnings: { message: string; fields?: Record<string, unknown> }[] = [];
    const logger: Logger = {
      debug() {},
      info() {},
      error() {},
      warn: (message, fields) => void warnings.push({ message, fields }),
    };
    const path = tempDbPath();
    await openSqliteStore({ path, logger }).close();
    expect(warnings).toEqual([]);

    mkdirSync(`${path}-execlog`);
    await openSqliteStore({ path, logger }).close();
    expect(warnings).toHaveLength(1);
    expect(warnings[0]!.message).toMatch(/execution log from an earlier version/);
    expect(warnings[0]!.fields).toMatchObject({ directory: `${path}-execlog` });
  });

  it('deletes expired webhook receipts a few at a time as later ones are claimed', async () => {
    const path = tempDbPath();
    const store = openSqliteStore({ path });
    const receipt = (key: string, expiresAt: number) => ({
      tenantId: 'acme',
      path: 'orders',
      key,
      executionId: `exe-${key}`,
      claimedAt: 1_000,
      expiresAt,
    });
    for (let index = 0; index < 20; index += 1) {
      await store.webhooks.claimReceipt(receipt(`old-${index}`, 2_000), { abandonedBefore: 0 });
    }
    await store.webhooks.claimReceipt({ ...receipt('live', 9_000), claimedAt: 2_000 }, { abandonedBefore: 0 });
    await store.close();
    const check = new Database(path, { readonly: true });
    const keys = check.prepare('SELECT replay_key FROM webhook_receipts ORDER BY replay_key').pluck().all();
    check.close();
    expect(keys).toHaveLength(20 - RECEIPTS_PRUNED_PER_CLAIM + 1);
    expect(keys).toContain('live');
  });

  it('drops the fold positions table an earlier version created', async () => {
    const path = tempDbPath();
    const raw = new Database(path);
    applyMigrations(
      raw,
      MIGRATIONS.filter((migration) => migration.id < '0008'),
    );
    expect(raw.prepare("SELECT name FROM sqlite_master WHERE name = 'execution_log_positions'").pluck().get()).toBe(
      'execution_log_positions',
    );
    raw.close();
    await openSqliteStore({ path }).close();
    const check = new Database(path, { readonly: true });
    expect(
      check.prepare("SELECT name FROM sqlite_master WHERE name = 'execution_log_positions'").pluck().get(),
    ).toBeUndefined();
    check.close();
  });

  it('creates the directory the database file goes in', async () => {
    const path = join(tempDir(), 'nested', 'deeper', 'svc.db');
    const store = openSqliteStore({ path });
    await store.close();
    expect(existsSync(path)).toBe(true);
  });

  it('puts a file database in WAL mode', async () => {
    const path = tempDbPath();
    const store = openSqliteStore({ path });
    const observer = new Database(path, { readonly: true });
    expect(observer.pragma('journal_mode', { simple: true })).toBe('wal');
    observer.close();
    await store.close();
  });

  it('applies each migration once, however often the file is opened', async () => {
    const path = tempDbPath();
    await openSqliteStore({ path }).close();
    const raw = new Database(path);
    const before = raw.prepare('SELECT id, applied_at FROM schema_migrations ORDER BY id').all();
    raw.close();
    await openSqliteStore({ path }).close();
    await openSqliteStore({ path }).close();

    const after = new Database(path);
    expect(after.prepare('SELECT id, applied_at FROM schema_migrations ORDER BY id').all()).toEqual(before);
    expect(before.map((row) => (row as { id: string }).id)).toEqual(MIGRATIONS.map((migration) => migration.id));
    expect(applyMigrations(after)).toEqual([]);
    after.close();
  });

  it('brings a file made before the auth tables up to date and keeps its flows', async () => {
    const path = tempDbPath();
    const raw = new Database(path);
    applyMigrations(
      raw,
      MIGRATIONS.filter((migration) => migration.id === '0001_initial'),
    );
    raw
      .prepare(
        `INSERT INTO flows (tenant_id, id, name, description, folder_id, version, document, node_count, created_at, updated_at, deleted_at)
         VALUES ('acme', 'flw_old', 'kept', '', NULL, 1, '{"id":"flw_old","name":"kept"}', 0, ?, ?, NULL)`,
      )
      .run(T0, T0);
    raw.close();

    const store = openSqliteStore({ path });
    expect((await store.flows.get('acme', 'flw_old'))?.name).toBe('kept');
    await store.tenants.create({ id: 'acme', name: 'Acme', createdAt: T0 });
    expect(await store.tenants.list()).toEqual([{ id: 'acme', name: 'Acme', createdAt: T0 }]);
    await store.close();
    const check = new Database(path, { readonly: true });
    expect(check.prepare('SELECT id FROM schema_migrations ORDER BY id').pluck().all()).toEqual(
      MIGRATIONS.map((migration) => migration.id),
    );
    check.close();
  });

  it('rolls a failing migration back whole', () => {
    const raw = new Database(':memory:');
    const broken = [
      ...MIGRATIONS,
      { id: '9999_broken', sql: 'CREATE TABLE half_done (id TEXT); SELECT * FROM no_such_table;' },
    ];
    expect(() => applyMigrations(raw, broken)).toThrow(/no_such_table/);
    const tables = raw.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").pluck().all();
    expect(tables).toEqual([]);
    raw.close();
  });

  it('stamps flow times with the clock it is given', async () => {
    const clock = createManualClock(T0);
    const store = openSqliteStore({ path: ':memory:', clock });
    const flow = await store.flows.create('acme', minimalFlow);
    clock.advance(60_000);
    const updated = await store.flows.update('acme', flow.id, flow);
    expect([flow.createdAt, updated.updatedAt]).toEqual(['2026-01-01T00:00:00.000Z', '2026-01-01T00:01:00.000Z']);
    await store.executions.create(execution('exe-1'));
    await store.executions.update('acme', 'exe-1', { status: 'Running' });
    expect((await store.executions.get('acme', 'exe-1'))?.updatedAt).toBe(T0 + 60_000);
    await store.close();
  });

  it('closes once and refuses work afterwards', async () => {
    const store = openSqliteStore({ path: ':memory:' });
    await store.close();
    await expect(store.close()).resolves.toBeUndefined();
    await expect(store.flows.get('acme', 'flw_x')).rejects.toThrow(/not open/);
  });

  it('leaves leases on finished executions alone when renewing', async () => {
    const store = openSqliteStore({ path: ':memory:' });
    await store.executions.create(execution('exe-done', { status: 'Completed', leaseOwner: 'w1', leaseExpiresAt: T0 }));
    await store.executions.create(execution('exe-busy', { status: 'Running', leaseOwner: 'w1', leaseExpiresAt: T0 }));
    await store.executions.renewLeases('w1', T0 + 60_000);
    expect((await store.executions.get('acme', 'exe-done'))?.leaseExpiresAt).toBe(T0);
    expect((await store.executions.get('acme', 'exe-busy'))?.leaseExpiresAt).toBe(T0 + 60_000);
    await store.close();
  });

  it('commits a step with a 1 KB response without paying an fsync per commit', async ({ annotate }) => {
    const store = openSqliteStore({ path: tempDbPath() });
    await store.executions.create(execution('exe-bench', { status: 'Running' }));
    const response = {
      status: 200,
      headers: { 'content-type': 'application/json' },
      body: {
        items: Array.from({ length: 16 }, (_, i) => ({ id: i, name: `item-${i}`, price: i * 3.5, tags: ['a', 'b'] })),
      },
    };
    expect(JSON.stringify(response).length).toBeGreaterThan(900);
    const warmup = 500;
    const measured = 3000;
    for (let seq = 1; seq <= warmup; seq += 1) {
      await store.executions.commitStep(endpointStep('exe-bench', seq, response), {
        stepsExecuted: seq,
        nodesExecuted: seq,
      });
    }
    const started = process.hrtime.bigint();
    for (let seq = warmup + 1; seq <= warmup + measured; seq += 1) {
      await store.executions.commitStep(endpointStep('exe-bench', seq, response), {
        stepsExecuted: seq,
        nodesExecuted: seq,
      });
    }
    const meanMicros = Number(process.hrtime.bigint() - started) / 1000 / measured;
    await annotate(`commitStep mean ${meanMicros.toFixed(1)} µs (file, WAL, synchronous=NORMAL)`);
    expect((await store.executions.get('acme', 'exe-bench'))?.stepsExecuted).toBe(warmup + measured);
    // A guard against an fsync per commit (milliseconds each), not a benchmark: the measured mean
    // is tens of microseconds on a quiet machine and well under this bound on a loaded one.
    expect(meanMicros).toBeLessThan(1000);
    await store.close();
  });
});

describe('claims by several connections on one file', () => {
  async function seed(path: string, count: number): Promise<string[]> {
    const store = openSqliteStore({ path });
    const ids: string[] = [];
    for (let i = 0; i < count; i += 1) {
      const record = execution(`exe-${i}`, {
        tenantId: i % 3 === 0 ? 'globex' : 'acme',
        createdAt: T0 + i,
        status: i % 4 === 0 ? 'Waiting' : 'Queued',
      });
      await store.executions.create(record);
      ids.push(`${record.tenantId}/${record.id}`);
    }
    await store.close();
    return ids;
  }

  function expectEachClaimedOnce(claims: string[], all: string[]): void {
    expect(new Set(claims).size).toBe(claims.length);
    expect([...claims].sort()).toEqual([...all].sort());
  }

  it('never hands the same execution to two stores taking turns', async () => {
    const path = tempDbPath();
    const all = await seed(path, 300);
    const stores: Store[] = [openSqliteStore({ path }), openSqliteStore({ path })];
    const claimsBy: string[][] = [[], []];
    let done = [false, false];
    for (let turn = 0; !done.every(Boolean); turn += 1) {
      const who = turn % 2;
      const got = await stores[who]!.executions.claim({
        owner: `w${who}`,
        now: T0 + 1000,
        leaseMs: 60_000,
        limit: 1 + (turn % 7),
      });
      done[who] = got.length === 0;
      if (got.length > 0) done = [false, false];
      claimsBy[who]!.push(...got.map((record) => `${record.tenantId}/${record.id}`));
    }
    expect(claimsBy[0]!.length).toBeGreaterThan(0);
    expect(claimsBy[1]!.length).toBeGreaterThan(0);
    expectEachClaimedOnce([...claimsBy[0]!, ...claimsBy[1]!], all);
    const owners = await stores[0]!.executions.listLeaseOwners();
    expect(owners.sort()).toEqual(['w0', 'w1']);
    for (const store of stores) await store.close();
  });

  it('never hands the same execution to two threads claiming at the same time', async () => {
    const path = tempDbPath();
    const all = await seed(path, 1200);
    const bundle = await bundleStoreForWorkers(tempDir());
    const workers = Array.from({ length: 4 }, (_, index) =>
      startClaimWorker({ bundle, path, owner: `thread-${index}`, now: T0 + 5000 }),
    );
    await Promise.all(workers.map((worker) => worker.ready));
    for (const worker of workers) worker.go();
    const claimsBy = await Promise.all(workers.map((worker) => worker.claims));

    for (const claims of claimsBy) expect(claims.length).toBeGreaterThan(0);
    expectEachClaimedOnce(claimsBy.flat(), all);
  });
});

/*
 * Worker threads cannot load TypeScript, so the store is bundled to one CommonJS file first; the
 * native driver stays outside the bundle and is loaded from where this package resolves it.
 */
async function bundleStoreForWorkers(dir: string): Promise<string> {
  const { build } = await import('esbuild');
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const outfile = join(dir, 'store.cjs');
  await build({
    entryPoints: [fileURLToPath(new URL('../src/store/sqlite/index.ts', import.meta.url))],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    outfile,
    logLevel: 'silent',
    plugins: [
      {
        name: 'external-native-driver',
        setup(plugin) {
          plugin.onResolve({ filter: /^better-sqlite3$/ }, () => ({ path: driver, external: true }));
        },
      },
    ],
  });
  return outfile;
}

const CLAIM_WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const { openSqliteStore } = require(workerData.bundle);
const store = openSqliteStore({ path: workerData.path });
parentPort.postMessage({ ready: true });
parentPort.once('message', async () => {
  const claims = [];
  for (let round = 0; ; round += 1) {
    const got = await store.executions.claim({
      owner: workerData.owner, now: workerData.now, leaseMs: 600000, limit: 1 + (round % 5),
    });
    if (got.length === 0) break;
    for (const record of got) claims.push(record.tenantId + '/' + record.id);
    // A worker does something with what it claimed; without a pause one thread would take the
    // write lock back at once and the others would sleep in the busy handler until all is gone.
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
  await store.close();
  parentPort.postMessage({ claims });
});
`;

function startClaimWorker(data: { bundle: string; path: string; owner: string; now: number }): {
  ready: Promise<void>;
  go: () => void;
  claims: Promise<string[]>;
} {
  const worker = new Worker(CLAIM_WORKER, { eval: true, workerData: data });
  let markReady: () => void = () => {};
  const ready = new Promise<void>((resolve) => {
    markReady = resolve;
  });
  const claims = new Promise<string[]>((resolve, reject) => {
    worker.on('error', reject);
    worker.on('message', (message: { ready?: boolean; claims?: string[] }) => {
      if (message.ready) markReady();
      if (message.claims) {
        resolve(message.claims);
        void worker.terminate();
      }
    });
  });
  return { ready, go: () => worker.postMessage('go'), claims };
}

describe('schema and migrations', () => {
  const tables = [
    flows,
    flowVersions,
    executions,
    steps,
    tenants,
    apiClients,
    signingKeys,
    catalogSpecs,
    catalogEndpoints,
    jobs,
    suites,
    environments,
    webhookTriggers,
    webhookDeliveries,
    webhookReceipts,
    schedules,
    changeCounters,
    alertChannels,
    healthChecks,
    alertDeliveries,
  ];

  function migrated(): Database.Database {
    const sqlite = new Database(':memory:');
    sqlite.pragma('foreign_keys = ON');
    applyMigrations(sqlite);
    return sqlite;
  }

  it('creates exactly the drizzle tables, columns, keys and indexes', () => {
    const sqlite = migrated();
    const created = sqlite.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").pluck().all();
    expect(created).toEqual([...tables.map((table) => getTableConfig(table).name), 'schema_migrations'].sort());

    for (const table of tables) {
      const config = getTableConfig(table);
      const columns = sqlite.prepare(`PRAGMA table_info(${config.name})`).all() as {
        name: string;
        type: string;
        notnull: number;
        pk: number;
      }[];
      expect(columns.map((c) => ({ name: c.name, type: c.type, notNull: c.notnull === 1 }))).toEqual(
        config.columns.map((c) => ({ name: c.name, type: c.getSQLType().toUpperCase(), notNull: c.notNull })),
      );
      const primaryKey = columns
        .filter((c) => c.pk > 0)
        .sort((x, y) => x.pk - y.pk)
        .map((c) => c.name);
      expect(primaryKey).toEqual(config.primaryKeys[0]?.columns.map((c) => c.name) ?? []);

      const indexes = (
        sqlite
          .prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = ? AND sql IS NOT NULL")
          .pluck()
          .all(config.name) as string[]
      )
        .map((name) => ({
          name,
          columns: (sqlite.prepare(`PRAGMA index_info(${name})`).all() as { name: string }[]).map((c) => c.name),
          unique: (
            sqlite.prepare(`SELECT sql FROM sqlite_master WHERE name = ?`).pluck().get(name) as string
          ).startsWith('CREATE UNIQUE'),
        }))
        .sort((x, y) => x.name.localeCompare(y.name));
      expect(indexes).toEqual(
        config.indexes
          .map((index) => ({
            name: index.config.name,
            columns: index.config.columns.map((c) => (c as { name: string }).name),
            unique: index.config.unique,
          }))
          .sort((x, y) => x.name.localeCompare(y.name)),
      );

      const foreignKeys = sqlite.prepare(`PRAGMA foreign_key_list(${config.name})`).all() as {
        table: string;
        from: string;
        to: string;
      }[];
      expect(foreignKeys.map((fk) => [fk.table, fk.from, fk.to])).toEqual(
        config.foreignKeys.flatMap((fk) => {
          const reference = fk.reference();
          return reference.columns.map((column, i) => [
            getTableConfig(reference.foreignTable).name,
            column.name,
            reference.foreignColumns[i]!.name,
          ]);
        }),
      );
    }
    sqlite.close();
  });

  it('reads back every column written through drizzle', () => {
    const sqlite = migrated();
    const db = drizzle({ client: sqlite });

    const flow: FlowRow = {
      tenantId: 'acme',
      id: 'flw_1',
      name: 'orders',
      description: 'all of them',
      folderId: 'fld_1',
      version: 2,
      document: '{"name":"orders"}',
      nodeCount: 3,
      createdAt: T0,
      updatedAt: T0 + 1,
      deletedAt: T0 + 2,
    };
    const version: FlowVersionRow = {
      tenantId: 'acme',
      flowId: 'flw_1',
      version: 2,
      document: '{"v":2}',
      createdAt: T0 + 1,
    };
    const run: ExecutionRow = {
      tenantId: 'acme',
      id: 'exe-1',
      flowId: 'flw_1',
      flowVersion: 2,
      flowName: 'orders',
      status: 'Waiting',
      trigger: '{"type":"api"}',
      env: '{"a":1}',
      secretKeys: '["a"]',
      inputs: '{"b":2}',
      parentExecutionId: 'exe-0',
      error: '{"code":"X","message":"y"}',
      createdAt: T0,
      startedAt: T0 + 1,
      endedAt: T0 + 2,
      durationMs: 1.5,
      nodesExecuted: 4,
      nodesSkipped: 5,
      stepsExecuted: 6,
      wakeAt: T0 + 7,
      leaseOwner: 'w1',
      leaseExpiresAt: T0 + 8,
      updatedAt: T0 + 9,
      outputs: '{"orderId":"ord_1"}',
    };
    const trace: StepRow = {
      tenantId: 'acme',
      id: 'exe-1:1',
      executionId: 'exe-1',
      seq: 1,
      nodeId: 'n1',
      nodeName: 'Check',
      nodeType: 'switch',
      scope: 'Loop[0]',
      attempt: 2,
      status: 'Skipped',
      startedAt: T0,
      endedAt: T0 + 1,
      latencyMs: 0.25,
      request: '{"r":1}',
      response: '{"s":2}',
      output: '{"o":3}',
      handles: '["case-0"]',
      error: '{"code":"E","message":"m"}',
      skipKind: 'failure',
      branch: 'big',
      wakeAt: T0 + 2,
      state: '{"k":true}',
    };
    const sparseRun: ExecutionRow = {
      ...run,
      id: 'exe-2',
      parentExecutionId: null,
      error: null,
      startedAt: null,
      endedAt: null,
      durationMs: null,
      wakeAt: null,
      leaseOwner: null,
      leaseExpiresAt: null,
    };
    const sparseTrace: StepRow = {
      ...trace,
      id: 'exe-1:2',
      seq: 2,
      endedAt: null,
      latencyMs: null,
      request: null,
      response: null,
      output: null,
      error: null,
      skipKind: null,
      branch: null,
      wakeAt: null,
      state: null,
    };

    db.insert(flows).values(flow).run();
    db.insert(flowVersions).values(version).run();
    db.insert(executions).values([run, sparseRun]).run();
    db.insert(steps).values([trace, sparseTrace]).run();

    expect(db.select().from(flows).all()).toEqual([flow]);
    expect(db.select().from(flowVersions).all()).toEqual([version]);
    expect(db.select().from(executions).orderBy(executions.id).all()).toEqual([run, sparseRun]);
    expect(db.select().from(steps).orderBy(steps.seq).all()).toEqual([trace, sparseTrace]);
    sqlite.close();
  });

  it('refuses a step of an execution that does not exist', () => {
    const sqlite = migrated();
    const orphan = sqlite.prepare(
      `INSERT INTO steps (tenant_id, id, execution_id, seq, node_id, node_name, node_type, scope, attempt, status, started_at, handles)
       VALUES ('acme', 'x:1', 'x', 1, 'n1', 'N', 'endpoint', '', 1, 'Completed', 0, '[]')`,
    );
    expect(() => orphan.run()).toThrow(/FOREIGN KEY/);
    sqlite.close();
  });
});

describe('catalog import atomicity', () => {
  it('rolls back a replacement that fails halfway: the previous endpoints and spec stay', async () => {
    const store = openSqliteStore({ path: ':memory:' });
    const endpoint = (endpointId: string) => ({
      endpointId,
      method: 'GET',
      path: `/${endpointId}`,
      summary: '',
      tags: [],
      endpoint: { id: endpointId },
    });
    const spec = {
      id: 'shop',
      name: 'Shop',
      title: 'Shop',
      version: '1',
      sourceVersion: '3.0',
      document: {},
      importedAt: 1,
    };
    await store.catalog.importSpec('t', { ...spec, endpoints: [endpoint('a'), endpoint('b')] });
    // The second row breaks a NOT NULL column after the old rows were deleted and the first new one written.
    const broken = { ...endpoint('c'), method: null as unknown as string };
    await expect(
      store.catalog.importSpec('t', { ...spec, version: '2', endpoints: [endpoint('x'), broken] }),
    ).rejects.toThrow(/NOT NULL/);
    expect((await store.catalog.getSpec('t', 'shop'))?.version).toBe('1');
    expect((await store.catalog.listEndpoints('t')).items.map((item) => item.endpointId)).toEqual(['a', 'b']);
    await store.close();
  });
});
