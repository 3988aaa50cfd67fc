import { randomBytes } from 'node:crypto';
import { SvcError } from '../../errors.js';
import type { AlertChannelDefinition, AlertChannelRecord, AlertChannelRepository } from '../health-types.js';
import type { SqliteContext } from './context.js';
import { alertChannels, type AlertChannelRow } from './health-schema.js';
import { isPrimaryKeyViolation } from './sqlite-errors.js';
import { insertSql, selectList, tableName } from './table-sql.js';

const ID_ALPHABET = 'abcdefghijklmnopqrstuvwxyz234567';

/** `alc_` and 20 base32 characters (100 random bits), like suite ids. */
export function newAlertChannelId(): string {
  let id = 'alc_';
  for (const byte of randomBytes(20)) id += ID_ALPHABET[byte & 31];
  return id;
}

export function notFound(id: string): SvcError {
  return new SvcError('ALERT_CHANNEL_NOT_FOUND', `alert channel "${id}" not found`);
}

function conflict(error: unknown, id: string, name: string): SvcError {
  const byName = error instanceof Error && /alert_channels\.name|alert_channels_suite_name_idx/.test(error.message);
  return byName
    ? new SvcError('CONFLICT', `the suite already has an alert channel named "${name}"`, { cause: error })
    : new SvcError('CONFLICT', `alert channel "${id}" already exists`, { cause: error });
}

/**
 * Alert channels on SQLite. Secret parts are sealed before they reach a statement and opened only
 * by `openSecrets` (a delivery being sent); the sealing context names tenant, channel and secret,
 * so a sealed value copied into another row does not open there.
 */
export function createAlertChannelRepository({ sqlite, clock, cipher }: SqliteContext): AlertChannelRepository {
  const table = tableName(alertChannels);
  const columns = selectList(alertChannels);
  const insertRow = sqlite.prepare<BoundRow>(insertSql(alertChannels));
  const selectRow = sqlite.prepare<[string, string, string], AlertChannelRow>(
    `SELECT ${columns} FROM ${table} WHERE tenant_id = ? AND suite_id = ? AND id = ?`,
  );
  const selectById = sqlite.prepare<[string, string], AlertChannelRow>(
    `SELECT ${columns} FROM ${table} WHERE tenant_id = ? AND id = ?`,
  );
  const selectAll = sqlite.prepare<[string, string], AlertChannelRow>(
    `SELECT ${columns} FROM ${table} WHERE tenant_id = ? AND suite_id = ? ORDER BY name, id`,
  );
  const updateRow = sqlite.prepare<BoundRow>(
    `UPDATE ${table} SET name = @name, type = @type, enabled = @enabled, repeat_every_ms = @repeatEveryMs,
            settings = @settings, secrets = @secrets, updated_at = @updatedAt
      WHERE tenant_id = @tenantId AND suite_id = @suiteId AND id = @id`,
  );
  const deleteRow = sqlite.prepare<[string, string, string]>(
    `DELETE FROM ${table} WHERE tenant_id = ? AND suite_id = ? AND id = ?`,
  );

  const contextOf = (tenantId: string, id: string, key: string) => `alert-channel/${tenantId}/${id}/${key}`;
  const seal = (tenantId: string, id: string, secrets: Record<string, string>): string => {
    const sealed: Record<string, string> = {};
    for (const [key, value] of Object.entries(secrets))
      sealed[key] = cipher.encrypt(value, contextOf(tenantId, id, key));
    return JSON.stringify(sealed);
  };
  const rowOf = (
    tenantId: string,
    suiteId: string,
    id: string,
    definition: AlertChannelDefinition,
    createdAt: number,
    updatedAt: number,
  ): AlertChannelRow => ({
    tenantId,
    id,
    suiteId,
    name: definition.name,
    type: definition.type,
    enabled: definition.enabled,
    repeatEveryMs: definition.repeatEveryMs,
    settings: JSON.stringify(definition.settings),
    secrets: seal(tenantId, id, definition.secrets),
    createdAt,
    updatedAt,
  });
  const replace = sqlite.transaction(
    (tenantId: string, suiteId: string, id: string, definition: AlertChannelDefinition): AlertChannelRow => {
      const current = selectRow.get(tenantId, suiteId, id);
      if (current === undefined) throw notFound(id);
      const row = rowOf(tenantId, suiteId, id, definition, current.createdAt, Math.max(clock.now(), current.updatedAt));
      updateRow.run(bind(row));
      return row;
    },
  );

  return {
    async create(tenantId, suiteId, definition) {
      const id = newAlertChannelId();
      const now = clock.now();
      const row = rowOf(tenantId, suiteId, id, definition, now, now);
      try {
        insertRow.run(bind(row));
      } catch (error) {
        if (isPrimaryKeyViolation(error)) throw conflict(error, id, definition.name);
        throw error;
      }
      return toRecord(row);
    },

    async get(tenantId, suiteId, id) {
      const row = selectRow.get(tenantId, suiteId, id);
      return row === undefined ? undefined : toRecord(row);
    },

    async list(tenantId, suiteId) {
      return selectAll.all(tenantId, suiteId).map(toRecord);
    },

    async update(tenantId, suiteId, id, definition) {
      try {
        return toRecord(replace.immediate(tenantId, suiteId, id, definition));
      } catch (error) {
        if (isPrimaryKeyViolation(error)) throw conflict(error, id, definition.name);
        throw error;
      }
    },

    async delete(tenantId, suiteId, id) {
      return deleteRow.run(tenantId, suiteId, id).changes > 0;
    },

    async openSecrets(tenantId, id) {
      const row = selectById.get(tenantId, id);
      if (row === undefined) return undefined;
      const opened: Record<string, string> = {};
      for (const [key, sealed] of Object.entries(parseSealed(row))) {
        opened[key] = cipher.decrypt(sealed, contextOf(tenantId, id, key));
      }
      return opened;
    },
  };
}

/** A row as raw statements bind it: SQLite has no booleans, `enabled` is 0 or 1. */
type BoundRow = Omit<AlertChannelRow, 'enabled'> & { enabled: number };
const bind = (row: AlertChannelRow): BoundRow => ({ ...row, enabled: row.enabled ? 1 : 0 });

export function parseSealed(row: AlertChannelRow): Record<string, string> {
  return Object.assign(
    Object.create(null) as Record<string, string>,
    JSON.parse(row.secrets) as Record<string, string>,
  );
}

export function toRecord(row: AlertChannelRow): AlertChannelRecord {
  return {
    id: row.id,
    tenantId: row.tenantId,
    suiteId: row.suiteId,
    name: row.name,
    type: row.type,
    // Raw statements read the column as 0 or 1.
    enabled: Boolean(row.enabled),
    repeatEveryMs: row.repeatEveryMs,
    settings: JSON.parse(row.settings) as Record<string, unknown>,
    secretKeys: Object.keys(parseSealed(row)).sort(),
    createdAt: new Date(row.createdAt).toISOString(),
    updatedAt: new Date(row.updatedAt).toISOString(),
  };
}
