import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import type { FlowDocument } from '../../model/flow-schema.js';
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
  type FlowHead,
} from '../flow-records.js';
import { pageSize, registerFold, toPage } from '../paging.js';
import type { FlowRepository, FlowSummary, ListFlowsQuery, Page } from '../types.js';
import type { SqliteContext } from './context.js';
import { flows, flowVersions, type FlowRow } from './schema.js';
import { isPrimaryKeyViolation } from './sqlite-errors.js';
import { insertSql } from './table-sql.js';

/*
 * `get`, `create` and `update` run on every flow run and save, so they use better-sqlite3
 * statements prepared once; the rest goes through drizzle (prepared where the shape is fixed).
 * Each row keeps the whole `StoredFlow` as JSON, so a read is one lookup and one `JSON.parse`.
 */
export function createFlowRepository({ sqlite, db, clock }: SqliteContext): FlowRepository {
  registerFold(sqlite);

  const insertFlow = sqlite.prepare<FlowRow>(insertSql(flows));
  const insertVersion = sqlite.prepare<typeof flowVersions.$inferInsert>(insertSql(flowVersions));
  const selectDocument = sqlite
    .prepare<[string, string], string>(
      'SELECT document FROM flows WHERE tenant_id = ? AND id = ? AND deleted_at IS NULL',
    )
    .pluck();
  const selectHead = sqlite.prepare<[string, string], { version: number; createdAt: number }>(
    'SELECT version, created_at AS createdAt FROM flows WHERE tenant_id = ? AND id = ? AND deleted_at IS NULL',
  );
  const selectDeletedVersion = sqlite
    .prepare<[string, string], number>(
      'SELECT version FROM flows WHERE tenant_id = ? AND id = ? AND deleted_at IS NOT NULL',
    )
    .pluck();
  const reviveFlow = sqlite.prepare<FlowRow>(
    `UPDATE flows SET name = @name, description = @description, folder_id = @folderId, version = @version,
       document = @document, node_count = @nodeCount, created_at = @createdAt, updated_at = @updatedAt,
       deleted_at = NULL
     WHERE tenant_id = @tenantId AND id = @id AND deleted_at IS NOT NULL`,
  );
  const updateHead = sqlite.prepare<FlowHead & { tenantId: string; id: string }>(
    `UPDATE flows SET name = @name, description = @description, folder_id = @folderId, version = @version,
       document = @document, node_count = @nodeCount, updated_at = @updatedAt
     WHERE tenant_id = @tenantId AND id = @id`,
  );

  const selectVersion = db
    .select({ document: flowVersions.document })
    .from(flowVersions)
    .where(
      and(
        eq(flowVersions.tenantId, sql.placeholder('tenantId')),
        eq(flowVersions.flowId, sql.placeholder('id')),
        eq(flowVersions.version, sql.placeholder('version')),
      ),
    )
    .prepare();
  const selectByName = db
    .select({ document: flows.document })
    .from(flows)
    .where(
      and(
        eq(flows.tenantId, sql.placeholder('tenantId')),
        eq(flows.name, sql.placeholder('name')),
        isNull(flows.deletedAt),
      ),
    )
    .orderBy(desc(flows.updatedAt), desc(flows.id))
    .limit(1)
    .prepare();
  const markDeleted = db
    .update(flows)
    .set({ deletedAt: sql`${sql.placeholder('now')}` })
    .where(
      and(
        eq(flows.tenantId, sql.placeholder('tenantId')),
        eq(flows.id, sql.placeholder('id')),
        isNull(flows.deletedAt),
      ),
    )
    .prepare();

  /** A new flow's row, or a deleted flow's row given to the new flow that takes its id. */
  const insertNew = sqlite.transaction((tenantId: string, document: FlowDocument, now: number): FlowRow => {
    const lastVersion = document.id ? selectDeletedVersion.get(tenantId, document.id) : undefined;
    const row = newFlowRow(tenantId, document, now, lastVersion);
    if (lastVersion !== undefined) reviveFlow.run(row);
    else
      try {
        insertFlow.run(row);
      } catch (error) {
        if (isPrimaryKeyViolation(error)) throw flowExists(row.id, error);
        throw error;
      }
    insertVersion.run(flowVersionRow(row.tenantId, row.id, row));
    return row;
  });

  const saveVersion = sqlite.transaction(
    (tenantId: string, id: string, document: FlowDocument, expectedVersion: number | undefined): string => {
      const current = selectHead.get(tenantId, id);
      if (current === undefined) throw flowNotFound(id);
      const head = nextFlowHead(id, current, document, expectedVersion, clock);
      updateHead.run({ ...head, tenantId, id });
      insertVersion.run(flowVersionRow(tenantId, id, head));
      return head.document;
    },
  );

  /*
   * Every run asks for its flow's current version first. The answer is kept while no flow
   * changed: `PRAGMA data_version` moves when another connection commits anything (another
   * process, or another store in this one), and then the flows' change counter tells
   * whether flows were part of it. This repository's own writes clear what is kept.
   */
  const dataVersion = sqlite.prepare<[], number>('PRAGMA data_version').pluck();
  const flowChanges = sqlite.prepare<[], number>("SELECT counter FROM change_counters WHERE name = 'flows'").pluck();
  const versions = new Map<string, number | undefined>();
  let versionsAt: number | undefined;
  let changesAt: number | undefined;
  const forgetVersions = (): void => versions.clear();
  function currentVersion(tenantId: string, id: string): number | undefined {
    const at = dataVersion.get();
    if (at !== versionsAt) {
      versionsAt = at;
      const changes = flowChanges.get();
      if (changes !== changesAt) {
        versions.clear();
        changesAt = changes;
      }
    }
    if (versions.size >= 10_000) versions.clear();
    const key = `${tenantId}\u0000${id}`;
    if (versions.has(key)) return versions.get(key);
    const version = selectHead.get(tenantId, id)?.version;
    versions.set(key, version);
    return version;
  }

  return {
    async create(tenantId, document) {
      forgetVersions();
      const row = insertNew.immediate(tenantId, document, clock.now());
      // Parsed from the stored text, so the caller gets what `get` will return and shares no
      // objects with the document it passed in.
      return parseStoredFlow(row.document);
    },

    async get(tenantId, id) {
      const json = selectDocument.get(tenantId, id);
      return json === undefined ? undefined : parseStoredFlow(json);
    },

    async currentVersion(tenantId, id) {
      return currentVersion(tenantId, id);
    },

    async getVersion(tenantId, id, version) {
      const row = selectVersion.get({ tenantId, id, version });
      return row === undefined ? undefined : parseStoredFlow(row.document);
    },

    async findByName(tenantId, name) {
      const row = selectByName.get({ tenantId, name });
      return row === undefined ? undefined : parseStoredFlow(row.document);
    },

    async update(tenantId, id, document, options = {}) {
      forgetVersions();
      return parseStoredFlow(saveVersion.immediate(tenantId, id, document, options.expectedVersion));
    },

    async delete(tenantId, id) {
      forgetVersions();
      return markDeleted.run({ tenantId, id, now: clock.now() }).changes > 0;
    },

    async list(tenantId, query: ListFlowsQuery = {}): Promise<Page<FlowSummary>> {
      const size = pageSize(query.limit);
      const rows = db
        .select(flowSummaryColumns(flows))
        .from(flows)
        .where(flowListWhere(flows, tenantId, query))
        // Both descending, so that the (tenant, updated_at, id) index yields rows in page order.
        .orderBy(desc(flows.updatedAt), desc(flows.id))
        .limit(size + 1)
        .all();
      return toPage(rows, size, toFlowSummary, flowCursor);
    },
  };
}
