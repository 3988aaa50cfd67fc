import { SvcError } from '../../errors.js';
import type { AlertChannelDefinition, AlertChannelRepository } from '../health-types.js';
import { newAlertChannelId, notFound, parseSealed, toRecord } from '../sqlite/alert-channel-repository.js';
import type { PostgresContext } from './context.js';
import { alertChannels, type AlertChannelRow } from './health-schema.js';
import { uniqueViolation } from './pg-errors.js';
import { insertSql, rowValues, selectList, tableName } from './table-sql.js';

function conflict(error: unknown, constraint: string, id: string, name: string): SvcError {
  return constraint === 'alert_channels_suite_name_idx'
    ? new SvcError('CONFLICT', `the suite already has an alert channel named "${name}"`, { cause: error })
    : new SvcError('CONFLICT', `alert channel "${id}" already exists`, { cause: error });
}

/** Alert channels on PostgreSQL, sealed as on SQLite (tenant, channel and secret name in the context). */
export function createAlertChannelRepository({ pool, clock, cipher }: PostgresContext): AlertChannelRepository {
  const table = tableName(alertChannels);
  const columns = selectList(alertChannels);
  const select = `SELECT ${columns} FROM ${table}`;
  const insert = insertSql(alertChannels);
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

  return {
    async create(tenantId, suiteId, definition) {
      const id = newAlertChannelId();
      const now = clock.now();
      const row = rowOf(tenantId, suiteId, id, definition, now, now);
      try {
        await pool.query(insert, rowValues(alertChannels, row));
      } catch (error) {
        const constraint = uniqueViolation(error);
        if (constraint !== undefined) throw conflict(error, constraint, id, definition.name);
        throw error;
      }
      return toRecord(row);
    },

    async get(tenantId, suiteId, id) {
      const row = (
        await pool.query<AlertChannelRow>(`${select} WHERE tenant_id = $1 AND suite_id = $2 AND id = $3`, [
          tenantId,
          suiteId,
          id,
        ])
      ).rows[0];
      return row === undefined ? undefined : toRecord(row);
    },

    async list(tenantId, suiteId) {
      return (
        await pool.query<AlertChannelRow>(`${select} WHERE tenant_id = $1 AND suite_id = $2 ORDER BY name, id`, [
          tenantId,
          suiteId,
        ])
      ).rows.map(toRecord);
    },

    async update(tenantId, suiteId, id, definition) {
      // The new row is sealed before the statement; creation time and a later updatedAt stay.
      const row = rowOf(tenantId, suiteId, id, definition, 0, clock.now());
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
        if (updated === undefined) throw notFound(id);
        return toRecord(updated);
      } catch (error) {
        const constraint = uniqueViolation(error);
        if (constraint !== undefined) throw conflict(error, constraint, id, definition.name);
        throw error;
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
      if (row === undefined) return undefined;
      const opened: Record<string, string> = {};
      for (const [key, sealed] of Object.entries(parseSealed(row))) {
        opened[key] = cipher.decrypt(sealed, contextOf(tenantId, id, key));
      }
      return opened;
    },
  };
}
