import { BoundedMap } from '../../bounded-map.js';
import { SvcError } from '../../errors.js';
import type { EnvironmentDefinition, EnvironmentRepository, ResolvedEnvironment } from '../types.js';
import {
  newEnvironmentId,
  notFound,
  parseVariables,
  toRecord,
  type StoredVariables,
} from '../sqlite/environment-repository.js';
import { inTransaction, type PostgresContext } from './context.js';
import { uniqueViolation } from './pg-errors.js';
import { environments, type EnvironmentRow } from './schema.js';
import { insertSql, rowValues, selectList, tableName } from './table-sql.js';

function conflict(error: unknown, constraint: string, id: string, name: string): SvcError {
  return constraint === 'environments_tenant_name_idx'
    ? new SvcError('CONFLICT', `an environment named "${name}" already exists`, { cause: error })
    : new SvcError('CONFLICT', `environment "${id}" already exists`, { cause: error });
}

type Edit = (row: EnvironmentRow) => Pick<EnvironmentRow, 'name' | 'description' | 'variables'>;

/**
 * Environments on PostgreSQL, sealed and opened as on SQLite (the same contexts, so a row copied
 * between the stores under the same key opens in both).
 */
export function createEnvironmentRepository({ pool, clock, cipher }: PostgresContext): EnvironmentRepository {
  const table = tableName(environments);
  const select = `SELECT ${selectList(environments)} FROM ${table}`;
  const insert = insertSql(environments);
  const contextOf = (tenantId: string, id: string, key: string) => `${tenantId}/${id}/${key}`;

  // Values of recently opened rows, each with the text it was opened from (see the SQLite store).
  const opened = new BoundedMap<string, { variables: string; values: Record<string, unknown>; secretKeys: string[] }>(
    256,
  );
  const open = (row: EnvironmentRow): ResolvedEnvironment => {
    const cacheKey = `${row.tenantId}\u0000${row.id}`;
    let entry = opened.get(cacheKey);
    if (entry === undefined || entry.variables !== row.variables) {
      const values: Record<string, unknown> = {};
      const secretKeys: string[] = [];
      for (const [key, variable] of Object.entries(parseVariables(row))) {
        if ('sealed' in variable) {
          values[key] = JSON.parse(cipher.decrypt(variable.sealed, contextOf(row.tenantId, row.id, key))) as unknown;
          secretKeys.push(key);
        } else values[key] = variable.value;
      }
      entry = { variables: row.variables, values, secretKeys: secretKeys.sort() };
      opened.set(cacheKey, entry);
    }
    return { id: row.id, name: row.name, values: { ...entry.values }, secretKeys: [...entry.secretKeys] };
  };
  const sealValue = (tenantId: string, id: string, key: string, value: unknown) => ({
    sealed: cipher.encrypt(JSON.stringify(value ?? null), contextOf(tenantId, id, key)),
  });
  const seal = (tenantId: string, id: string, definition: EnvironmentDefinition): StoredVariables => {
    const stored = Object.create(null) as StoredVariables;
    for (const [key, value] of Object.entries(definition.variables)) stored[key] = { value };
    for (const [key, value] of Object.entries(definition.secrets)) stored[key] = sealValue(tenantId, id, key, value);
    return stored;
  };

  /** Reads the row locked, changes and writes it in one transaction, so concurrent edits each land. */
  const change = (tenantId: string, id: string, edit: Edit): Promise<EnvironmentRow> =>
    inTransaction(pool, async (client) => {
      const current = (
        await client.query<EnvironmentRow>(`${select} WHERE tenant_id = $1 AND id = $2 FOR UPDATE`, [tenantId, id])
      ).rows[0];
      if (current === undefined) throw notFound(id);
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
      const now = clock.now();
      const row: EnvironmentRow = {
        tenantId,
        id,
        name: definition.name,
        description: definition.description,
        variables: JSON.stringify(seal(tenantId, id, definition)),
        createdAt: now,
        updatedAt: now,
      };
      try {
        await pool.query(insert, rowValues(environments, row));
      } catch (error) {
        const constraint = uniqueViolation(error);
        if (constraint !== undefined) throw conflict(error, constraint, id, definition.name);
        throw error;
      }
      return toRecord(row);
    },

    async get(tenantId, id) {
      const row = await readBy('id', tenantId, id);
      return row === undefined ? undefined : toRecord(row);
    },

    async findByName(tenantId, name) {
      const row = await readBy('name', tenantId, name);
      return row === undefined ? undefined : toRecord(row);
    },

    async update(tenantId, id, definition, options = {}) {
      try {
        return toRecord(
          await change(tenantId, id, (row) => {
            const current = parseVariables(row);
            const variables = seal(tenantId, id, definition);
            for (const key of options.keepSecrets ?? []) {
              const kept = current[key];
              if (kept !== undefined && 'sealed' in kept) variables[key] = kept;
            }
            return { name: definition.name, description: definition.description, variables: JSON.stringify(variables) };
          }),
        );
      } catch (error) {
        const constraint = uniqueViolation(error);
        if (constraint !== undefined) throw conflict(error, constraint, id, definition.name);
        throw error;
      }
    },

    async patch(tenantId, id, patch) {
      return toRecord(
        await change(tenantId, id, (row) => {
          const variables = parseVariables(row);
          for (const key of patch.unset ?? []) delete variables[key];
          for (const [key, value] of Object.entries(patch.variables ?? {})) variables[key] = { value };
          for (const [key, value] of Object.entries(patch.secrets ?? {}))
            variables[key] = sealValue(tenantId, id, key, value);
          return {
            name: row.name,
            description: patch.description ?? row.description,
            variables: JSON.stringify(variables),
          };
        }),
      );
    },

    async delete(tenantId, id) {
      const result = await pool.query(`DELETE FROM ${table} WHERE tenant_id = $1 AND id = $2`, [tenantId, id]);
      return (result.rowCount ?? 0) > 0;
    },

    async list(tenantId) {
      return (
        await pool.query<EnvironmentRow>(`${select} WHERE tenant_id = $1 ORDER BY name, id`, [tenantId])
      ).rows.map(toRecord);
    },

    async resolve(tenantId, id) {
      const row = await readBy('id', tenantId, id);
      return row === undefined ? undefined : open(row);
    },

    async resolveByName(tenantId, name) {
      const row = await readBy('name', tenantId, name);
      return row === undefined ? undefined : open(row);
    },
  };
}
