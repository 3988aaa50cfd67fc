import { randomBytes } from 'node:crypto';
import { BoundedMap } from '../../bounded-map.js';
import { SvcError } from '../../errors.js';
import {
  SECRET_MASK,
  type EnvironmentDefinition,
  type EnvironmentRecord,
  type EnvironmentRepository,
  type ResolvedEnvironment,
} from '../types.js';
import type { SqliteContext } from './context.js';
import { environments, type EnvironmentRow } from './schema.js';
import { isPrimaryKeyViolation } from './sqlite-errors.js';
import { insertSql, selectList, tableName } from './table-sql.js';

const ID_ALPHABET = 'abcdefghijklmnopqrstuvwxyz234567';

/** `envr_` and 20 base32 characters (100 random bits), like flow and suite ids. */
export function newEnvironmentId(): string {
  let id = 'envr_';
  for (const byte of randomBytes(20)) id += ID_ALPHABET[byte & 31];
  return id;
}

/** One variable as a row holds it: a plain JSON value, or a secret's sealed JSON text. */
export type StoredVariable = { value: unknown } | { sealed: string };
export type StoredVariables = Record<string, StoredVariable>;

export function notFound(id: string): SvcError {
  return new SvcError('ENVIRONMENT_NOT_FOUND', `environment "${id}" not found`);
}

function conflict(error: unknown, id: string, name: string): SvcError {
  const byName = error instanceof Error && /environments\.name|environments_tenant_name_idx/.test(error.message);
  return byName
    ? new SvcError('CONFLICT', `an environment named "${name}" already exists`, { cause: error })
    : new SvcError('CONFLICT', `environment "${id}" already exists`, { cause: error });
}

/**
 * Environments on SQLite. Secret values are sealed with `cipher` before they reach a statement and
 * opened only by `resolve`; the sealing context names tenant, environment and key, so a sealed
 * value moved to another row does not open there.
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

  const contextOf = (tenantId: string, id: string, key: string) => `${tenantId}/${id}/${key}`;

  /*
   * Values of recently opened rows, each with the `variables` text it was opened from. The same
   * text opens to the same values, so a row read again unchanged (a webhook trigger naming its
   * environment, every run of a schedule) is not decrypted again; any write changes the text (a
   * sealed value gets a new nonce each time it is sealed), whichever process made it, and the row
   * is opened anew. Nothing is kept that a read of the row would not confirm.
   */
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
  const seal = (tenantId: string, id: string, definition: EnvironmentDefinition): StoredVariables => {
    const stored = Object.create(null) as StoredVariables;
    for (const [key, value] of Object.entries(definition.variables)) stored[key] = { value };
    for (const [key, value] of Object.entries(definition.secrets))
      stored[key] = { sealed: cipher.encrypt(JSON.stringify(value ?? null), contextOf(tenantId, id, key)) };
    return stored;
  };

  /** Reads, changes and writes one row in a transaction, so concurrent edits of one variable each land. */
  const change = sqlite.transaction(
    (
      tenantId: string,
      id: string,
      edit: (row: EnvironmentRow) => Omit<EnvironmentRow, 'createdAt' | 'updatedAt' | 'tenantId' | 'id'>,
    ): EnvironmentRow => {
      const current = selectRow.get(tenantId, id);
      if (current === undefined) throw notFound(id);
      const row: EnvironmentRow = { ...current, ...edit(current), updatedAt: Math.max(clock.now(), current.updatedAt) };
      updateRow.run(row);
      return row;
    },
  );
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
        insertRow.run(row);
      } catch (error) {
        if (isPrimaryKeyViolation(error)) throw conflict(error, id, definition.name);
        throw error;
      }
      return toRecord(row);
    },

    async get(tenantId, id) {
      const row = selectRow.get(tenantId, id);
      return row === undefined ? undefined : toRecord(row);
    },

    async findByName(tenantId, name) {
      const row = selectByName.get(tenantId, name);
      return row === undefined ? undefined : toRecord(row);
    },

    async update(tenantId, id, definition, options = {}) {
      try {
        return toRecord(
          change.immediate(tenantId, id, (row) => {
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
        if (isPrimaryKeyViolation(error)) throw conflict(error, id, definition.name);
        throw error;
      }
    },

    async patch(tenantId, id, patch) {
      return toRecord(
        change.immediate(tenantId, id, (row) => {
          const variables = parseVariables(row);
          for (const key of patch.unset ?? []) delete variables[key];
          for (const [key, value] of Object.entries(patch.variables ?? {})) variables[key] = { value };
          for (const [key, value] of Object.entries(patch.secrets ?? {})) {
            variables[key] = { sealed: cipher.encrypt(JSON.stringify(value ?? null), contextOf(tenantId, id, key)) };
          }
          return {
            name: row.name,
            description: patch.description ?? row.description,
            variables: JSON.stringify(variables),
          };
        }),
      );
    },

    async delete(tenantId, id) {
      return deleteRow.run(tenantId, id).changes > 0;
    },

    async list(tenantId) {
      return selectAll.all(tenantId).map(toRecord);
    },

    async resolve(tenantId, id): Promise<ResolvedEnvironment | undefined> {
      const row = selectRow.get(tenantId, id);
      return row === undefined ? undefined : open(row);
    },

    async resolveByName(tenantId, name): Promise<ResolvedEnvironment | undefined> {
      const row = selectByName.get(tenantId, name);
      return row === undefined ? undefined : open(row);
    },
  };
}

export function parseVariables(row: EnvironmentRow): StoredVariables {
  // A null-prototype object: a variable named `__proto__` is a key like any other.
  return Object.assign(Object.create(null) as StoredVariables, JSON.parse(row.variables) as StoredVariables);
}

export function toRecord(row: EnvironmentRow): EnvironmentRecord {
  const variables: Record<string, unknown> = {};
  const secretKeys: string[] = [];
  for (const [key, variable] of Object.entries(parseVariables(row))) {
    if ('sealed' in variable) {
      variables[key] = SECRET_MASK;
      secretKeys.push(key);
    } else variables[key] = variable.value;
  }
  return {
    id: row.id,
    tenantId: row.tenantId,
    name: row.name,
    description: row.description,
    variables,
    secretKeys: secretKeys.sort(),
    createdAt: new Date(row.createdAt).toISOString(),
    updatedAt: new Date(row.updatedAt).toISOString(),
  };
}
