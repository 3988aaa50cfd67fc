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
import { jobNotFound, toJobRecord, toJobRow } from '../sqlite/job-repository.js';
import type { PostgresContext } from './context.js';
import { uniqueViolation } from './pg-errors.js';
import { jobs, type JobRow } from './schema.js';
import { columnName, insertSql, qualifiedSelectList, rowValues, selectList, tableName } from './table-sql.js';

/** The patchable fields, each with how it is written to its column. */
const PATCH_COLUMNS: { [K in keyof Required<JobPatch>]: (value: JobPatch[K]) => unknown } = {
  status: (value) => value,
  progress: (value) => value ?? null,
  result: (value) => (value === undefined ? null : JSON.stringify(value)),
  error: (value) => (value === null || value === undefined ? null : JSON.stringify(value)),
  startedAt: (value) => value ?? null,
  endedAt: (value) => value ?? null,
  owner: (value) => value ?? null,
  leaseExpiresAt: (value) => value ?? null,
};

const ACTIVE_SQL = `(${ACTIVE_JOB_STATUSES.map((status) => `'${status}'`).join(', ')})`;

export function createJobRepository({ pool, db, clock }: PostgresContext): JobRepository {
  const table = tableName(jobs);
  const columns = selectList(jobs);
  const insert = insertSql(jobs);

  return {
    async create(record) {
      try {
        await pool.query(insert, rowValues(jobs, toJobRow(record)));
      } catch (error) {
        if (uniqueViolation(error) !== undefined)
          throw new SvcError('CONFLICT', `job "${record.id}" already exists`, { cause: error });
        throw error;
      }
    },

    async get(tenantId, id) {
      const row = (
        await pool.query<JobRow>(`SELECT ${columns} FROM ${table} WHERE tenant_id = $1 AND id = $2`, [tenantId, id])
      ).rows[0];
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
      const rows = await db
        .select()
        .from(jobs)
        .where(and(...conditions))
        .orderBy(desc(jobs.createdAt), desc(jobs.id))
        .limit(size + 1);
      return toPage(rows, size, toJobRecord, (row) => ({ at: row.createdAt, id: row.id }));
    },

    async updateActive(tenantId, id, patch) {
      const fields = (Object.keys(PATCH_COLUMNS) as (keyof JobPatch)[]).filter(
        (field) => patch[field] !== undefined || (field === 'result' && 'result' in patch),
      );
      const values: unknown[] = [tenantId, id, clock.now()];
      const sets = ['updated_at = $3'];
      for (const field of fields) {
        values.push((PATCH_COLUMNS[field] as (value: unknown) => unknown)(patch[field]));
        sets.push(`${columnName(jobs, field)} = $${values.length}`);
      }
      // One statement: the update where the job is still active, else the row as it is.
      const result = await pool.query<JobRow & { applied: boolean }>(
        `WITH changed AS (
           UPDATE ${table} SET ${sets.join(', ')} WHERE tenant_id = $1 AND id = $2 AND status IN ${ACTIVE_SQL}
           RETURNING ${columns}, true AS applied)
         SELECT * FROM changed
         UNION ALL
         SELECT ${columns}, false AS applied FROM ${table}
          WHERE tenant_id = $1 AND id = $2 AND NOT EXISTS (SELECT 1 FROM changed)`,
        values,
      );
      const row = result.rows[0];
      if (row === undefined) throw jobNotFound(id);
      const { applied, ...jobRow } = row;
      return { record: toJobRecord(jobRow), applied };
    },

    async renewLeases(owner, leaseExpiresAt) {
      await pool.query(`UPDATE ${table} SET lease_expires_at = $2 WHERE owner = $1 AND status IN ${ACTIVE_SQL}`, [
        owner,
        leaseExpiresAt,
      ]);
    },

    async listLeaseOwners() {
      const result = await pool.query<{ owner: string }>(
        `SELECT DISTINCT owner FROM ${table} WHERE status IN ${ACTIVE_SQL} AND owner IS NOT NULL`,
      );
      return result.rows.map((row) => row.owner);
    },

    async interruptOrphans(options) {
      // Rows another process is marking are skipped rather than waited for: it reports them.
      const result = await pool.query<JobRow>(
        `UPDATE ${table} AS j
            SET status = 'Failed', error = $3, ended_at = $1, updated_at = $4, owner = NULL, lease_expires_at = NULL
           FROM (SELECT tenant_id, id FROM ${table}
                  WHERE status IN ${ACTIVE_SQL}
                    AND ((lease_expires_at IS NOT NULL AND lease_expires_at <= $1) OR owner = ANY($2::text[]))
                  FOR UPDATE SKIP LOCKED) AS orphan
          WHERE j.tenant_id = orphan.tenant_id AND j.id = orphan.id
      RETURNING ${qualifiedSelectList(jobs, 'j')}`,
        [
          options.now,
          options.deadOwners ?? [],
          JSON.stringify({ code: options.error.code, message: options.error.message }),
          clock.now(),
        ],
      );
      return result.rows.map(toJobRecord);
    },
  };
}
