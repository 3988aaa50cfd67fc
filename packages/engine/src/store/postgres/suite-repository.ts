import {
  newSuiteId,
  suiteConflict,
  suiteListQuery,
  suiteNotFound,
  toSuiteRecord,
  toSuiteRow,
  toSuiteSummary,
  updatedSuiteRow,
} from '../suite-rows.js';
import type { SuiteRepository } from '../types.js';
import { inTransaction, type PostgresContext } from './context.js';
import { readListPage } from './list-page.js';
import { uniqueViolation } from './pg-errors.js';
import { suites, type SuiteRow } from './schema.js';
import { insertSql, rowValues, selectList, tableName } from './table-sql.js';

/** A write's error as the contract has it: a repeated name or id is a CONFLICT, anything else stays. */
function asConflict(error: unknown, id: string, name: string): unknown {
  const constraint = uniqueViolation(error);
  return constraint === undefined ? error : suiteConflict(error, constraint === 'suites_tenant_name_idx', id, name);
}

export function createSuiteRepository({ pool, db, clock }: PostgresContext): SuiteRepository {
  const table = tableName(suites);
  const select = `SELECT ${selectList(suites)} FROM ${table}`;
  const insert = insertSql(suites);

  return {
    async create(tenantId, definition, options = {}) {
      const id = options.id ?? newSuiteId();
      const now = clock.now();
      const row = toSuiteRow(tenantId, id, definition, now, now);
      try {
        await pool.query(insert, rowValues(suites, row));
      } catch (error) {
        throw asConflict(error, id, definition.name);
      }
      return toSuiteRecord(row);
    },

    async get(tenantId, id) {
      const row = (await pool.query<SuiteRow>(`${select} WHERE tenant_id = $1 AND id = $2`, [tenantId, id])).rows[0];
      return row === undefined ? undefined : toSuiteRecord(row);
    },

    async findByName(tenantId, name) {
      const row = (await pool.query<SuiteRow>(`${select} WHERE tenant_id = $1 AND name = $2`, [tenantId, name]))
        .rows[0];
      return row === undefined ? undefined : toSuiteRecord(row);
    },

    async update(tenantId, id, definition) {
      try {
        return await inTransaction(pool, async (client) => {
          const current = (
            await client.query<SuiteRow>(`${select} WHERE tenant_id = $1 AND id = $2 FOR UPDATE`, [tenantId, id])
          ).rows[0];
          if (current === undefined) throw suiteNotFound(id);
          const row = updatedSuiteRow(current, definition, clock.now());
          await client.query(
            `UPDATE ${table} SET name = $3, description = $4, mode = $5, kind = $6, flow_ids = $7, flow_count = $8,
                    source = $9, updated_at = $10
              WHERE tenant_id = $1 AND id = $2`,
            [
              tenantId,
              id,
              row.name,
              row.description,
              row.mode,
              row.kind,
              row.flowIds,
              row.flowCount,
              row.source,
              row.updatedAt,
            ],
          );
          return toSuiteRecord(row);
        });
      } catch (error) {
        throw asConflict(error, id, definition.name);
      }
    },

    async delete(tenantId, id) {
      const result = await pool.query(`DELETE FROM ${table} WHERE tenant_id = $1 AND id = $2`, [tenantId, id]);
      return (result.rowCount ?? 0) > 0;
    },

    async list(tenantId, query = {}) {
      return readListPage(db, suites, suiteListQuery(suites, tenantId, query), toSuiteSummary);
    },
  };
}
