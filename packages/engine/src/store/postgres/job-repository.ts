import {
  ACTIVE_STATUSES_SQL,
  interruptedErrorJson,
  jobConflict,
  jobListQuery,
  jobNotFound,
  jobPatchValues,
  toJobRecord,
  toJobRow,
} from '../job-rows.js';
import type { JobRepository } from '../types.js';
import type { PostgresContext } from './context.js';
import { readListPage } from './list-page.js';
import { uniqueViolation } from './pg-errors.js';
import { jobs, type JobRow } from './schema.js';
import { columnName, insertSql, qualifiedSelectList, rowValues, selectList, tableName } from './table-sql.js';

export function createJobRepository({ pool, db, clock }: PostgresContext): JobRepository {
  const table = tableName(jobs);
  const columns = selectList(jobs);
  const insert = insertSql(jobs);

  return {
    async create(record) {
      try {
        await pool.query(insert, rowValues(jobs, toJobRow(record)));
      } catch (error) {
        if (uniqueViolation(error) !== undefined) throw jobConflict(record.id, error);
        throw error;
      }
    },

    async get(tenantId, id) {
      const row = (
        await pool.query<JobRow>(`SELECT ${columns} FROM ${table} WHERE tenant_id = $1 AND id = $2`, [tenantId, id])
      ).rows[0];
      return row === undefined ? undefined : toJobRecord(row);
    },

    async list(tenantId, query = {}) {
      return readListPage(db, jobs, jobListQuery(jobs, tenantId, query), toJobRecord);
    },

    async updateActive(tenantId, id, patch) {
      const values: unknown[] = [tenantId, id, clock.now()];
      const sets = ['updated_at = $3'];
      for (const [field, value] of jobPatchValues(patch)) {
        values.push(value);
        sets.push(`${columnName(jobs, field)} = $${values.length}`);
      }
      // One statement: the update where the job is still active, else the row as it is.
      const result = await pool.query<JobRow & { applied: boolean }>(
        `WITH changed AS (
           UPDATE ${table} SET ${sets.join(', ')} WHERE tenant_id = $1 AND id = $2 AND status IN ${ACTIVE_STATUSES_SQL}
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
      await pool.query(
        `UPDATE ${table} SET lease_expires_at = $2 WHERE owner = $1 AND status IN ${ACTIVE_STATUSES_SQL}`,
        [owner, leaseExpiresAt],
      );
    },

    async listLeaseOwners() {
      const result = await pool.query<{ owner: string }>(
        `SELECT DISTINCT owner FROM ${table} WHERE status IN ${ACTIVE_STATUSES_SQL} AND owner IS NOT NULL`,
      );
      return result.rows.map((row) => row.owner);
    },

    async interruptOrphans(options) {
      // Rows another process is marking are skipped rather than waited for: it reports them.
      const result = await pool.query<JobRow>(
        `UPDATE ${table} AS j
            SET status = 'Failed', error = $3, ended_at = $1, updated_at = $4, owner = NULL, lease_expires_at = NULL
           FROM (SELECT tenant_id, id FROM ${table}
                  WHERE status IN ${ACTIVE_STATUSES_SQL}
                    AND ((lease_expires_at IS NOT NULL AND lease_expires_at <= $1) OR owner = ANY($2::text[]))
                  FOR UPDATE SKIP LOCKED) AS orphan
          WHERE j.tenant_id = orphan.tenant_id AND j.id = orphan.id
      RETURNING ${qualifiedSelectList(jobs, 'j')}`,
        [options.now, options.deadOwners ?? [], interruptedErrorJson(options.error), clock.now()],
      );
      return result.rows.map(toJobRecord);
    },
  };
}
