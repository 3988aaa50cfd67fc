import {
  deliveryListQuery,
  finishedAttemptColumns,
  toCheckRecord,
  toDeliveryRecord,
  toDeliveryRow,
  transitionedCheckRow,
} from '../health-rows.js';
import { MAX_KEPT_ALERT_DELIVERIES, type HealthRepository } from '../health-types.js';
import type { SqliteContext } from './context.js';
import { readListPage } from './list-page.js';
import {
  alertChannels,
  alertDeliveries,
  healthChecks,
  type AlertDeliveryRow,
  type HealthCheckRow,
} from './health-schema.js';
import { insertSql, selectList, tableName } from './table-sql.js';

/**
 * Check states and alert deliveries on SQLite. A transition is one `BEGIN IMMEDIATE`
 * transaction (compare the version, write the state, insert the deliveries), and a claim is one
 * UPDATE … RETURNING, so several processes on the file never both alert or both send.
 */
export function createHealthRepository({ sqlite, db }: SqliteContext): HealthRepository {
  const checks = tableName(healthChecks);
  const deliveries = tableName(alertDeliveries);
  const checkColumns = selectList(healthChecks);
  const deliveryColumns = selectList(alertDeliveries);

  const selectChecks = sqlite.prepare<[string, string], HealthCheckRow>(
    `SELECT ${checkColumns} FROM ${checks} WHERE tenant_id = ? AND suite_id = ? ORDER BY flow_id`,
  );
  const selectCheck = sqlite.prepare<[string, string, string], HealthCheckRow>(
    `SELECT ${checkColumns} FROM ${checks} WHERE tenant_id = ? AND suite_id = ? AND flow_id = ?`,
  );
  const upsertCheck = sqlite.prepare<HealthCheckRow>(
    insertSql(healthChecks, { upsertOn: ['tenantId', 'suiteId', 'flowId'] }),
  );
  const insertDelivery = sqlite.prepare<AlertDeliveryRow>(insertSql(alertDeliveries));
  const selectDelivery = sqlite.prepare<[string, string], AlertDeliveryRow>(
    `SELECT ${deliveryColumns} FROM ${deliveries} WHERE tenant_id = ? AND id = ?`,
  );
  // Due rows, numbered per channel in due order, so one claim can take a few of each channel.
  const claim = sqlite.prepare<
    { now: number; until: number; limit: number; perChannel: number; skip: string },
    AlertDeliveryRow
  >(
    `UPDATE ${deliveries} SET attempts = attempts + 1, next_attempt_at = @until, updated_at = @now
      WHERE rowid IN (
        SELECT rowid FROM (
          SELECT rowid, next_attempt_at,
                 ROW_NUMBER() OVER (PARTITION BY channel_id ORDER BY next_attempt_at, id) AS place
            FROM ${deliveries}
           WHERE status = 'pending' AND next_attempt_at <= @now
             AND channel_id NOT IN (SELECT value FROM json_each(@skip)))
         WHERE place <= @perChannel
         ORDER BY next_attempt_at LIMIT @limit)
  RETURNING ${deliveryColumns}`,
  );
  const finish = sqlite.prepare<{
    tenantId: string;
    id: string;
    attempt: number;
    status: string;
    nextAttemptAt: number | null;
    lastError: string | null;
    responseStatus: number | null;
    deliveredAt: number | null;
    updatedAt: number;
  }>(
    `UPDATE ${deliveries}
        SET status = @status, next_attempt_at = @nextAttemptAt, last_error = @lastError,
            response_status = @responseStatus, delivered_at = @deliveredAt, updated_at = @updatedAt
      WHERE tenant_id = @tenantId AND id = @id AND status = 'pending' AND attempts = @attempt`,
  );
  // The oldest delivery still within the newest `keep` of the suite (an index walk), then the
  // finished ones before it: cheap enough to run with every transition that queues alerts.
  const keptBoundary = sqlite.prepare<
    { tenantId: string; suiteId: string; offset: number },
    { at: number; id: string }
  >(
    `SELECT created_at AS at, id FROM ${deliveries} WHERE tenant_id = @tenantId AND suite_id = @suiteId
      ORDER BY created_at DESC, id DESC LIMIT 1 OFFSET @offset`,
  );
  const pruneBefore = sqlite.prepare<{ tenantId: string; suiteId: string; at: number; id: string }>(
    `DELETE FROM ${deliveries}
      WHERE tenant_id = @tenantId AND suite_id = @suiteId AND status != 'pending'
        AND (created_at < @at OR (created_at = @at AND id < @id))`,
  );
  const prune = (tenantId: string, suiteId: string) => {
    const boundary = keptBoundary.get({ tenantId, suiteId, offset: MAX_KEPT_ALERT_DELIVERIES - 1 });
    if (boundary !== undefined) pruneBefore.run({ tenantId, suiteId, ...boundary });
  };
  const deleteChannels = sqlite.prepare<[string, string]>(
    `DELETE FROM ${tableName(alertChannels)} WHERE tenant_id = ? AND suite_id = ?`,
  );
  const deleteChecks = sqlite.prepare<[string, string]>(`DELETE FROM ${checks} WHERE tenant_id = ? AND suite_id = ?`);
  const deleteDeliveries = sqlite.prepare<[string, string]>(
    `DELETE FROM ${deliveries} WHERE tenant_id = ? AND suite_id = ?`,
  );

  const transition = sqlite.transaction((change: Parameters<HealthRepository['transition']>[0]): boolean => {
    const { next } = change;
    const current = selectCheck.get(next.tenantId, next.suiteId, next.flowId);
    if ((current?.version ?? null) !== change.expectedVersion) return false;
    upsertCheck.run(transitionedCheckRow(change));
    for (const delivery of change.deliveries) insertDelivery.run(toDeliveryRow(delivery));
    if (change.deliveries.length > 0) prune(next.tenantId, next.suiteId);
    return true;
  });
  const removeSuite = sqlite.transaction((tenantId: string, suiteId: string) => {
    deleteChannels.run(tenantId, suiteId);
    deleteChecks.run(tenantId, suiteId);
    deleteDeliveries.run(tenantId, suiteId);
  });

  return {
    async listChecks(tenantId, suiteId) {
      return selectChecks.all(tenantId, suiteId).map(toCheckRecord);
    },

    async getCheck(tenantId, suiteId, flowId) {
      const row = selectCheck.get(tenantId, suiteId, flowId);
      return row === undefined ? undefined : toCheckRecord(row);
    },

    async transition(change) {
      return transition.immediate(change);
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
      const row = selectDelivery.get(tenantId, id);
      return row === undefined ? undefined : toDeliveryRecord(row);
    },

    async claimDue({ now, leaseMs, limit, perChannel, skipChannelIds }) {
      return claim
        .all({
          now,
          until: now + leaseMs,
          limit,
          perChannel: perChannel ?? Number.MAX_SAFE_INTEGER,
          skip: JSON.stringify(skipChannelIds ?? []),
        })
        .map(toDeliveryRecord);
    },

    async finishAttempt(tenantId, id, attempt, outcome) {
      return finish.run({ tenantId, id, attempt, ...finishedAttemptColumns(outcome) }).changes > 0;
    },

    async deleteSuite(tenantId, suiteId) {
      removeSuite.immediate(tenantId, suiteId);
    },
  };
}
