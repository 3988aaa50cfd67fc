import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { executionFixture, stepFixture } from '../contract.js';
import { bindWrite, coalesceWrites, createExecutionWriteApplier, type ExecutionWrite } from './execution-writes.js';
import type { ExecutionPatch } from '../types.js';
import { applyMigrations } from './migrations.js';

const TENANT = 'acme';

function database(): Database.Database {
  const sqlite = new Database(':memory:');
  sqlite.pragma('foreign_keys = ON');
  applyMigrations(sqlite);
  return sqlite;
}

function tables(sqlite: Database.Database): unknown {
  return {
    executions: sqlite.prepare('SELECT * FROM executions ORDER BY tenant_id, id').all(),
    steps: sqlite.prepare('SELECT * FROM steps ORDER BY tenant_id, execution_id, seq').all(),
  };
}

const create = (id: string, tenantId = TENANT): ExecutionWrite => ({
  kind: 'create',
  record: executionFixture({ tenantId, id, status: 'Running', startedAt: 100, leaseOwner: 'host:1', leaseExpiresAt: 9_000 }),
});
const step = (executionId: string, seq: number, patch: ExecutionPatch = {}): ExecutionWrite => ({
  kind: 'step',
  step: stepFixture({ id: `${executionId}:${seq}`, tenantId: TENANT, executionId, seq }),
  patch,
  updatedAt: 100 + seq,
});
const finish = (id: string, tenantId = TENANT): ExecutionWrite => ({
  kind: 'update',
  tenantId,
  id,
  patch: { status: 'Failed', error: { code: 'HTTP_ERROR_STATUS', message: 'GET /x answered 500' }, outputs: { total: 3 }, endedAt: 200, durationMs: 100, leaseOwner: null, leaseExpiresAt: null, nodesExecuted: 2 },
  updatedAt: 200,
});

describe('coalesced execution writes', () => {
  it('leave the tables as the same writes applied one by one do, in fewer statements', () => {
    // `before` exists ahead of the batch; `e1` and `e2` start in it, `e1` with a waiting step.
    const before = create('before');
    const batch: ExecutionWrite[] = [
      create('e1'),
      step('e1', 1),
      step('e1', 2, { status: 'Waiting', wakeAt: 150 }),
      create('e2'),
      step('before', 1, { status: 'Running', wakeAt: null }),
      finish('e1'),
      step('e2', 1),
      finish('before'),
      finish('e2'),
    ];
    const oneByOne = database();
    const coalesced = database();
    for (const sqlite of [oneByOne, coalesced]) createExecutionWriteApplier(sqlite).apply(before);

    const applier = createExecutionWriteApplier(oneByOne);
    for (const write of batch) applier.apply(write);
    const writes = coalesceWrites(batch.map(bindWrite));
    const other = createExecutionWriteApplier(coalesced);
    coalesced.transaction(() => {
      for (const { write } of writes) other.applyBound(write);
    })();

    expect(tables(coalesced)).toEqual(tables(oneByOne));
    // The two updates of runs created in the batch went into their creates; every write counted.
    expect(writes).toHaveLength(batch.length - 2);
    expect(writes.reduce((sum, { writes: made }) => sum + made, 0)).toBe(batch.length);
    expect(writes.filter(({ write }) => write.kind === 'update')).toHaveLength(1);
  });

  it('leaves alone an update of the same id in another tenant, and an id created twice', () => {
    const batch = [create('e1'), finish('e1', 'globex'), create('e2'), create('e2'), finish('e2')].map(bindWrite);
    expect(coalesceWrites(batch).map(({ write }) => write.kind)).toEqual(['create', 'update', 'create', 'create', 'update']);
  });
});
