import { and, desc, eq, type SQL } from 'drizzle-orm';
import { SvcError } from '../../errors.js';
import { afterCursor, foldedSearch, pageSize, toPage } from '../paging.js';
import type { ListSuitesQuery, Page, SuiteRepository, SuiteSummary } from '../types.js';
import { newSuiteId, suiteNotFound, toRecord, toRow } from '../sqlite/suite-repository.js';
import { inTransaction, type PostgresContext } from './context.js';
import { uniqueViolation } from './pg-errors.js';
import { suites, type SuiteRow } from './schema.js';
import { insertSql, rowValues, selectList, tableName } from './table-sql.js';

function conflict(error: unknown, constraint: string, id: string, name: string): SvcError {
  return constraint === 'suites_tenant_name_idx'
    ? new SvcError('CONFLICT', `a suite named "${name}" already exists`, { cause: error })
    : new SvcError('CONFLICT', `suite "${id}" already exists`, { cause: error });
}

export function createSuiteRepository({ pool, db, clock }: PostgresContext): SuiteRepository {
  const table = tableName(suites);
  const select = `SELECT ${selectList(suites)} FROM ${table}`;
  const insert = insertSql(suites);

  return {
    async create(tenantId, definition, options = {}) {
      const id = options.id ?? newSuiteId();
      const now = clock.now();
      const row = toRow(tenantId, id, definition, now, now);
      try {
        await pool.query(insert, rowValues(suites, row));
      } catch (error) {
        const constraint = uniqueViolation(error);
        if (constraint !== undefined) throw conflict(error, constraint, id, definition.name);
        throw error;
      }
      return toRecord(row);
    },

    async get(tenantId, id) {
      const row = (await pool.query<SuiteRow>(`${select} WHERE tenant_id = $1 AND id = $2`, [tenantId, id])).rows[0];
      return row === undefined ? undefined : toRecord(row);
    },

    async findByName(tenantId, name) {
      const row = (await pool.query<SuiteRow>(`${select} WHERE tenant_id = $1 AND name = $2`, [tenantId, name]))
        .rows[0];
      return row === undefined ? undefined : toRecord(row);
    },

    async update(tenantId, id, definition) {
      try {
        return await inTransaction(pool, async (client) => {
          const current = (
            await client.query<SuiteRow>(`${select} WHERE tenant_id = $1 AND id = $2 FOR UPDATE`, [tenantId, id])
          ).rows[0];
          if (current === undefined) throw suiteNotFound(id);
          const row = toRow(tenantId, id, definition, current.createdAt, Math.max(clock.now(), current.updatedAt));
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
          return toRecord(row);
        });
      } catch (error) {
        const constraint = uniqueViolation(error);
        if (constraint !== undefined) throw conflict(error, constraint, id, definition.name);
        throw error;
      }
    },

    async delete(tenantId, id) {
      const result = await pool.query(`DELETE FROM ${table} WHERE tenant_id = $1 AND id = $2`, [tenantId, id]);
      return (result.rowCount ?? 0) > 0;
    },

    async list(tenantId, query: ListSuitesQuery = {}): Promise<Page<SuiteSummary>> {
      const size = pageSize(query.limit);
      const conditions: (SQL | undefined)[] = [eq(suites.tenantId, tenantId)];
      if (query.kind !== undefined) conditions.push(eq(suites.kind, query.kind));
      conditions.push(foldedSearch(query.search, [suites.name, suites.description]));
      conditions.push(
        afterCursor(query.cursor, 'desc', (after) => [
          [suites.updatedAt, after.at],
          [suites.id, after.id],
        ]),
      );
      const rows = await db
        .select()
        .from(suites)
        .where(and(...conditions))
        .orderBy(desc(suites.updatedAt), desc(suites.id))
        .limit(size + 1);
      return toPage(
        rows,
        size,
        (row): SuiteSummary => ({
          id: row.id,
          name: row.name,
          description: row.description,
          mode: row.mode,
          kind: row.kind,
          flowCount: row.flowCount,
          createdAt: new Date(row.createdAt).toISOString(),
          updatedAt: new Date(row.updatedAt).toISOString(),
        }),
        (row) => ({ at: row.updatedAt, id: row.id }),
      );
    },
  };
}
