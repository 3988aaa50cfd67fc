import {
  createEnvironmentCodec,
  environmentConflict,
  environmentNotFound,
  newEnvironmentId,
  toEnvironmentRecord,
  type EnvironmentChange,
} from '../environment-codec.js';
import type { EnvironmentRepository, ResolvedEnvironment } from '../types.js';
import type { SqliteContext } from './context.js';
import { environments, type EnvironmentRow } from './schema.js';
import { isPrimaryKeyViolation } from './sqlite-errors.js';
import { insertSql, selectList, tableName } from './table-sql.js';

/** A write's error as the contract has it: a repeated name or id is a CONFLICT, anything else stays. */
function asConflict(error: unknown, id: string, name: string): unknown {
  if (!isPrimaryKeyViolation(error)) return error;
  const byName = error instanceof Error && /environments\.name|environments_tenant_name_idx/.test(error.message);
  return environmentConflict(error, byName, id, name);
}

/**
 * Environments on SQLite. Secret values are sealed with `cipher` before they reach a statement and
 * opened only by `resolve`.
 */
export function createEnvironmentRepository({ sqlite, clock, cipher }: SqliteContext): EnvironmentRepository {
  const table = tableName(environments);
  const insertRow = sqlite.prepare<EnvironmentRow>(insertSql(environments));
  const selectRow = sqlite.prepare<[string, string], EnvironmentRow>(
    `SELECT ${selectList(environments)} FROM ${table} WHERE tenant_id = ? AND id = ?`,
  );
  const selectByName = sqlite.prepare<[string, string], EnvironmentRow>(
    `SELECT ${selectList(environments)} FROM ${table} WHERE tenant_id = ? AND name = ?`,
  );
  const selectAll = sqlite.prepare<[string], EnvironmentRow>(
    `SELECT ${selectList(environments)} FROM ${table} WHERE tenant_id = ? ORDER BY name, id`,
  );
  const updateRow = sqlite.prepare<EnvironmentRow>(
    `UPDATE ${table} SET name = @name, description = @description, variables = @variables, updated_at = @updatedAt WHERE tenant_id = @tenantId AND id = @id`,
  );
  const deleteRow = sqlite.prepare<[string, string]>(`DELETE FROM ${table} WHERE tenant_id = ? AND id = ?`);
  const codec = createEnvironmentCodec(cipher);

  /** Reads, changes and writes one row in a transaction, so concurrent edits of one variable each land. */
  const change = sqlite.transaction(
    (tenantId: string, id: string, edit: (row: EnvironmentRow) => EnvironmentChange): EnvironmentRow => {
      const current = selectRow.get(tenantId, id);
      if (current === undefined) throw environmentNotFound(id);
      const row: EnvironmentRow = { ...current, ...edit(current), updatedAt: Math.max(clock.now(), current.updatedAt) };
      updateRow.run(row);
      return row;
    },
  );
  return {
    async create(tenantId, definition, options = {}) {
      const id = options.id ?? newEnvironmentId();
      const row: EnvironmentRow = codec.newRow(tenantId, id, definition, clock.now());
      try {
        insertRow.run(row);
      } catch (error) {
        throw asConflict(error, id, definition.name);
      }
      return toEnvironmentRecord(row);
    },

    async get(tenantId, id) {
      const row = selectRow.get(tenantId, id);
      return row === undefined ? undefined : toEnvironmentRecord(row);
    },

    async findByName(tenantId, name) {
      const row = selectByName.get(tenantId, name);
      return row === undefined ? undefined : toEnvironmentRecord(row);
    },

    async update(tenantId, id, definition, options = {}) {
      try {
        return toEnvironmentRecord(
          change.immediate(tenantId, id, (row) => codec.replaced(row, definition, options.keepSecrets)),
        );
      } catch (error) {
        throw asConflict(error, id, definition.name);
      }
    },

    async patch(tenantId, id, patch) {
      return toEnvironmentRecord(change.immediate(tenantId, id, (row) => codec.patched(row, patch)));
    },

    async delete(tenantId, id) {
      return deleteRow.run(tenantId, id).changes > 0;
    },

    async list(tenantId) {
      return selectAll.all(tenantId).map(toEnvironmentRecord);
    },

    async resolve(tenantId, id): Promise<ResolvedEnvironment | undefined> {
      const row = selectRow.get(tenantId, id);
      return row === undefined ? undefined : codec.open(row);
    },

    async resolveByName(tenantId, name): Promise<ResolvedEnvironment | undefined> {
      const row = selectByName.get(tenantId, name);
      return row === undefined ? undefined : codec.open(row);
    },
  };
}
