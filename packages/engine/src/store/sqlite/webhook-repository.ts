import { SvcError } from '../../errors.js';
import type { CallbackDeliveryRecord, WebhookReceipt, WebhookRepository, WebhookTriggerRecord } from '../types.js';
import type { SqliteContext } from './context.js';
import { executions, webhookDeliveries, webhookReceipts, webhookTriggers, type WebhookDeliveryRow } from './schema.js';
import { isPrimaryKeyViolation } from './sqlite-errors.js';
import { insertSql, selectList, tableName } from './table-sql.js';

/** How many execution ids one `listDeliveries` statement binds (SQLite allows 32,766 variables). */
const IDS_PER_STATEMENT = 500;
/** Expired receipts one claim deletes: the table stays about as large as the receipts still live. */
export const RECEIPTS_PRUNED_PER_CLAIM = 16;

export function toDelivery(row: WebhookDeliveryRow): CallbackDeliveryRecord {
  return {
    tokenHash: row.tokenHash,
    tenantId: row.tenantId,
    executionId: row.executionId,
    nodeId: row.nodeId,
    scope: row.scope,
    body: JSON.parse(row.body) as unknown,
    headers: JSON.parse(row.headers) as Record<string, string>,
    receivedAt: row.receivedAt,
  };
}

/** Trigger paths and callback deliveries on SQLite. */
export function createWebhookRepository({ sqlite, clock }: SqliteContext): WebhookRepository {
  const triggers = tableName(webhookTriggers);
  const deliveries = tableName(webhookDeliveries);
  const selectTrigger = sqlite.prepare<[string], WebhookTriggerRecord>(
    `SELECT ${selectList(webhookTriggers)} FROM ${triggers} WHERE path = ?`,
  );
  const selectFlowTriggers = sqlite.prepare<[string, string], WebhookTriggerRecord>(
    `SELECT ${selectList(webhookTriggers)} FROM ${triggers} WHERE tenant_id = ? AND flow_id = ? ORDER BY node_id`,
  );
  const selectTenantTriggers = sqlite.prepare<[string], WebhookTriggerRecord>(
    `SELECT ${selectList(webhookTriggers)} FROM ${triggers} WHERE tenant_id = ? ORDER BY flow_id, node_id`,
  );
  const deleteFlowTriggers = sqlite.prepare<[string, string]>(
    `DELETE FROM ${triggers} WHERE tenant_id = ? AND flow_id = ?`,
  );
  const insertTrigger = sqlite.prepare<WebhookTriggerRecord>(insertSql(webhookTriggers));
  const insertDelivery = sqlite.prepare<WebhookDeliveryRow>(insertSql(webhookDeliveries));
  const selectDelivery = sqlite.prepare<[string, string], WebhookDeliveryRow>(
    `SELECT ${selectList(webhookDeliveries)} FROM ${deliveries} WHERE tenant_id = ? AND token_hash = ?`,
  );
  // Due now for whichever worker may take it (released, or held by a process that died); a live
  // process holding the run in memory is not disturbed by this, and wakes it itself.
  const wakeReleased = sqlite.prepare<[number, string, string]>(
    `UPDATE ${tableName(executions)} SET wake_at = ? WHERE tenant_id = ? AND id = ? AND status = 'Waiting'`,
  );

  const receipts = tableName(webhookReceipts);
  const pruneReceipts = sqlite.prepare<[number]>(
    `DELETE FROM ${receipts} WHERE rowid IN (SELECT rowid FROM ${receipts} WHERE expires_at <= ? LIMIT ${RECEIPTS_PRUNED_PER_CLAIM})`,
  );
  // Inserts the receipt, or replaces one that expired or whose claimer never created its execution.
  const upsertReceipt = sqlite.prepare<[string, string, string, string, number, number, number]>(
    `INSERT INTO ${receipts} (tenant_id, path, replay_key, execution_id, claimed_at, expires_at)
     VALUES (?, ?, ?, ?, ?, ?)
     ON CONFLICT (tenant_id, path, replay_key) DO UPDATE SET
       execution_id = excluded.execution_id, claimed_at = excluded.claimed_at, expires_at = excluded.expires_at
     WHERE ${receipts}.expires_at <= excluded.claimed_at
       OR (${receipts}.claimed_at < ? AND NOT EXISTS (SELECT 1 FROM ${tableName(executions)} AS e
             WHERE e.tenant_id = ${receipts}.tenant_id AND e.id = ${receipts}.execution_id))
     RETURNING execution_id`,
  );
  const selectReceipt = sqlite.prepare<[string, string, string], { executionId: string }>(
    `SELECT execution_id AS executionId FROM ${receipts} WHERE tenant_id = ? AND path = ? AND replay_key = ?`,
  );
  const deleteReceipt = sqlite.prepare<[string, string, string, string]>(
    `DELETE FROM ${receipts} WHERE tenant_id = ? AND path = ? AND replay_key = ? AND execution_id = ?`,
  );
  const claim = sqlite.transaction((receipt: WebhookReceipt, abandonedBefore: number) => {
    pruneReceipts.run(receipt.claimedAt);
    const { tenantId, path, key, executionId } = receipt;
    if (upsertReceipt.get(tenantId, path, key, executionId, receipt.claimedAt, receipt.expiresAt, abandonedBefore)) {
      return { claimed: true, executionId };
    }
    return { claimed: false, executionId: selectReceipt.get(tenantId, path, key)!.executionId };
  });

  const replace = sqlite.transaction((tenantId: string, flowId: string, wanted: { nodeId: string; path: string }[]) => {
    const kept = new Map(selectFlowTriggers.all(tenantId, flowId).map((row) => [row.nodeId, row]));
    deleteFlowTriggers.run(tenantId, flowId);
    for (const { nodeId, path } of wanted) {
      const holder = selectTrigger.get(path);
      if (holder !== undefined) {
        throw new SvcError('WEBHOOK_PATH_TAKEN', `the trigger path "${path}" belongs to another flow; choose another`, {
          details: { path },
        });
      }
      const previous = kept.get(nodeId);
      insertTrigger.run({
        path,
        tenantId,
        flowId,
        nodeId,
        createdAt: previous?.path === path ? previous.createdAt : clock.now(),
      });
    }
  });

  const add = sqlite.transaction((delivery: CallbackDeliveryRecord, wakeAt: number) => {
    try {
      insertDelivery.run({
        tenantId: delivery.tenantId,
        tokenHash: delivery.tokenHash,
        executionId: delivery.executionId,
        nodeId: delivery.nodeId,
        scope: delivery.scope,
        body: JSON.stringify(delivery.body ?? null),
        headers: JSON.stringify(delivery.headers),
        receivedAt: delivery.receivedAt,
      });
    } catch (error) {
      if (isPrimaryKeyViolation(error)) {
        throw new SvcError('WEBHOOK_TOKEN_USED', 'this callback token was used already', { cause: error });
      }
      throw error;
    }
    wakeReleased.run(wakeAt, delivery.tenantId, delivery.executionId);
  });

  return {
    async claimReceipt(receipt, options) {
      return claim.immediate(receipt, options.abandonedBefore);
    },
    async releaseReceipt({ tenantId, path, key, executionId }) {
      deleteReceipt.run(tenantId, path, key, executionId);
    },
    async findTrigger(path) {
      return selectTrigger.get(path);
    },
    async listTriggers(tenantId, flowId) {
      return flowId === undefined ? selectTenantTriggers.all(tenantId) : selectFlowTriggers.all(tenantId, flowId);
    },
    async replaceTriggers(tenantId, flowId, wanted) {
      replace.immediate(tenantId, flowId, wanted);
    },
    async addDelivery(delivery, options) {
      add.immediate(delivery, options.wakeAt);
    },
    async getDelivery(tenantId, tokenHash) {
      const row = selectDelivery.get(tenantId, tokenHash);
      return row === undefined ? undefined : toDelivery(row);
    },
    async listDeliveries(executionIds) {
      const found: CallbackDeliveryRecord[] = [];
      for (let start = 0; start < executionIds.length; start += IDS_PER_STATEMENT) {
        const ids = executionIds.slice(start, start + IDS_PER_STATEMENT);
        const rows = sqlite
          .prepare<string[], WebhookDeliveryRow>(
            `SELECT ${selectList(webhookDeliveries)} FROM ${deliveries} WHERE execution_id IN (${ids.map(() => '?').join(', ')})`,
          )
          .all(...ids);
        found.push(...rows.map(toDelivery));
      }
      return found;
    },
  };
}
