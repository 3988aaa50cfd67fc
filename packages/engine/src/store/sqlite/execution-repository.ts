import { and, asc, desc, eq, inArray, isNotNull, isNull, lte, ne, or, sql, type SQL } from 'drizzle-orm';
import { afterCursor, pageSize, toPage } from '../paging.js';
import {
  EXECUTION_STATUSES,
  TERMINAL_STATUSES,
  type ClaimOptions,
  type ExecutionRecord,
  type ExecutionRepository,
  type ExecutionStatus,
  type ListExecutionsQuery,
} from '../types.js';
import type { SqliteContext } from './context.js';
import { toExecutionRecord, toStepRecord } from './execution-rows.js';
import { createExecutionWriteApplier, type ExecutionWrite } from './execution-writes.js';
import { createGroupCommitWriter } from './group-commit-writer.js';
import { executions, steps, type ExecutionRow } from './schema.js';
import { selectList, tableName } from './table-sql.js';

const ACTIVE_STATUSES: ExecutionStatus[] = EXECUTION_STATUSES.filter((status) => !TERMINAL_STATUSES.has(status));

export interface ExecutionRepositoryHandle {
  repository: ExecutionRepository;
  /** Commits the writes still waiting for their group. */
  close(): void;
}

/*
 * Writes go through the group-commit writer; `get` uses a statement prepared once; list and
 * worker queries go through drizzle. Every read first commits the writes this store has queued,
 * so it sees them.
 */
export function createExecutionRepository({ sqlite, db, clock, cipher }: SqliteContext): ExecutionRepositoryHandle {
  const toRecord = (row: ExecutionRow) => toExecutionRecord(row, cipher);
  const selectExecution = sqlite.prepare<[string, string], ExecutionRow>(
    `SELECT ${selectList(executions)} FROM ${tableName(executions)} WHERE tenant_id = ? AND id = ?`,
  );
  const writer = createGroupCommitWriter(sqlite, createExecutionWriteApplier(sqlite, cipher));
  const write = (change: ExecutionWrite): Promise<void> => writer.write(change);
  const flushAll = (): void => writer.flush();

  const selectSteps = db
    .select()
    .from(steps)
    .where(and(eq(steps.tenantId, sql.placeholder('tenantId')), eq(steps.executionId, sql.placeholder('executionId'))))
    .orderBy(asc(steps.seq), asc(steps.id))
    .prepare();

  const selectClaimable = db
    .select()
    .from(executions)
    .where(
      and(
        inArray(executions.status, ACTIVE_STATUSES),
        or(
          isNull(executions.leaseOwner),
          lte(executions.leaseExpiresAt, sql.placeholder('now')),
          sql`${executions.leaseOwner} IN (SELECT value FROM json_each(${sql.placeholder('takeOverFrom')}))`,
        ),
        or(
          ne(executions.status, 'Waiting'),
          isNull(executions.wakeAt),
          lte(executions.wakeAt, sql.placeholder('dueBy')),
        ),
      ),
    )
    // Oldest ready work first: a due wake time is when a waiting run became ready again.
    .orderBy(
      sql`coalesce(${executions.wakeAt}, ${executions.createdAt})`,
      asc(executions.createdAt),
      asc(executions.id),
    )
    .limit(sql.placeholder('limit'))
    .prepare();
  const setLease = sqlite.prepare<[string, number, number, string, string]>(
    'UPDATE executions SET lease_owner = ?, lease_expires_at = ?, updated_at = ? WHERE tenant_id = ? AND id = ?',
  );
  const claimTransaction = sqlite.transaction((options: ClaimOptions): ExecutionRecord[] => {
    const rows = selectClaimable.all({
      now: options.now,
      takeOverFrom: JSON.stringify(options.takeOverFrom ?? []),
      dueBy: options.dueBy ?? options.now,
      limit: options.limit,
    });
    const leaseExpiresAt = options.now + options.leaseMs;
    const updatedAt = clock.now();
    return rows.map((row) => {
      setLease.run(options.owner, leaseExpiresAt, updatedAt, row.tenantId, row.id);
      return { ...toRecord(row), leaseOwner: options.owner, leaseExpiresAt, updatedAt };
    });
  });

  // Renewal is a heartbeat, not a change of the run, so it leaves `updatedAt` alone; and a lease
  // left on a finished run means nothing, so those rows are not rewritten every few seconds.
  const renew = db
    .update(executions)
    .set({ leaseExpiresAt: sql`${sql.placeholder('leaseExpiresAt')}` })
    .where(and(eq(executions.leaseOwner, sql.placeholder('owner')), inArray(executions.status, ACTIVE_STATUSES)))
    .prepare();
  const selectLeaseOwners = db
    .selectDistinct({ owner: executions.leaseOwner })
    .from(executions)
    .where(and(isNotNull(executions.leaseOwner), inArray(executions.status, ACTIVE_STATUSES)))
    .orderBy(asc(executions.leaseOwner))
    .prepare();

  const repository: ExecutionRepository = {
    create(record) {
      return write({ kind: 'create', record });
    },

    async get(tenantId, id) {
      flushAll();
      const row = selectExecution.get(tenantId, id);
      return row === undefined ? undefined : toRecord(row);
    },

    async list(tenantId, query: ListExecutionsQuery = {}) {
      flushAll();
      const size = pageSize(query.limit);
      const conditions: (SQL | undefined)[] = [eq(executions.tenantId, tenantId)];
      if (query.flowId !== undefined) conditions.push(eq(executions.flowId, query.flowId));
      if (query.status !== undefined) conditions.push(eq(executions.status, query.status));
      conditions.push(
        afterCursor(query.cursor, 'desc', (after) => [
          [executions.createdAt, after.at],
          [executions.id, after.id],
        ]),
      );
      const rows = db
        .select()
        .from(executions)
        .where(and(...conditions))
        .orderBy(desc(executions.createdAt), desc(executions.id))
        .limit(size + 1)
        .all();
      return toPage(rows, size, toRecord, (row) => ({ at: row.createdAt, id: row.id }));
    },

    update(tenantId, id, patch) {
      return write({ kind: 'update', tenantId, id, patch, updatedAt: clock.now() });
    },

    commitStep(step, patch) {
      return write({ kind: 'step', step, patch, updatedAt: clock.now() });
    },

    async listSteps(tenantId, executionId) {
      flushAll();
      return selectSteps.all({ tenantId, executionId }).map(toStepRecord);
    },

    async claim(options) {
      const limit = Math.floor(options.limit);
      if (!(limit >= 1)) return [];
      flushAll();
      // IMMEDIATE takes the write lock before the candidates are read, so another process can
      // neither claim the same rows in between nor make this transaction fail on commit.
      return claimTransaction.immediate({ ...options, limit });
    },

    async renewLeases(owner, leaseExpiresAt) {
      flushAll();
      renew.run({ owner, leaseExpiresAt });
    },

    async listLeaseOwners() {
      flushAll();
      return selectLeaseOwners.all().flatMap((row) => (row.owner === null ? [] : [row.owner]));
    },
  };
  return {
    repository,
    close: () => writer.close(),
  };
}
