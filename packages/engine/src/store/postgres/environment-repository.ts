import {
  createEnvironmentCodec,
  environmentConflict,
  environmentNotFound,
  newEnvironmentId,
  toEnvironmentRecord,
  type EnvironmentChange,
} from '../environment-codec.js';
import type { EnvironmentRepository } from '../types.js';
import { inTransaction, type PostgresContext } from './context.js';
import { uniqueViolation } from './pg-errors.js';
import { environments, type EnvironmentRow } from './schema.js';
import { insertSql, rowValues, selectList, tableName } from './table-sql.js';

/** A write's error as the contract has it: a repeated name or id is a CONFLICT, anything else stays. */
function asConflict(error: unknown, id: string, name: string): unknown {
  const constraint = uniqueViolation(error);
  return constraint === undefined
    ? error
    : environmentConflict(error, constraint === 'environments_tenant_name_idx', id, name);
}

/** Environments on PostgreSQL, sealed and opened as on SQLite. */
export function createEnvironmentRepository({ pool, clock, cipher }: PostgresContext): EnvironmentRepository {
  const table = tableName(environments);
  const select = `SELECT ${selectList(environments)} FROM ${table}`;
  const insert = insertSql(environments);
  const codec = createEnvironmentCodec(cipher);

  /** Reads the row locked, changes and writes it in one transaction, so concurrent edits each land. */
  const change = (
    tenantId: string,
    id: string,
    edit: (row: EnvironmentRow) => EnvironmentChange,
  ): Promise<EnvironmentRow> =>
    inTransaction(pool, async (client) => {
      const current = (
        await client.query<EnvironmentRow>(`${select} WHERE tenant_id = $1 AND id = $2 FOR UPDATE`, [tenantId, id])
      ).rows[0];
      if (current === undefined) throw environmentNotFound(id);
      const row: EnvironmentRow = { ...current, ...edit(current), updatedAt: Math.max(clock.now(), current.updatedAt) };
      await client.query(
        `UPDATE ${table} SET name = $3, description = $4, variables = $5, updated_at = $6 WHERE tenant_id = $1 AND id = $2`,
        [tenantId, id, row.name, row.description, row.variables, row.updatedAt],
      );
      return row;
    });
  const readBy = async (column: 'id' | 'name', tenantId: string, value: string) =>
    (await pool.query<EnvironmentRow>(`${select} WHERE tenant_id = $1 AND ${column} = $2`, [tenantId, value])).rows[0];

  return {
    async create(tenantId, definition, options = {}) {
      const id = options.id ?? newEnvironmentId();
      const row: EnvironmentRow = codec.newRow(tenantId, id, definition, clock.now());
      try {
        await pool.query(insert, rowValues(environments, row));
      } catch (error) {
        throw asConflict(error, id, definition.name);
      }
      return toEnvironmentRecord(row);
    },

    async get(tenantId, id) {
      const row = await readBy('id', tenantId, id);
      return row === undefined ? undefined : toEnvironmentRecord(row);
    },

    async findByName(tenantId, name) {
      const row = await readBy('name', tenantId, name);
      return row === undefined ? undefined : toEnvironmentRecord(row);
    },

    async update(tenantId, id, definition, options = {}) {
      try {
        return toEnvironmentRecord(
          await change(tenantId, id, (row) => codec.replaced(row, definition, options.keepSecrets)),
        );
      } catch (error) {
        throw asConflict(error, id, definition.name);
      }
    },

    async patch(tenantId, id, patch) {
      return toEnvironmentRecord(await change(tenantId, id, (row) => codec.patched(row, patch)));
    },

    async delete(tenantId, id) {
      const result = await pool.query(`DELETE FROM ${table} WHERE tenant_id = $1 AND id = $2`, [tenantId, id]);
      return (result.rowCount ?? 0) > 0;
    },

    async list(tenantId) {
      return (
        await pool.query<EnvironmentRow>(`${select} WHERE tenant_id = $1 ORDER BY name, id`, [tenantId])
      ).rows.map(toEnvironmentRecord);
    },

    async resolve(tenantId, id) {
      const row = await readBy('id', tenantId, id);
      return row === undefined ? undefined : codec.open(row);
    },

    async resolveByName(tenantId, name) {
      const row = await readBy('name', tenantId, name);
      return row === undefined ? undefined : codec.open(row);
    },
  };
}
