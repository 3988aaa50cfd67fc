import { registerFold } from '../paging.js';
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
import type { SuiteDefinition, SuiteRepository } from '../types.js';
import type { SqliteContext } from './context.js';
import { readListPage } from './list-page.js';
import { suites, type SuiteRow } from './schema.js';
import { isPrimaryKeyViolation } from './sqlite-errors.js';
import { insertSql, selectList, tableName } from './table-sql.js';

/**
 * A write's error as the contract has it: a repeated name or id is a CONFLICT (a unique index names
 * the constraint it broke in the message), anything else stays.
 */
function asConflict(error: unknown, id: string, name: string): unknown {
  if (!isPrimaryKeyViolation(error)) return error;
  const byName = error instanceof Error && /suites\.name|suites_tenant_name_idx/.test(error.message);
  return suiteConflict(error, byName, id, name);
}

export function createSuiteRepository({ sqlite, db, clock }: SqliteContext): SuiteRepository {
  registerFold(sqlite);
  const table = tableName(suites);
  const insertSuite = sqlite.prepare<SuiteRow>(insertSql(suites));
  const selectSuite = sqlite.prepare<[string, string], SuiteRow>(
    `SELECT ${selectList(suites)} FROM ${table} WHERE tenant_id = ? AND id = ?`,
  );
  const selectByName = sqlite.prepare<[string, string], SuiteRow>(
    `SELECT ${selectList(suites)} FROM ${table} WHERE tenant_id = ? AND name = ?`,
  );
  const updateSuite = sqlite.prepare<SuiteRow>(
    `UPDATE ${table} SET name = @name, description = @description, mode = @mode, kind = @kind, flow_ids = @flowIds,
            flow_count = @flowCount, source = @source, updated_at = @updatedAt
      WHERE tenant_id = @tenantId AND id = @id`,
  );
  const deleteSuite = sqlite.prepare<[string, string]>(`DELETE FROM ${table} WHERE tenant_id = ? AND id = ?`);

  const replace = sqlite.transaction((tenantId: string, id: string, definition: SuiteDefinition): SuiteRow => {
    const current = selectSuite.get(tenantId, id);
    if (current === undefined) throw suiteNotFound(id);
    const row = updatedSuiteRow(current, definition, clock.now());
    updateSuite.run(row);
    return row;
  });

  return {
    async create(tenantId, definition, options = {}) {
      const id = options.id ?? newSuiteId();
      const now = clock.now();
      const row = toSuiteRow(tenantId, id, definition, now, now);
      try {
        insertSuite.run(row);
      } catch (error) {
        throw asConflict(error, id, definition.name);
      }
      return toSuiteRecord(row);
    },

    async get(tenantId, id) {
      const row = selectSuite.get(tenantId, id);
      return row === undefined ? undefined : toSuiteRecord(row);
    },

    async findByName(tenantId, name) {
      const row = selectByName.get(tenantId, name);
      return row === undefined ? undefined : toSuiteRecord(row);
    },

    async update(tenantId, id, definition) {
      try {
        return toSuiteRecord(replace.immediate(tenantId, id, definition));
      } catch (error) {
        throw asConflict(error, id, definition.name);
      }
    },

    async delete(tenantId, id) {
      return deleteSuite.run(tenantId, id).changes > 0;
    },

    async list(tenantId, query = {}) {
      return readListPage(db, suites, suiteListQuery(suites, tenantId, query), toSuiteSummary);
    },
  };
}
