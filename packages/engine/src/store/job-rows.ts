import { eq, type AnyColumn } from 'drizzle-orm';
import { SvcError } from '../errors.js';
import { keysetListQuery, type ListQuery } from './list-query.js';
import {
  ACTIVE_JOB_STATUSES,
  type InterruptJobsOptions,
  type JobPatch,
  type JobRecord,
  type ListJobsQuery,
} from './types.js';

/** A job as both stores keep it: input, result and error as JSON text. */
export type JobColumns = Omit<JobRecord, 'input' | 'result' | 'error'> & {
  input: string;
  result: string | null;
  error: string | null;
};

/** The active statuses as an SQL list, `('Queued', 'Running')`: the same text in both dialects. */
export const ACTIVE_STATUSES_SQL = `(${ACTIVE_JOB_STATUSES.map((status) => `'${status}'`).join(', ')})`;

export function jobNotFound(id: string): SvcError {
  return new SvcError('JOB_NOT_FOUND', `job "${id}" not found`);
}

export function jobConflict(id: string, error: unknown): SvcError {
  return new SvcError('CONFLICT', `job "${id}" already exists`, { cause: error });
}

/** `undefined` has no JSON form; it is stored as SQL NULL and read back as `null`. */
function toJson(value: unknown): string | null {
  return value === undefined ? null : JSON.stringify(value);
}

/** The patchable fields, each with how it is written to its column. */
const PATCH_COLUMNS: { [K in keyof Required<JobPatch>]: (value: JobPatch[K]) => unknown } = {
  status: (value) => value,
  progress: (value) => value ?? null,
  result: (value) => toJson(value),
  error: (value) => (value === null || value === undefined ? null : JSON.stringify(value)),
  startedAt: (value) => value ?? null,
  endedAt: (value) => value ?? null,
  owner: (value) => value ?? null,
  leaseExpiresAt: (value) => value ?? null,
};

/**
 * The fields a patch sets, each with its column value, in a fixed order. A field left undefined is
 * not set, except `result`, which a patch that names it sets (to NULL when undefined).
 */
export function jobPatchValues(patch: JobPatch): [field: keyof JobPatch, value: unknown][] {
  return (Object.keys(PATCH_COLUMNS) as (keyof JobPatch)[])
    .filter((field) => patch[field] !== undefined || (field === 'result' && 'result' in patch))
    .map((field) => [field, (PATCH_COLUMNS[field] as (value: unknown) => unknown)(patch[field])]);
}

/** What interrupted jobs answer as their error, as the error column keeps it. */
export function interruptedErrorJson(error: InterruptJobsOptions['error']): string {
  return JSON.stringify({ code: error.code, message: error.message });
}

export function toJobRow(record: JobRecord): JobColumns {
  return {
    tenantId: record.tenantId,
    id: record.id,
    kind: record.kind,
    status: record.status,
    input: JSON.stringify(record.input ?? null),
    progress: record.progress,
    result: toJson(record.result),
    error: record.error === null ? null : JSON.stringify(record.error),
    createdAt: record.createdAt,
    startedAt: record.startedAt,
    endedAt: record.endedAt,
    updatedAt: record.updatedAt,
    owner: record.owner,
    leaseExpiresAt: record.leaseExpiresAt,
  };
}

export function toJobRecord(row: JobColumns): JobRecord {
  return {
    id: row.id,
    tenantId: row.tenantId,
    kind: row.kind,
    status: row.status,
    input: JSON.parse(row.input) as unknown,
    progress: row.progress,
    result: row.result === null ? null : (JSON.parse(row.result) as unknown),
    error: row.error === null ? null : (JSON.parse(row.error) as JobRecord['error']),
    createdAt: row.createdAt,
    startedAt: row.startedAt,
    endedAt: row.endedAt,
    updatedAt: row.updatedAt,
    owner: row.owner,
    leaseExpiresAt: row.leaseExpiresAt,
  };
}

/** A page of a tenant's jobs, newest first, of one kind or status when asked. */
export function jobListQuery(
  table: Record<'tenantId' | 'kind' | 'status' | 'createdAt' | 'id', AnyColumn>,
  tenantId: string,
  query: ListJobsQuery,
): ListQuery<JobColumns> {
  const filters = [
    eq(table.tenantId, tenantId),
    query.kind === undefined ? undefined : eq(table.kind, query.kind),
    query.status === undefined ? undefined : eq(table.status, query.status),
  ];
  return keysetListQuery(query, filters, 'desc', [table.createdAt, table.id], (row) => row.createdAt);
}
