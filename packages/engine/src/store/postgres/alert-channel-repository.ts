import {
  alertChannelConflict,
  alertChannelNotFound,
  createAlertChannelCodec,
  newAlertChannelId,
  toAlertChannelRecord,
} from '../alert-channel-codec.js';
import type { AlertChannelRepository } from '../health-types.js';
import type { PostgresContext } from './context.js';
import { alertChannels, type AlertChannelRow } from './health-schema.js';
import { uniqueViolation } from './pg-errors.js';
import { insertSql, rowValues, selectList, tableName } from './table-sql.js';

/** A write's error as the contract has it: a repeated name or id is a CONFLICT, anything else stays. */
function asConflict(error: unknown, id: string, name: string): unknown {
  const constraint = uniqueViolation(error);
  return constraint === undefined
    ? error
    : alertChannelConflict(error, constraint === 'alert_channels_suite_name_idx', id, name);
}

/** Alert channels on PostgreSQL, sealed and opened as on SQLite. */
export function createAlertChannelRepository({ pool, clock, cipher }: PostgresContext): AlertChannelRepository {
  const table = tableName(alertChannels);
  const columns = selectList(alertChannels);
  const select = `SELECT ${columns} FROM ${table}`;
  const insert = insertSql(alertChannels);
  const codec = createAlertChannelCodec(cipher);

  return {
    async create(tenantId, suiteId, definition) {
      const id = newAlertChannelId();
      const now = clock.now();
      const row = codec.rowOf(tenantId, suiteId, id, definition, now, now);
      try {
        await pool.query(insert, rowValues(alertChannels, row));
      } catch (error) {
        throw asConflict(error, id, definition.name);
      }
      return toAlertChannelRecord(row);
    },

    async get(tenantId, suiteId, id) {
      const row = (
        await pool.query<AlertChannelRow>(`${select} WHERE tenant_id = $1 AND suite_id = $2 AND id = $3`, [
          tenantId,
          suiteId,
          id,
        ])
      ).rows[0];
      return row === undefined ? undefined : toAlertChannelRecord(row);
    },

    async list(tenantId, suiteId) {
      return (
        await pool.query<AlertChannelRow>(`${select} WHERE tenant_id = $1 AND suite_id = $2 ORDER BY name, id`, [
          tenantId,
          suiteId,
        ])
      ).rows.map(toAlertChannelRecord);
    },

    async update(tenantId, suiteId, id, definition) {
      // The new row is sealed before the statement; creation time and a later updatedAt stay.
      const row = codec.rowOf(tenantId, suiteId, id, definition, 0, clock.now());
      try {
        const updated = (
          await pool.query<AlertChannelRow>(
            `UPDATE ${table} SET name = $4, type = $5, enabled = $6, repeat_every_ms = $7, settings = $8, secrets = $9,
                    updated_at = greatest($10, updated_at)
              WHERE tenant_id = $1 AND suite_id = $2 AND id = $3 RETURNING ${columns}`,
            [
              tenantId,
              suiteId,
              id,
              row.name,
              row.type,
              row.enabled,
              row.repeatEveryMs,
              row.settings,
              row.secrets,
              row.updatedAt,
            ],
          )
        ).rows[0];
        if (updated === undefined) throw alertChannelNotFound(id);
        return toAlertChannelRecord(updated);
      } catch (error) {
        throw asConflict(error, id, definition.name);
      }
    },

    async delete(tenantId, suiteId, id) {
      const result = await pool.query(`DELETE FROM ${table} WHERE tenant_id = $1 AND suite_id = $2 AND id = $3`, [
        tenantId,
        suiteId,
        id,
      ]);
      return (result.rowCount ?? 0) > 0;
    },

    async openSecrets(tenantId, id) {
      const row = (await pool.query<AlertChannelRow>(`${select} WHERE tenant_id = $1 AND id = $2`, [tenantId, id]))
        .rows[0];
      return row === undefined ? undefined : codec.openSecrets(row);
    },
  };
}
