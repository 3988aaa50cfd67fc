import {
  definitionColumns,
  finishedLastRun,
  newScheduleId,
  newScheduleRow,
  scheduleConflict,
  scheduleListQuery,
  scheduleNotFound,
  toScheduleRecord,
} from '../schedule-rows.js';
import type { ScheduleRepository } from '../types.js';
import { inTransaction, type PostgresContext } from './context.js';
import { readListPage } from './list-page.js';
import { uniqueViolation } from './pg-errors.js';
import { schedules, type ScheduleRow } from './schema.js';
import { insertSql, rowValues, selectList, tableName } from './table-sql.js';

/** A write's error as the contract has it: a repeated name or id is a CONFLICT, anything else stays. */
function asConflict(error: unknown, id: string, name: string): unknown {
  const constraint = uniqueViolation(error);
  return constraint === undefined
    ? error
    : scheduleConflict(error, constraint === 'schedules_tenant_name_idx', id, name);
}

/**
 * Schedules on PostgreSQL. A due run is claimed as on SQLite, by one conditional UPDATE that moves
 * `next_due_at` on from the value the claimer read: of several processes reading the same due
 * run, the one whose update finds that value still stored fires it (the others' updates wait for
 * its row lock, then find the value moved and change nothing).
 */
export function createScheduleRepository({ pool, db, clock }: PostgresContext): ScheduleRepository {
  const table = tableName(schedules);
  const columns = selectList(schedules);
  const select = `SELECT ${columns} FROM ${table}`;
  const insert = insertSql(schedules);
  const readBy = async (column: 'id' | 'name', tenantId: string, value: string) =>
    (await pool.query<ScheduleRow>(`${select} WHERE tenant_id = $1 AND ${column} = $2`, [tenantId, value])).rows[0];

  return {
    async create(tenantId, definition, options) {
      const id = options.id ?? newScheduleId();
      const row = newScheduleRow(tenantId, id, definition, options.nextDueAt, clock.now());
      try {
        await pool.query(insert, rowValues(schedules, row));
      } catch (error) {
        throw asConflict(error, id, definition.name);
      }
      return toScheduleRecord(row);
    },

    async get(tenantId, id) {
      const row = await readBy('id', tenantId, id);
      return row === undefined ? undefined : toScheduleRecord(row);
    },

    async findByName(tenantId, name) {
      const row = await readBy('name', tenantId, name);
      return row === undefined ? undefined : toScheduleRecord(row);
    },

    async update(tenantId, id, definition, options) {
      const set = definitionColumns(definition);
      try {
        const row = (
          await pool.query<ScheduleRow>(
            `UPDATE ${table} SET name = $3, description = $4, target_type = $5, target_id = $6, cron = $7, timezone = $8,
                    environment = $9, enabled = $10, overlap = $11, next_due_at = $12, updated_at = greatest($13, updated_at)
              WHERE tenant_id = $1 AND id = $2 RETURNING ${columns}`,
            [
              tenantId,
              id,
              set.name,
              set.description,
              set.targetType,
              set.targetId,
              set.cron,
              set.timezone,
              set.environment,
              set.enabled,
              set.overlap,
              options.nextDueAt,
              clock.now(),
            ],
          )
        ).rows[0];
        if (row === undefined) throw scheduleNotFound(id);
        return toScheduleRecord(row);
      } catch (error) {
        throw asConflict(error, id, definition.name);
      }
    },

    async delete(tenantId, id) {
      const result = await pool.query(`DELETE FROM ${table} WHERE tenant_id = $1 AND id = $2`, [tenantId, id]);
      return (result.rowCount ?? 0) > 0;
    },

    async list(tenantId, query = {}) {
      return readListPage(db, schedules, scheduleListQuery(schedules, tenantId, query), toScheduleRecord);
    },

    async count(tenantId) {
      const result = await pool.query<{ count: number }>(
        `SELECT count(*) AS count FROM ${table} WHERE tenant_id = $1`,
        [tenantId],
      );
      return Number(result.rows[0]?.count ?? 0);
    },

    async listDue(now, limit) {
      const result = await pool.query<ScheduleRow>(
        `${select} WHERE enabled AND next_due_at IS NOT NULL AND next_due_at <= $1 ORDER BY next_due_at LIMIT $2`,
        [now, Math.max(1, Math.trunc(limit))],
      );
      return result.rows.map(toScheduleRecord);
    },

    async claim(claim) {
      const base = [claim.tenantId, claim.id, claim.dueAt, claim.nextDueAt, clock.now()];
      const where = 'WHERE tenant_id = $1 AND id = $2 AND enabled AND next_due_at = $3';
      if ('fire' in claim.outcome) {
        const run = claim.outcome.fire;
        const result = await pool.query(
          `UPDATE ${table} SET next_due_at = $4, updated_at = $5, last_run = $6, missed_runs = missed_runs + $7 ${where}`,
          [...base, JSON.stringify(run), run.missed],
        );
        return (result.rowCount ?? 0) > 0;
      }
      const { at, missed } = claim.outcome.skip;
      const result = await pool.query(
        `UPDATE ${table} SET next_due_at = $4, updated_at = $5, skipped_runs = skipped_runs + 1, last_skipped_at = $6,
                missed_runs = missed_runs + $7 ${where}`,
        [...base, at, missed],
      );
      return (result.rowCount ?? 0) > 0;
    },

    async recordRun(tenantId, id, run) {
      const result = await pool.query(
        `UPDATE ${table} SET last_run = $3, updated_at = $4 WHERE tenant_id = $1 AND id = $2`,
        [tenantId, id, JSON.stringify(run), clock.now()],
      );
      if ((result.rowCount ?? 0) === 0) throw scheduleNotFound(id);
    },

    async finishRun(tenantId, id, runId, end) {
      return inTransaction(pool, async (client) => {
        const current = (
          await client.query<{ lastRun: string | null }>(
            `SELECT last_run AS "lastRun" FROM ${table} WHERE tenant_id = $1 AND id = $2 FOR UPDATE`,
            [tenantId, id],
          )
        ).rows[0];
        const finished = finishedLastRun(current?.lastRun, runId, end);
        if (finished === undefined) return false;
        await client.query(`UPDATE ${table} SET last_run = $3, updated_at = $4 WHERE tenant_id = $1 AND id = $2`, [
          tenantId,
          id,
          finished,
          clock.now(),
        ]);
        return true;
      });
    },
  };
}
