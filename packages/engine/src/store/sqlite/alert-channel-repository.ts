import {
  alertChannelConflict,
  alertChannelNotFound,
  createAlertChannelCodec,
  newAlertChannelId,
  toAlertChannelRecord,
} from '../alert-channel-codec.js';
import type { AlertChannelDefinition, AlertChannelRepository } from '../health-types.js';
import type { SqliteContext } from './context.js';
import { alertChannels, type AlertChannelRow } from './health-schema.js';
import { isPrimaryKeyViolation } from './sqlite-errors.js';
import { insertSql, selectList, tableName } from './table-sql.js';

/** A write's error as the contract has it: a repeated name or id is a CONFLICT, anything else stays. */
function asConflict(error: unknown, id: string, name: string): unknown {
  if (!isPrimaryKeyViolation(error)) return error;
  const byName = error instanceof Error && /alert_channels\.name|alert_channels_suite_name_idx/.test(error.message);
  return alertChannelConflict(error, byName, id, name);
}

/**
 * Alert channels on SQLite. Secret parts are sealed before they reach a statement and opened only
 * by `openSecrets` (a delivery being sent).
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

  const codec = createAlertChannelCodec(cipher);

  const replace = sqlite.transaction(
    (tenantId: string, suiteId: string, id: string, definition: AlertChannelDefinition): AlertChannelRow => {
      const current = selectRow.get(tenantId, suiteId, id);
      if (current === undefined) throw alertChannelNotFound(id);
      const row = codec.rowOf(
        tenantId,
        suiteId,
        id,
        definition,
        current.createdAt,
        Math.max(clock.now(), current.updatedAt),
      );
      updateRow.run(bind(row));
      return row;
    },
  );

  return {
    async create(tenantId, suiteId, definition) {
      const id = newAlertChannelId();
      const now = clock.now();
      const row = codec.rowOf(tenantId, suiteId, id, definition, now, now);
      try {
        insertRow.run(bind(row));
      } catch (error) {
        throw asConflict(error, id, definition.name);
      }
      return toAlertChannelRecord(row);
    },

    async get(tenantId, suiteId, id) {
      const row = selectRow.get(tenantId, suiteId, id);
      return row === undefined ? undefined : toAlertChannelRecord(row);
    },

    async list(tenantId, suiteId) {
      return selectAll.all(tenantId, suiteId).map(toAlertChannelRecord);
    },

    async update(tenantId, suiteId, id, definition) {
      try {
        return toAlertChannelRecord(replace.immediate(tenantId, suiteId, id, definition));
      } catch (error) {
        throw asConflict(error, id, definition.name);
      }
    },

    async delete(tenantId, suiteId, id) {
      return deleteRow.run(tenantId, suiteId, id).changes > 0;
    },

    async openSecrets(tenantId, id) {
      const row = selectById.get(tenantId, id);
      return row === undefined ? undefined : codec.openSecrets(row);
    },
  };
}

/** A row as raw statements bind it: SQLite has no booleans, `enabled` is 0 or 1. */
type BoundRow = Omit<AlertChannelRow, 'enabled'> & { enabled: number };
const bind = (row: AlertChannelRow): BoundRow => ({ ...row, enabled: row.enabled ? 1 : 0 });
