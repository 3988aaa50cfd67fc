import { eq, type AnyColumn } from 'drizzle-orm';
import { SvcError } from '../errors.js';
import { keysetListQuery, type ListQuery } from './list-query.js';
import { randomId } from './random-id.js';
import type {
  ListSchedulesQuery,
  ScheduleDefinition,
  ScheduleLastRun,
  ScheduleRecord,
  ScheduleRepository,
  ScheduleTargetType,
} from './types.js';

/** A schedule as both stores keep it: the target in two columns, the last run as JSON text. */
export type ScheduleColumns = Omit<ScheduleRecord, 'target' | 'lastRun'> & {
  targetType: ScheduleTargetType;
  targetId: string;
  lastRun: string | null;
};

/** How a fired run ended, as `finishRun` is told. */
export type ScheduleRunEnd = Parameters<ScheduleRepository['finishRun']>[3];

/** `sch_` and 20 base32 characters (100 random bits), like suite ids. */
export function newScheduleId(): string {
  return randomId('sch_');
}

export function scheduleNotFound(id: string): SvcError {
  return new SvcError('SCHEDULE_NOT_FOUND', `schedule "${id}" not found`);
}

/** The CONFLICT of a write that repeated a schedule's name (`byName`) or its id. */
export function scheduleConflict(error: unknown, byName: boolean, id: string, name: string): SvcError {
  return byName
    ? new SvcError('CONFLICT', `a schedule named "${name}" already exists`, { cause: error })
    : new SvcError('CONFLICT', `schedule "${id}" already exists`, { cause: error });
}

/** The columns a definition sets. */
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

/** A new schedule's row: the definition, due at `nextDueAt`, never run. */
export function newScheduleRow(
  tenantId: string,
  id: string,
  definition: ScheduleDefinition,
  nextDueAt: number | null,
  now: number,
): ScheduleColumns {
  return {
    tenantId,
    id,
    ...definitionColumns(definition),
    nextDueAt,
    lastRun: null,
    skippedRuns: 0,
    lastSkippedAt: null,
    missedRuns: 0,
    createdAt: now,
    updatedAt: now,
  };
}

export function toScheduleRecord(row: ScheduleColumns): ScheduleRecord {
  return {
    id: row.id,
    tenantId: row.tenantId,
    name: row.name,
    description: row.description,
    target: { type: row.targetType, id: row.targetId },
    cron: row.cron,
    timezone: row.timezone,
    environment: row.environment,
    // SQLite's raw statements read 0/1, drizzle and PostgreSQL a boolean.
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

/**
 * The stored last run (JSON text) with `end` written over it, as JSON text; undefined when there
 * is no last run or it is another run than `runId` (a later run's record is never overwritten).
 */
export function finishedLastRun(
  stored: string | null | undefined,
  runId: string,
  end: ScheduleRunEnd,
): string | undefined {
  if (stored == null) return undefined;
  const lastRun = JSON.parse(stored) as ScheduleLastRun;
  if (lastRun.runId !== runId) return undefined;
  const finished: ScheduleLastRun = { ...lastRun, ...end };
  return JSON.stringify(finished);
}

/** A page of a tenant's schedules, oldest first; with `enabledOnly`, the enabled ones. */
export function scheduleListQuery(
  table: Record<'tenantId' | 'enabled' | 'createdAt' | 'id', AnyColumn>,
  tenantId: string,
  query: ListSchedulesQuery,
): ListQuery<ScheduleColumns> {
  const filters = [eq(table.tenantId, tenantId), query.enabledOnly ? eq(table.enabled, true) : undefined];
  return keysetListQuery(query, filters, 'asc', [table.createdAt, table.id], (row) => row.createdAt);
}
