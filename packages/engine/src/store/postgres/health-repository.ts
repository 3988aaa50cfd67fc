import {
  deliveryListQuery,
  finishedAttemptColumns,
  toCheckRecord,
  toDeliveryRecord,
  toDeliveryRow,
  transitionedCheckRow,
} from '../health-rows.js';
import { MAX_KEPT_ALERT_DELIVERIES, type HealthRepository } from '../health-types.js';
import { inTransaction, type PostgresContext } from './context.js';
import { readListPage } from './list-page.js';
import { alertDeliveries, healthChecks, type AlertDeliveryRow, type HealthCheckRow } from './health-schema.js';
import {
  columnKeys,
  columnName as columnNameOf,
  insertSql,
  qualifiedSelectList,
  rowValues,
  selectList,
  tableName,
} from './table-sql.js';

/**
 * Check states and alert deliveries on PostgreSQL. A transition is conditional on the stored
 * version (an insert that meets an existing row, or an update of the version read), so two runs
 * deciding on the same state cannot both alert; a claim takes due rows with `FOR UPDATE SKIP
 * LOCKED`, so several processes never send one delivery twice.
 */
export function createHealthRepository({ pool, db }: PostgresContext): HealthRepository {
  const checks = tableName(healthChecks);
  const deliveries = tableName(alertDeliveries);
  const checkColumns = selectList(healthChecks);
  const deliveryColumns = selectList(alertDeliveries);
  const insertCheck = insertSql(healthChecks);
  const insertDelivery = insertSql(alertDeliveries);
  const checkKeys = columnKeys(healthChecks).filter((key) => !['tenantId', 'suiteId', 'flowId'].includes(key));

  return {
    async listChecks(tenantId, suiteId) {
      return (
        await pool.query<HealthCheckRow>(
          `SELECT ${checkColumns} FROM ${checks} WHERE tenant_id = $1 AND suite_id = $2 ORDER BY flow_id`,
          [tenantId, suiteId],
        )
      ).rows.map(toCheckRecord);
    },

    async getCheck(tenantId, suiteId, flowId) {
      const row = (
        await pool.query<HealthCheckRow>(
          `SELECT ${checkColumns} FROM ${checks} WHERE tenant_id = $1 AND suite_id = $2 AND flow_id = $3`,
          [tenantId, suiteId, flowId],
        )
      ).rows[0];
      return row === undefined ? undefined : toCheckRecord(row);
    },

    async transition(change) {
      const { next } = change;
      const row = transitionedCheckRow(change);
      return inTransaction(pool, async (client) => {
        let written: number;
        if (change.expectedVersion === null) {
          written =
            (await client.query(`${insertCheck} ON CONFLICT DO NOTHING`, rowValues(healthChecks, row))).rowCount ?? 0;
        } else {
          const values = checkKeys.map((key) => (row as Record<string, unknown>)[key]);
          const sets = checkKeys.map((key, i) => `${columnName(key)} = $${i + 5}`);
          written =
            (
              await client.query(
                `UPDATE ${checks} SET ${sets.join(', ')}
                  WHERE tenant_id = $1 AND suite_id = $2 AND flow_id = $3 AND version = $4`,
                [next.tenantId, next.suiteId, next.flowId, change.expectedVersion, ...values],
              )
            ).rowCount ?? 0;
        }
        if (written === 0) return false;
        for (const delivery of change.deliveries)
          await client.query(insertDelivery, rowValues(alertDeliveries, toDeliveryRow(delivery)));
        if (change.deliveries.length > 0) {
          // The oldest delivery still within the newest kept of the suite, then the finished ones before it.
          await client.query(
            `DELETE FROM ${deliveries} AS d
              USING (SELECT created_at, id FROM ${deliveries} WHERE tenant_id = $1 AND suite_id = $2
                      ORDER BY created_at DESC, id DESC LIMIT 1 OFFSET $3) AS boundary
              WHERE d.tenant_id = $1 AND d.suite_id = $2 AND d.status <> 'pending'
                AND (d.created_at < boundary.created_at OR (d.created_at = boundary.created_at AND d.id < boundary.id))`,
            [next.tenantId, next.suiteId, MAX_KEPT_ALERT_DELIVERIES - 1],
          );
        }
        return true;
      });
    },

    async listDeliveries(tenantId, suiteId, query = {}) {
      return readListPage(
        db,
        alertDeliveries,
        deliveryListQuery(alertDeliveries, tenantId, suiteId, query),
        toDeliveryRecord,
      );
    },

    async getDelivery(tenantId, id) {
      const row = (
        await pool.query<AlertDeliveryRow>(
          `SELECT ${deliveryColumns} FROM ${deliveries} WHERE tenant_id = $1 AND id = $2`,
          [tenantId, id],
        )
      ).rows[0];
      return row === undefined ? undefined : toDeliveryRecord(row);
    },

    async claimDue({ now, leaseMs, limit, perChannel, skipChannelIds }) {
      // Due rows numbered per channel in due order, so one claim takes a few of each channel. A
      // row another process is claiming is skipped; one it claimed meanwhile is due later and no
      // longer matches when this update re-reads it.
      const result = await pool.query<AlertDeliveryRow & { dueAt: number }>(
        `UPDATE ${deliveries} AS d SET attempts = d.attempts + 1, next_attempt_at = $2, updated_at = $1
           FROM (SELECT tenant_id, id, next_attempt_at AS due_at FROM (
                   SELECT tenant_id, id, next_attempt_at,
                          ROW_NUMBER() OVER (PARTITION BY channel_id ORDER BY next_attempt_at, id) AS place
                     FROM ${deliveries}
                    WHERE status = 'pending' AND next_attempt_at <= $1 AND NOT (channel_id = ANY($5::text[]))) AS ranked
                  WHERE place <= $4 ORDER BY next_attempt_at LIMIT $3) AS due
          WHERE d.tenant_id = due.tenant_id AND d.id = due.id AND d.status = 'pending' AND d.next_attempt_at <= $1
      RETURNING ${qualifiedSelectList(alertDeliveries, 'd')}, due.due_at AS "dueAt"`,
        [now, now + leaseMs, limit, perChannel ?? Number.MAX_SAFE_INTEGER, skipChannelIds ?? []],
      );
      return result.rows
        .sort((a, b) => a.dueAt - b.dueAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
        .map(({ dueAt, ...row }) => toDeliveryRecord(row));
    },

    async finishAttempt(tenantId, id, attempt, outcome) {
      const set = finishedAttemptColumns(outcome);
      const result = await pool.query(
        `UPDATE ${deliveries}
            SET status = $4, next_attempt_at = $5, last_error = $6, response_status = $7, delivered_at = $8, updated_at = $9
          WHERE tenant_id = $1 AND id = $2 AND status = 'pending' AND attempts = $3`,
        [
          tenantId,
          id,
          attempt,
          set.status,
          set.nextAttemptAt,
          set.lastError,
          set.responseStatus,
          set.deliveredAt,
          set.updatedAt,
        ],
      );
      return (result.rowCount ?? 0) > 0;
    },

    async deleteSuite(tenantId, suiteId) {
      await inTransaction(pool, async (client) => {
        for (const table of ['alert_channels', 'health_checks', 'alert_deliveries'])
          await client.query(`DELETE FROM ${table} WHERE tenant_id = $1 AND suite_id = $2`, [tenantId, suiteId]);
      });
    },
  };
}

/** The SQL name of a health-check column. */
function columnName(key: string): string {
  return columnNameOf(healthChecks, key);
}
