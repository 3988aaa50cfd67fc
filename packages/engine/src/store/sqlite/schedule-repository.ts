import {
  definitionColumns,
  finishedLastRun,
  newScheduleId,
  newScheduleRow,
  scheduleConflict,
  scheduleListQuery,
  scheduleNotFound,
  toScheduleRecord,
  type ScheduleRunEnd,
} from '../schedule-rows.js';
import type { ScheduleDefinition, ScheduleRepository } from '../types.js';
import type { SqliteContext } from './context.js';
import { readListPage } from './list-page.js';
import { schedules, type ScheduleRow } from './schema.js';
import { isPrimaryKeyViolation } from './sqlite-errors.js';
import { insertSql, selectList, tableName } from './table-sql.js';

/**
 * A write's error as the contract has it: a repeated name or id is a CONFLICT (a unique index names
 * the constraint it broke in the message), anything else stays.
 */
function asConflict(error: unknown, id: string, name: string): unknown {
  if (!isPrimaryKeyViolation(error)) return error;
  const byName = error instanceof Error && /schedules\.name|schedules_tenant_name_idx/.test(error.message);
  return scheduleConflict(error, byName, id, name);
}

export function createScheduleRepository({ sqlite, db, clock }: SqliteContext): ScheduleRepository {
  const table = tableName(schedules);
  const columns = selectList(schedules);
  const insertSchedule = sqlite.prepare<ScheduleRow>(insertSql(schedules));
  const selectSchedule = sqlite.prepare<[string, string], ScheduleRow>(
    `SELECT ${columns} FROM ${table} WHERE tenant_id = ? AND id = ?`,
  );
  const selectByName = sqlite.prepare<[string, string], ScheduleRow>(
    `SELECT ${columns} FROM ${table} WHERE tenant_id = ? AND name = ?`,
  );
  const updateDefinition = sqlite.prepare<ScheduleRow>(
    `UPDATE ${table} SET name = @name, description = @description, target_type = @targetType, target_id = @targetId,
            cron = @cron, timezone = @timezone, environment = @environment, enabled = @enabled, overlap = @overlap,
            next_due_at = @nextDueAt, updated_at = @updatedAt
      WHERE tenant_id = @tenantId AND id = @id`,
  );
  const countSchedules = sqlite.prepare<[string], number>(`SELECT count(*) FROM ${table} WHERE tenant_id = ?`).pluck();
  const deleteSchedule = sqlite.prepare<[string, string]>(`DELETE FROM ${table} WHERE tenant_id = ? AND id = ?`);
  const selectDue = sqlite.prepare<[number, number], ScheduleRow>(
    `SELECT ${columns} FROM ${table} WHERE enabled = 1 AND next_due_at IS NOT NULL AND next_due_at <= ?
      ORDER BY next_due_at LIMIT ?`,
  );
  // The claim: only the caller that still finds the next_due_at it read moves it on.
  const claimFire = sqlite.prepare<{
    tenantId: string;
    id: string;
    dueAt: number;
    nextDueAt: number | null;
    lastRun: string;
    missed: number;
    updatedAt: number;
  }>(
    `UPDATE ${table} SET next_due_at = @nextDueAt, last_run = @lastRun, missed_runs = missed_runs + @missed,
            updated_at = @updatedAt
      WHERE tenant_id = @tenantId AND id = @id AND enabled = 1 AND next_due_at = @dueAt`,
  );
  const claimSkip = sqlite.prepare<{
    tenantId: string;
    id: string;
    dueAt: number;
    nextDueAt: number | null;
    at: number;
    missed: number;
    updatedAt: number;
  }>(
    `UPDATE ${table} SET next_due_at = @nextDueAt, skipped_runs = skipped_runs + 1, last_skipped_at = @at,
            missed_runs = missed_runs + @missed, updated_at = @updatedAt
      WHERE tenant_id = @tenantId AND id = @id AND enabled = 1 AND next_due_at = @dueAt`,
  );
  const setLastRun = sqlite.prepare<[string, number, string, string]>(
    `UPDATE ${table} SET last_run = ?, updated_at = ? WHERE tenant_id = ? AND id = ?`,
  );
  // Conditional on the run id inside the JSON: a later run's record is never overwritten.
  const finishLastRun = sqlite.prepare<[string, number, string, string, string]>(
    `UPDATE ${table} SET last_run = ?, updated_at = ?
      WHERE tenant_id = ? AND id = ? AND json_extract(last_run, '$.runId') = ?`,
  );

  const replace = sqlite.transaction(
    (tenantId: string, id: string, definition: ScheduleDefinition, nextDueAt: number | null): ScheduleRow => {
      const current = selectSchedule.get(tenantId, id);
      if (current === undefined) throw scheduleNotFound(id);
      const row: ScheduleRow = {
        ...current,
        ...definitionColumns(definition),
        nextDueAt,
        updatedAt: Math.max(clock.now(), current.updatedAt),
      };
      updateDefinition.run(toBindable(row));
      return row;
    },
  );

  const finish = sqlite.transaction((tenantId: string, id: string, runId: string, end: ScheduleRunEnd): boolean => {
    const finished = finishedLastRun(selectSchedule.get(tenantId, id)?.lastRun, runId, end);
    if (finished === undefined) return false;
    return finishLastRun.run(finished, clock.now(), tenantId, id, runId).changes > 0;
  });

  return {
    async create(tenantId, definition, options) {
      const id = options.id ?? newScheduleId();
      const row = newScheduleRow(tenantId, id, definition, options.nextDueAt, clock.now());
      try {
        insertSchedule.run(toBindable(row));
      } catch (error) {
        throw asConflict(error, id, definition.name);
      }
      return toScheduleRecord(row);
    },

    async get(tenantId, id) {
      const row = selectSchedule.get(tenantId, id);
      return row === undefined ? undefined : toScheduleRecord(row);
    },

    async findByName(tenantId, name) {
      const row = selectByName.get(tenantId, name);
      return row === undefined ? undefined : toScheduleRecord(row);
    },

    async update(tenantId, id, definition, options) {
      try {
        return toScheduleRecord(replace.immediate(tenantId, id, definition, options.nextDueAt));
      } catch (error) {
        throw asConflict(error, id, definition.name);
      }
    },

    async delete(tenantId, id) {
      return deleteSchedule.run(tenantId, id).changes > 0;
    },

    async list(tenantId, query = {}) {
      return readListPage(db, schedules, scheduleListQuery(schedules, tenantId, query), toScheduleRecord);
    },

    async count(tenantId) {
      return countSchedules.get(tenantId) ?? 0;
    },

    async listDue(now, limit) {
      return selectDue.all(now, Math.max(1, Math.trunc(limit))).map(toScheduleRecord);
    },

    async claim(claim) {
      const base = {
        tenantId: claim.tenantId,
        id: claim.id,
        dueAt: claim.dueAt,
        nextDueAt: claim.nextDueAt,
        updatedAt: clock.now(),
      };
      if ('fire' in claim.outcome) {
        const run = claim.outcome.fire;
        return claimFire.run({ ...base, lastRun: JSON.stringify(run), missed: run.missed }).changes > 0;
      }
      const { at, missed } = claim.outcome.skip;
      return claimSkip.run({ ...base, at, missed }).changes > 0;
    },

    async recordRun(tenantId, id, run) {
      if (setLastRun.run(JSON.stringify(run), clock.now(), tenantId, id).changes === 0) throw scheduleNotFound(id);
    },

    async finishRun(tenantId, id, runId, end) {
      return finish.immediate(tenantId, id, runId, end);
    },
  };
}

/** better-sqlite3 binds no booleans: `enabled` goes in as 0 or 1. */
function toBindable(row: ScheduleRow): ScheduleRow {
  return { ...row, enabled: (row.enabled ? 1 : 0) as unknown as boolean };
}
