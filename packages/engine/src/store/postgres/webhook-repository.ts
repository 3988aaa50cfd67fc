import { SvcError } from '../../errors.js';
import type { WebhookRepository, WebhookTriggerRecord } from '../types.js';
import { toDelivery } from '../sqlite/webhook-repository.js';
import { inTransaction, type PostgresContext } from './context.js';
import { uniqueViolation } from './pg-errors.js';
import { webhookDeliveries, webhookTriggers, type WebhookDeliveryRow } from './schema.js';
import { RECEIPTS_PRUNED_PER_CLAIM } from '../sqlite/webhook-repository.js';
import { insertSql, rowValues, selectList, tableName } from './table-sql.js';

/** Trigger paths and callback deliveries on PostgreSQL. */
export function createWebhookRepository({ pool, clock, workChannel }: PostgresContext): WebhookRepository {
  const selectTriggers = `SELECT ${selectList(webhookTriggers)} FROM ${tableName(webhookTriggers)}`;
  const selectDeliveries = `SELECT ${selectList(webhookDeliveries)} FROM ${tableName(webhookDeliveries)}`;
  const insertTrigger = insertSql(webhookTriggers);
  const insertDelivery = insertSql(webhookDeliveries);

  return {
    async claimReceipt(receipt, options) {
      const { tenantId, path, key, executionId, claimedAt, expiresAt } = receipt;
      await pool.query(
        `DELETE FROM webhook_receipts WHERE ctid = ANY(ARRAY(
           SELECT ctid FROM webhook_receipts WHERE expires_at <= $1 LIMIT ${RECEIPTS_PRUNED_PER_CLAIM}))`,
        [claimedAt],
      );
      // A receipt that holds the key may be released or replaced between the insert and the read
      // of it: the claim is then tried again.
      for (;;) {
        const taken = await pool.query(
          `INSERT INTO webhook_receipts (tenant_id, path, replay_key, execution_id, claimed_at, expires_at)
           VALUES ($1, $2, $3, $4, $5, $6)
           ON CONFLICT ON CONSTRAINT webhook_receipts_pk DO UPDATE SET
             execution_id = EXCLUDED.execution_id, claimed_at = EXCLUDED.claimed_at, expires_at = EXCLUDED.expires_at
           WHERE webhook_receipts.expires_at <= EXCLUDED.claimed_at
             OR (webhook_receipts.claimed_at < $7 AND NOT EXISTS (SELECT 1 FROM executions AS e
                   WHERE e.tenant_id = webhook_receipts.tenant_id AND e.id = webhook_receipts.execution_id))
           RETURNING execution_id`,
          [tenantId, path, key, executionId, claimedAt, expiresAt, options.abandonedBefore],
        );
        if ((taken.rowCount ?? 0) > 0) return { claimed: true, executionId };
        const holder = (
          await pool.query<{ executionId: string }>(
            `SELECT execution_id AS "executionId" FROM webhook_receipts
             WHERE tenant_id = $1 AND path = $2 AND replay_key = $3`,
            [tenantId, path, key],
          )
        ).rows[0];
        if (holder !== undefined) return { claimed: false, executionId: holder.executionId };
      }
    },

    async releaseReceipt({ tenantId, path, key, executionId }) {
      await pool.query(
        `DELETE FROM webhook_receipts WHERE tenant_id = $1 AND path = $2 AND replay_key = $3 AND execution_id = $4`,
        [tenantId, path, key, executionId],
      );
    },

    async findTrigger(path) {
      return (await pool.query<WebhookTriggerRecord>(`${selectTriggers} WHERE path = $1`, [path])).rows[0];
    },

    async listTriggers(tenantId, flowId) {
      const query =
        flowId === undefined
          ? pool.query<WebhookTriggerRecord>(`${selectTriggers} WHERE tenant_id = $1 ORDER BY flow_id, node_id`, [
              tenantId,
            ])
          : pool.query<WebhookTriggerRecord>(
              `${selectTriggers} WHERE tenant_id = $1 AND flow_id = $2 ORDER BY node_id`,
              [tenantId, flowId],
            );
      return (await query).rows;
    },

    async replaceTriggers(tenantId, flowId, wanted) {
      await inTransaction(pool, async (client) => {
        const kept = new Map(
          (
            await client.query<WebhookTriggerRecord>(
              `DELETE FROM ${tableName(webhookTriggers)} WHERE tenant_id = $1 AND flow_id = $2
               RETURNING ${selectList(webhookTriggers)}`,
              [tenantId, flowId],
            )
          ).rows.map((row) => [row.nodeId, row]),
        );
        for (const { nodeId, path } of wanted) {
          const previous = kept.get(nodeId);
          const row = {
            path,
            tenantId,
            flowId,
            nodeId,
            createdAt: previous?.path === path ? previous.createdAt : clock.now(),
          };
          try {
            await client.query(insertTrigger, rowValues(webhookTriggers, row));
          } catch (error) {
            if (uniqueViolation(error) === 'webhook_triggers_pk') {
              throw new SvcError(
                'WEBHOOK_PATH_TAKEN',
                `the trigger path "${path}" belongs to another flow; choose another`,
                { details: { path }, cause: error },
              );
            }
            throw error;
          }
        }
      });
    },

    async addDelivery(delivery, options) {
      await inTransaction(pool, async (client) => {
        try {
          await client.query(
            insertDelivery,
            rowValues(webhookDeliveries, {
              tenantId: delivery.tenantId,
              tokenHash: delivery.tokenHash,
              executionId: delivery.executionId,
              nodeId: delivery.nodeId,
              scope: delivery.scope,
              body: JSON.stringify(delivery.body ?? null),
              headers: JSON.stringify(delivery.headers),
              receivedAt: delivery.receivedAt,
            }),
          );
        } catch (error) {
          if (uniqueViolation(error) !== undefined) {
            throw new SvcError('WEBHOOK_TOKEN_USED', 'this callback token was used already', { cause: error });
          }
          throw error;
        }
        // Due now for whichever worker may take it; a process holding the run wakes it itself.
        const woken = await client.query(
          `UPDATE executions SET wake_at = $1 WHERE tenant_id = $2 AND id = $3 AND status = 'Waiting'`,
          [options.wakeAt, delivery.tenantId, delivery.executionId],
        );
        // Delivered with the commit: an idle process claims the released run at once.
        if ((woken.rowCount ?? 0) > 0) await client.query('SELECT pg_notify($1, $2)', [workChannel, 'callback']);
      });
    },

    async getDelivery(tenantId, tokenHash) {
      const row = (
        await pool.query<WebhookDeliveryRow>(`${selectDeliveries} WHERE tenant_id = $1 AND token_hash = $2`, [
          tenantId,
          tokenHash,
        ])
      ).rows[0];
      return row === undefined ? undefined : toDelivery(row);
    },

    async listDeliveries(executionIds) {
      if (executionIds.length === 0) return [];
      const rows = (
        await pool.query<WebhookDeliveryRow>(`${selectDeliveries} WHERE execution_id = ANY($1::text[])`, [
          [...executionIds],
        ])
      ).rows;
      return rows.map(toDelivery);
    },
  };
}
