import { and, desc, eq, type SQL } from 'drizzle-orm';
import { SvcError } from '../../errors.js';
import { afterCursor, pageSize, toPage } from '../paging.js';
import {
  ACTIVE_JOB_STATUSES,
  type JobPatch,
  type JobRecord,
  type JobRepository,
  type ListJobsQuery,
  type Page,
} from '../types.js';
import type { SqliteContext } from './context.js';
import { jobs, type JobRow } from './schema.js';
import { isPrimaryKeyViolation } from './sqlite-errors.js';
import { columnName, insertSql, selectList, tableName } from './table-sql.js';

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

const ACTIVE_SQL = `(${ACTIVE_JOB_STATUSES.map((status) => `'${status}'`).join(', ')})`;

export function jobNotFound(id: string): SvcError {
  return new SvcError('JOB_NOT_FOUND', `job "${id}" not found`);
}

export function createJobRepository({ sqlite, db, clock }: SqliteContext): JobRepository {
  const table = tableName(jobs);
  const select = selectList(jobs);
  const insertJob = sqlite.prepare<JobRow>(insertSql(jobs));
  const selectJob = sqlite.prepare<[string, string], JobRow>(
    `SELECT ${select} FROM ${table} WHERE tenant_id = ? AND id = ?`,
  );
  const renew = sqlite.prepare<{ owner: string; leaseExpiresAt: number }>(
    `UPDATE ${table} SET lease_expires_at = @leaseExpiresAt WHERE owner = @owner AND status IN ${ACTIVE_SQL}`,
  );
  const selectOwners = sqlite
    .prepare<[], string>(`SELECT DISTINCT owner FROM ${table} WHERE status IN ${ACTIVE_SQL} AND owner IS NOT NULL`)
    .pluck();
  // One statement, so two processes sweeping at once cannot both mark (and both report) a job.
  const interrupt = sqlite.prepare<{ now: number; deadOwners: string; error: string; updatedAt: number }, JobRow>(
    `UPDATE ${table}
        SET status = 'Failed', error = @error, ended_at = @now, updated_at = @updatedAt, owner = NULL, lease_expires_at = NULL
      WHERE status IN ${ACTIVE_SQL}
        AND ((lease_expires_at IS NOT NULL AND lease_expires_at <= @now) OR owner IN (SELECT value FROM json_each(@deadOwners)))
  RETURNING ${select}`,
  );

  /** UPDATE statements by the set of fields a patch names, prepared on first use. */
  const updates = new Map<string, ReturnType<typeof sqlite.prepare>>();
  const updateStatement = (fields: string[]) => {
    const key = fields.join(',');
    let statement = updates.get(key);
    if (statement === undefined) {
      const assignments = [
        ...fields.map((field) => `${columnName(jobs, field)} = @${field}`),
        `updated_at = @updatedAt`,
      ];
      statement = sqlite.prepare(
        `UPDATE ${table} SET ${assignments.join(', ')} WHERE tenant_id = @tenantId AND id = @id AND status IN ${ACTIVE_SQL}`,
      );
      updates.set(key, statement);
    }
    return statement;
  };
  const applyPatch = sqlite.transaction((tenantId: string, id: string, patch: JobPatch) => {
    const fields = (Object.keys(PATCH_COLUMNS) as (keyof JobPatch)[]).filter(
      (field) => patch[field] !== undefined || (field === 'result' && 'result' in patch),
    );
    const values: Record<string, unknown> = { tenantId, id, updatedAt: clock.now() };
    for (const field of fields) values[field] = (PATCH_COLUMNS[field] as (value: unknown) => unknown)(patch[field]);
    const applied = updateStatement(fields).run(values).changes > 0;
    const row = selectJob.get(tenantId, id);
    if (row === undefined) throw jobNotFound(id);
    return { record: toJobRecord(row), applied };
  });

  return {
    async create(record) {
      try {
        insertJob.run(toJobRow(record));
      } catch (error) {
        if (isPrimaryKeyViolation(error))
          throw new SvcError('CONFLICT', `job "${record.id}" already exists`, { cause: error });
        throw error;
      }
    },

    async get(tenantId, id) {
      const row = selectJob.get(tenantId, id);
      return row === undefined ? undefined : toJobRecord(row);
    },

    async list(tenantId, query: ListJobsQuery = {}): Promise<Page<JobRecord>> {
      const size = pageSize(query.limit);
      const conditions: (SQL | undefined)[] = [eq(jobs.tenantId, tenantId)];
      if (query.kind !== undefined) conditions.push(eq(jobs.kind, query.kind));
      if (query.status !== undefined) conditions.push(eq(jobs.status, query.status));
      conditions.push(
        afterCursor(query.cursor, 'desc', (after) => [
          [jobs.createdAt, after.at],
          [jobs.id, after.id],
        ]),
      );
      const rows = db
        .select()
        .from(jobs)
        .where(and(...conditions))
        .orderBy(desc(jobs.createdAt), desc(jobs.id))
        .limit(size + 1)
        .all();
      return toPage(rows, size, toJobRecord, (row) => ({ at: row.createdAt, id: row.id }));
    },

    async updateActive(tenantId, id, patch) {
      return applyPatch.immediate(tenantId, id, patch);
    },

    async renewLeases(owner, leaseExpiresAt) {
      renew.run({ owner, leaseExpiresAt });
    },

    async listLeaseOwners() {
      return selectOwners.all();
    },

    async interruptOrphans(options) {
      const rows = interrupt.all({
        now: options.now,
        deadOwners: JSON.stringify(options.deadOwners ?? []),
        error: JSON.stringify({ code: options.error.code, message: options.error.message }),
        updatedAt: clock.now(),
      });
      return rows.map(toJobRecord);
    },
  };
}

/** `undefined` has no JSON form; it is stored as SQL NULL and read back as `null`. */
function toJson(value: unknown): string | null {
  return value === undefined ? null : JSON.stringify(value);
}

export function toJobRow(record: JobRecord): JobRow {
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

export function toJobRecord(row: JobRow): JobRecord {
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
