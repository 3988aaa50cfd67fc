import { desc } from 'drizzle-orm';
import {
  flowCursor,
  flowExists,
  flowListWhere,
  flowNotFound,
  flowSummaryColumns,
  flowVersionRow,
  newFlowRow,
  nextFlowHead,
  parseStoredFlow,
  toFlowSummary,
} from '../flow-records.js';
import { pageSize, toPage } from '../paging.js';
import type { FlowRepository, FlowSummary, ListFlowsQuery, Page } from '../types.js';
import { inTransaction, type PostgresContext } from './context.js';
import { uniqueViolation } from './pg-errors.js';
import { flows, flowVersions } from './schema.js';
import { insertSql, rowValues } from './table-sql.js';

/**
 * Flows on PostgreSQL. Each row keeps the whole `StoredFlow` as JSON text, as on SQLite, so a
 * read is one lookup and one `JSON.parse`; a save writes the head row and the version row in one
 * transaction, the head locked while the next version number is taken.
 */
export function createFlowRepository({ pool, db, clock }: PostgresContext): FlowRepository {
  const insertFlow = insertSql(flows);
  const insertVersion = insertSql(flowVersions);

  return {
    async create(tenantId, document) {
      const now = clock.now();
      const json = await inTransaction(pool, async (client) => {
        // A deleted flow's row, locked, is given to the new flow that takes its id.
        const lastVersion = document.id
          ? (
              await client.query<{ version: number }>(
                `SELECT version FROM flows WHERE tenant_id = $1 AND id = $2 AND deleted_at IS NOT NULL FOR UPDATE`,
                [tenantId, document.id],
              )
            ).rows[0]?.version
          : undefined;
        const row = newFlowRow(tenantId, document, now, lastVersion);
        if (lastVersion !== undefined)
          await client.query(
            `UPDATE flows SET name = $3, description = $4, folder_id = $5, version = $6, document = $7, node_count = $8,
                    created_at = $9, updated_at = $10, deleted_at = NULL
              WHERE tenant_id = $1 AND id = $2`,
            [
              tenantId,
              row.id,
              row.name,
              row.description,
              row.folderId,
              row.version,
              row.document,
              row.nodeCount,
              row.createdAt,
              row.updatedAt,
            ],
          );
        else
          try {
            await client.query(insertFlow, rowValues(flows, row));
          } catch (error) {
            if (uniqueViolation(error) !== undefined) throw flowExists(row.id, error);
            throw error;
          }
        await client.query(insertVersion, rowValues(flowVersions, flowVersionRow(tenantId, row.id, row)));
        return row.document;
      });
      return parseStoredFlow(json);
    },

    async get(tenantId, id) {
      const row = (
        await pool.query<{ document: string }>(
          'SELECT document FROM flows WHERE tenant_id = $1 AND id = $2 AND deleted_at IS NULL',
          [tenantId, id],
        )
      ).rows[0];
      return row === undefined ? undefined : parseStoredFlow(row.document);
    },

    async currentVersion(tenantId, id) {
      // Asked before every run: prepared once per connection.
      const row = (
        await pool.query<{ version: number }>({
          name: 'svc_flow_version',
          text: 'SELECT version FROM flows WHERE tenant_id = $1 AND id = $2 AND deleted_at IS NULL',
          values: [tenantId, id],
        })
      ).rows[0];
      return row?.version;
    },

    async getVersion(tenantId, id, version) {
      const row = (
        await pool.query<{ document: string }>(
          'SELECT document FROM flow_versions WHERE tenant_id = $1 AND flow_id = $2 AND version = $3',
          [tenantId, id, version],
        )
      ).rows[0];
      return row === undefined ? undefined : parseStoredFlow(row.document);
    },

    async findByName(tenantId, name) {
      const row = (
        await pool.query<{ document: string }>(
          `SELECT document FROM flows WHERE tenant_id = $1 AND name = $2 AND deleted_at IS NULL
            ORDER BY updated_at DESC, id DESC LIMIT 1`,
          [tenantId, name],
        )
      ).rows[0];
      return row === undefined ? undefined : parseStoredFlow(row.document);
    },

    async update(tenantId, id, document, options = {}) {
      const json = await inTransaction(pool, async (client) => {
        const current = (
          await client.query<{ version: number; createdAt: number }>(
            `SELECT version, created_at AS "createdAt" FROM flows
              WHERE tenant_id = $1 AND id = $2 AND deleted_at IS NULL FOR UPDATE`,
            [tenantId, id],
          )
        ).rows[0];
        if (current === undefined) throw flowNotFound(id);
        const head = nextFlowHead(id, current, document, options.expectedVersion, clock);
        await client.query(
          `UPDATE flows SET name = $3, description = $4, folder_id = $5, version = $6, document = $7, node_count = $8,
                  updated_at = $9
            WHERE tenant_id = $1 AND id = $2`,
          [
            tenantId,
            id,
            head.name,
            head.description,
            head.folderId,
            head.version,
            head.document,
            head.nodeCount,
            head.updatedAt,
          ],
        );
        await client.query(insertVersion, rowValues(flowVersions, flowVersionRow(tenantId, id, head)));
        return head.document;
      });
      return parseStoredFlow(json);
    },

    async delete(tenantId, id) {
      const result = await pool.query(
        'UPDATE flows SET deleted_at = $3 WHERE tenant_id = $1 AND id = $2 AND deleted_at IS NULL',
        [tenantId, id, clock.now()],
      );
      return (result.rowCount ?? 0) > 0;
    },

    async list(tenantId, query: ListFlowsQuery = {}): Promise<Page<FlowSummary>> {
      const size = pageSize(query.limit);
      const rows = await db
        .select(flowSummaryColumns(flows))
        .from(flows)
        .where(flowListWhere(flows, tenantId, query))
        .orderBy(desc(flows.updatedAt), desc(flows.id))
        .limit(size + 1);
      return toPage(rows, size, toFlowSummary, flowCursor);
    },
  };
}
