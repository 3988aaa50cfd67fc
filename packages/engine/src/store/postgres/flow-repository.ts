import { and, desc, eq, isNull, type SQL } from 'drizzle-orm';
import { SvcError } from '../../errors.js';
import { afterCursor, foldedSearch, pageSize, toPage } from '../paging.js';
import type { FlowRepository, FlowSummary, ListFlowsQuery, Page, StoredFlow } from '../types.js';
import { flowNotFound, newFlowId, stored } from '../sqlite/flow-repository.js';
import { inTransaction, type PostgresContext } from './context.js';
import { uniqueViolation } from './pg-errors.js';
import { flows, flowVersions, type FlowRow } from './schema.js';
import { insertSql, rowValues } from './table-sql.js';

/**
 * Flows on PostgreSQL. Each row keeps the whole `StoredFlow` as JSON text, as on SQLite, so a
 * read is one lookup and one `JSON.parse`; a save writes the head row and the version row in one
 * transaction, the head locked while the next version number is taken.
 */
export function createFlowRepository({ pool, db, clock }: PostgresContext): FlowRepository {
  const insertFlow = insertSql(flows);
  const insertVersion = insertSql(flowVersions);
  const parse = (json: string): StoredFlow => JSON.parse(json) as StoredFlow;

  return {
    async create(tenantId, document) {
      const id = document.id ? document.id : newFlowId();
      const now = clock.now();
      const json = JSON.stringify(stored(document, id, 1, now, now));
      const row: FlowRow = {
        tenantId,
        id,
        name: document.name,
        description: document.description ?? '',
        folderId: document.folderId ?? null,
        version: 1,
        document: json,
        nodeCount: document.nodes.length,
        createdAt: now,
        updatedAt: now,
        deletedAt: null,
      };
      try {
        await inTransaction(pool, async (client) => {
          await client.query(insertFlow, rowValues(flows, row));
          await client.query(
            insertVersion,
            rowValues(flowVersions, { tenantId, flowId: id, version: 1, document: json, createdAt: now }),
          );
        });
      } catch (error) {
        // A deleted flow keeps its row, so its id stays taken: old versions remain unambiguous.
        if (uniqueViolation(error) !== undefined) {
          throw new SvcError('CONFLICT', `flow "${id}" already exists`, { cause: error });
        }
        throw error;
      }
      return parse(json);
    },

    async get(tenantId, id) {
      const row = (
        await pool.query<{ document: string }>(
          'SELECT document FROM flows WHERE tenant_id = $1 AND id = $2 AND deleted_at IS NULL',
          [tenantId, id],
        )
      ).rows[0];
      return row === undefined ? undefined : parse(row.document);
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
      return row === undefined ? undefined : parse(row.document);
    },

    async findByName(tenantId, name) {
      const row = (
        await pool.query<{ document: string }>(
          `SELECT document FROM flows WHERE tenant_id = $1 AND name = $2 AND deleted_at IS NULL
            ORDER BY updated_at DESC, id DESC LIMIT 1`,
          [tenantId, name],
        )
      ).rows[0];
      return row === undefined ? undefined : parse(row.document);
    },

    async update(tenantId, id, document, options = {}) {
      const json = await inTransaction(pool, async (client) => {
        const head = (
          await client.query<{ version: number; createdAt: number }>(
            `SELECT version, created_at AS "createdAt" FROM flows
              WHERE tenant_id = $1 AND id = $2 AND deleted_at IS NULL FOR UPDATE`,
            [tenantId, id],
          )
        ).rows[0];
        if (head === undefined) throw flowNotFound(id);
        const { expectedVersion } = options;
        if (expectedVersion !== undefined && expectedVersion !== head.version) {
          throw new SvcError(
            'CONFLICT',
            `flow "${id}" is at version ${head.version}, not ${expectedVersion}: reload it and apply the change again`,
            { details: { currentVersion: head.version, expectedVersion } },
          );
        }
        const now = clock.now();
        const version = head.version + 1;
        const text = JSON.stringify(stored(document, id, version, head.createdAt, now));
        await client.query(
          `UPDATE flows SET name = $3, description = $4, folder_id = $5, version = $6, document = $7, node_count = $8,
                  updated_at = $9
            WHERE tenant_id = $1 AND id = $2`,
          [
            tenantId,
            id,
            document.name,
            document.description ?? '',
            document.folderId ?? null,
            version,
            text,
            document.nodes.length,
            now,
          ],
        );
        await client.query(
          insertVersion,
          rowValues(flowVersions, { tenantId, flowId: id, version, document: text, createdAt: now }),
        );
        return text;
      });
      return parse(json);
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
      const conditions: (SQL | undefined)[] = [eq(flows.tenantId, tenantId), isNull(flows.deletedAt)];
      if (query.folderId !== undefined) conditions.push(eq(flows.folderId, query.folderId));
      conditions.push(foldedSearch(query.search, [flows.name, flows.description]));
      conditions.push(
        afterCursor(query.cursor, 'desc', (after) => [
          [flows.updatedAt, after.at],
          [flows.id, after.id],
        ]),
      );
      const rows = await db
        .select({
          id: flows.id,
          name: flows.name,
          description: flows.description,
          folderId: flows.folderId,
          version: flows.version,
          nodeCount: flows.nodeCount,
          updatedAt: flows.updatedAt,
          createdAt: flows.createdAt,
        })
        .from(flows)
        .where(and(...conditions))
        .orderBy(desc(flows.updatedAt), desc(flows.id))
        .limit(size + 1);
      return toPage(
        rows,
        size,
        (row): FlowSummary => ({
          ...row,
          updatedAt: new Date(row.updatedAt).toISOString(),
          createdAt: new Date(row.createdAt).toISOString(),
        }),
        (row) => ({ at: row.updatedAt, id: row.id }),
      );
    },
  };
}
