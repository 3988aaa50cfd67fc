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
import type { JobPatch, JobRepository } from '../types.js';
import type { SqliteContext } from './context.js';
import { readListPage } from './list-page.js';
import { jobs, type JobRow } from './schema.js';
import { isPrimaryKeyViolation } from './sqlite-errors.js';
import { columnName, insertSql, selectList, tableName } from './table-sql.js';

export function createJobRepository({ sqlite, db, clock }: SqliteContext): JobRepository {
  const table = tableName(jobs);
  const select = selectList(jobs);
  const insertJob = sqlite.prepare<JobRow>(insertSql(jobs));
  const selectJob = sqlite.prepare<[string, string], JobRow>(
    `SELECT ${select} FROM ${table} WHERE tenant_id = ? AND id = ?`,
  );
  const renew = sqlite.prepare<{ owner: string; leaseExpiresAt: number }>(
    `UPDATE ${table} SET lease_expires_at = @leaseExpiresAt WHERE owner = @owner AND status IN ${ACTIVE_STATUSES_SQL}`,
  );
  const selectOwners = sqlite
    .prepare<[], string>(
      `SELECT DISTINCT owner FROM ${table} WHERE status IN ${ACTIVE_STATUSES_SQL} AND owner IS NOT NULL`,
    )
    .pluck();
  // One statement, so two processes sweeping at once cannot both mark (and both report) a job.
  const interrupt = sqlite.prepare<{ now: number; deadOwners: string; error: string; updatedAt: number }, JobRow>(
    `UPDATE ${table}
        SET status = 'Failed', error = @error, ended_at = @now, updated_at = @updatedAt, owner = NULL, lease_expires_at = NULL
      WHERE status IN ${ACTIVE_STATUSES_SQL}
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
        `UPDATE ${table} SET ${assignments.join(', ')} WHERE tenant_id = @tenantId AND id = @id AND status IN ${ACTIVE_STATUSES_SQL}`,
      );
      updates.set(key, statement);
    }
    return statement;
  };
  const applyPatch = sqlite.transaction((tenantId: string, id: string, patch: JobPatch) => {
    const set = jobPatchValues(patch);
    const values = { tenantId, id, updatedAt: clock.now(), ...Object.fromEntries(set) };
    const applied = updateStatement(set.map(([field]) => field)).run(values).changes > 0;
    const row = selectJob.get(tenantId, id);
    if (row === undefined) throw jobNotFound(id);
    return { record: toJobRecord(row), applied };
  });

  return {
    async create(record) {
      try {
        insertJob.run(toJobRow(record));
      } catch (error) {
        if (isPrimaryKeyViolation(error)) throw jobConflict(record.id, error);
        throw error;
      }
    },

    async get(tenantId, id) {
      const row = selectJob.get(tenantId, id);
      return row === undefined ? undefined : toJobRecord(row);
    },

    async list(tenantId, query = {}) {
      return readListPage(db, jobs, jobListQuery(jobs, tenantId, query), toJobRecord);
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
        error: interruptedErrorJson(options.error),
        updatedAt: clock.now(),
      });
      return rows.map(toJobRecord);
    },
  };
}
