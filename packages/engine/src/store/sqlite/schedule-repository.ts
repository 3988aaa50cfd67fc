import { randomBytes } from 'node:crypto';
import { and, asc, eq, type SQL } from 'drizzle-orm';
import { SvcError } from '../../errors.js';
import { afterCursor, pageSize, toPage } from '../paging.js';
import type {
  ErrorInfo,
  ListSchedulesQuery,
  Page,
  ScheduleDefinition,
  ScheduleLastRun,
  ScheduleRecord,
  ScheduleRepository,
} from '../types.js';
import type { SqliteContext } from './context.js';
import { schedules, type ScheduleRow } from './schema.js';
import { isPrimaryKeyViolation } from './sqlite-errors.js';
import { insertSql, selectList, tableName } from './table-sql.js';

const ID_ALPHABET = 'abcdefghijklmnopqrstuvwxyz234567';

/** `sch_` and 20 base32 characters (100 random bits), like suite ids. */
export function newScheduleId(): string {
  let id = 'sch_';
  for (const byte of randomBytes(20)) id += ID_ALPHABET[byte & 31];
  return id;
}

export function scheduleNotFound(id: string): SvcError {
  return new SvcError('SCHEDULE_NOT_FOUND', `schedule "${id}" not found`);
}

/** A unique index names the constraint it broke in the message: the name, or the id. */
function conflict(error: unknown, id: string, name: string): SvcError {
  const byName = error instanceof Error && /schedules\.name|schedules_tenant_name_idx/.test(error.message);
  return byName
    ? new SvcError('CONFLICT', `a schedule named "${name}" already exists`, { cause: error })
    : new SvcError('CONFLICT', `schedule "${id}" already exists`, { cause: error });
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

  const finish = sqlite.transaction(
    (
      tenantId: string,
      id: string,
      runId: string,
      end: { outcome: ScheduleLastRun['outcome']; error: ErrorInfo | null; endedAt: number },
    ): boolean => {
      const current = selectSchedule.get(tenantId, id);
      if (current?.lastRun == null) return false;
      const lastRun = JSON.parse(current.lastRun) as ScheduleLastRun;
      if (lastRun.runId !== runId) return false;
      const finished: ScheduleLastRun = { ...lastRun, ...end };
      return finishLastRun.run(JSON.stringify(finished), clock.now(), tenantId, id, runId).changes > 0;
    },
  );

  return {
    async create(tenantId, definition, options) {
      const id = options.id ?? newScheduleId();
      const now = clock.now();
      const row: ScheduleRow = {
        tenantId,
        id,
        ...definitionColumns(definition),
        nextDueAt: options.nextDueAt,
        lastRun: null,
        skippedRuns: 0,
        lastSkippedAt: null,
        missedRuns: 0,
        createdAt: now,
        updatedAt: now,
      };
      try {
        insertSchedule.run(toBindable(row));
      } catch (error) {
        if (isPrimaryKeyViolation(error)) throw conflict(error, id, definition.name);
        throw error;
      }
      return toRecord(row);
    },

    async get(tenantId, id) {
      const row = selectSchedule.get(tenantId, id);
      return row === undefined ? undefined : toRecord(row);
    },

    async findByName(tenantId, name) {
      const row = selectByName.get(tenantId, name);
      return row === undefined ? undefined : toRecord(row);
    },

    async update(tenantId, id, definition, options) {
      try {
        return toRecord(replace.immediate(tenantId, id, definition, options.nextDueAt));
      } catch (error) {
        if (isPrimaryKeyViolation(error)) throw conflict(error, id, definition.name);
        throw error;
      }
    },

    async delete(tenantId, id) {
      return deleteSchedule.run(tenantId, id).changes > 0;
    },

    async list(tenantId, query: ListSchedulesQuery = {}): Promise<Page<ScheduleRecord>> {
      const size = pageSize(query.limit);
      const conditions: (SQL | undefined)[] = [eq(schedules.tenantId, tenantId)];
      if (query.enabledOnly) conditions.push(eq(schedules.enabled, true));
      conditions.push(
        afterCursor(query.cursor, 'asc', (after) => [
          [schedules.createdAt, after.at],
          [schedules.id, after.id],
        ]),
      );
      const rows = db
        .select()
        .from(schedules)
        .where(and(...conditions))
        .orderBy(asc(schedules.createdAt), asc(schedules.id))
        .limit(size + 1)
        .all();
      return toPage(rows, size, toRecord, (row) => ({ at: row.createdAt, id: row.id }));
    },

    async count(tenantId) {
      return countSchedules.get(tenantId) ?? 0;
    },

    async listDue(now, limit) {
      return selectDue.all(now, Math.max(1, Math.trunc(limit))).map(toRecord);
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

export function definitionColumns(definition: ScheduleDefinition) {
  return {
    name: definition.name,
    description: definition.description,
    targetType: definition.target.type,
    targetId: definition.target.id,
    cron: definition.cron,
    timezone: definition.timezone,
    environment: definition.environment,
    enabled: definition.enabled,
    overlap: definition.overlap,
  };
}

/** better-sqlite3 binds no booleans: `enabled` goes in as 0 or 1. */
function toBindable(row: ScheduleRow): ScheduleRow {
  return { ...row, enabled: (row.enabled ? 1 : 0) as unknown as boolean };
}

export function toRecord(row: ScheduleRow): ScheduleRecord {
  return {
    id: row.id,
    tenantId: row.tenantId,
    name: row.name,
    description: row.description,
    target: { type: row.targetType, id: row.targetId },
    cron: row.cron,
    timezone: row.timezone,
    environment: row.environment,
    // Raw statements read 0/1, drizzle reads a boolean.
    enabled: Boolean(row.enabled),
    overlap: row.overlap,
    nextDueAt: row.nextDueAt,
    lastRun: row.lastRun === null ? null : (JSON.parse(row.lastRun) as ScheduleLastRun),
    skippedRuns: row.skippedRuns,
    lastSkippedAt: row.lastSkippedAt,
    missedRuns: row.missedRuns,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}
