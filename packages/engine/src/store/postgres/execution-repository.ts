import { and, desc, eq, type SQL } from 'drizzle-orm';
import { afterCursor, pageSize, toPage } from '../paging.js';
import {
  EXECUTION_STATUSES,
  TERMINAL_STATUSES,
  type ExecutionRecord,
  type ExecutionRepository,
  type ListExecutionsQuery,
} from '../types.js';
import { toExecutionRecord, toStepRecord } from '../sqlite/execution-rows.js';
import { createBatchWriter } from './batch-writer.js';
import type { PostgresContext } from './context.js';
import { executions, steps, type ExecutionRow, type StepRow } from './schema.js';
import { qualifiedSelectList, selectList, tableName } from './table-sql.js';

const ACTIVE_SQL = `(${EXECUTION_STATUSES.filter((status) => !TERMINAL_STATUSES.has(status))
  .map((status) => `'${status}'`)
  .join(', ')})`;

export interface ExecutionRepositoryHandle {
  repository: ExecutionRepository;
  /** Settles once the writes made so far are committed. */
  flush(): Promise<void>;
}

/*
 * Writes go through the batch writer; reads first wait for the writes this store has made, so
 * they see them. A claim is one UPDATE over the rows a `FOR UPDATE SKIP LOCKED` subquery picked:
 * its own short transaction, in which several processes claiming at once each take different
 * executions and none waits for another's locks.
 */
export function createExecutionRepository({
  pool,
  db,
  clock,
  cipher,
  workChannel,
}: PostgresContext): ExecutionRepositoryHandle {
  const table = tableName(executions);
  const toRecord = (row: ExecutionRow) => toExecutionRecord(row, cipher);
  const writer = createBatchWriter({ pool, cipher, workChannel });
  const selectExecution = `SELECT ${selectList(executions)} FROM ${table} WHERE tenant_id = $1 AND id = $2`;
  const selectSteps = `SELECT ${selectList(steps)} FROM ${tableName(steps)} WHERE tenant_id = $1 AND execution_id = $2 ORDER BY seq, id`;
  const claimStatement = `
    UPDATE ${table} AS e SET lease_owner = $1, lease_expires_at = $2, updated_at = $3
      FROM (SELECT tenant_id, id, coalesce(wake_at, created_at) AS ready_at, created_at
              FROM ${table}
             WHERE status IN ${ACTIVE_SQL}
               AND (lease_owner IS NULL OR lease_expires_at <= $4 OR lease_owner = ANY($5::text[]))
               AND (status <> 'Waiting' OR wake_at IS NULL OR wake_at <= $6)
             ORDER BY coalesce(wake_at, created_at), created_at, id
             LIMIT $7
             FOR UPDATE SKIP LOCKED) AS ready
     WHERE e.tenant_id = ready.tenant_id AND e.id = ready.id
 RETURNING ${qualifiedSelectList(executions, 'e')}, ready.ready_at AS "readyAt"`;

  const repository: ExecutionRepository = {
    create(record) {
      return writer.write({ kind: 'create', record });
    },

    async get(tenantId, id) {
      await writer.flush();
      const row = (await pool.query<ExecutionRow>(selectExecution, [tenantId, id])).rows[0];
      return row === undefined ? undefined : toRecord(row);
    },

    async list(tenantId, query: ListExecutionsQuery = {}) {
      await writer.flush();
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
      const rows = await db
        .select()
        .from(executions)
        .where(and(...conditions))
        .orderBy(desc(executions.createdAt), desc(executions.id))
        .limit(size + 1);
      return toPage(rows, size, toRecord, (row) => ({ at: row.createdAt, id: row.id }));
    },

    update(tenantId, id, patch) {
      return writer.write({ kind: 'update', tenantId, id, patch, updatedAt: clock.now() });
    },

    commitStep(step, patch) {
      return writer.write({ kind: 'step', step, patch, updatedAt: clock.now() });
    },

    async listSteps(tenantId, executionId) {
      await writer.flush();
      return (await pool.query<StepRow>(selectSteps, [tenantId, executionId])).rows.map(toStepRecord);
    },

    async claim(options) {
      const limit = Math.floor(options.limit);
      if (!(limit >= 1)) return [];
      await writer.flush();
      const leaseExpiresAt = options.now + options.leaseMs;
      const result = await pool.query<ExecutionRow & { readyAt: number }>(claimStatement, [
        options.owner,
        leaseExpiresAt,
        clock.now(),
        options.now,
        options.takeOverFrom ?? [],
        options.dueBy ?? options.now,
        limit,
      ]);
      // Oldest ready work first, as the subquery chose it.
      return result.rows
        .sort((a, b) => a.readyAt - b.readyAt || a.createdAt - b.createdAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
        .map(({ readyAt, ...row }): ExecutionRecord => toRecord(row));
    },

    async renewLeases(owner, leaseExpiresAt) {
      await writer.flush();
      // A heartbeat, not a change of the run: `updated_at` stays, and finished runs are left alone.
      await pool.query(`UPDATE ${table} SET lease_expires_at = $2 WHERE lease_owner = $1 AND status IN ${ACTIVE_SQL}`, [
        owner,
        leaseExpiresAt,
      ]);
    },

    async listLeaseOwners() {
      await writer.flush();
      const result = await pool.query<{ owner: string }>(
        `SELECT DISTINCT lease_owner AS owner FROM ${table}
          WHERE lease_owner IS NOT NULL AND status IN ${ACTIVE_SQL} ORDER BY lease_owner`,
      );
      return result.rows.map((row) => row.owner);
    },
  };
  return { repository, flush: () => writer.flush() };
}
