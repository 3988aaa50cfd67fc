import { randomBytes } from 'node:crypto';
import { and, desc, eq, isNull, sql, type SQL } from 'drizzle-orm';
import { SvcError } from '../../errors.js';
import type { FlowDocument } from '../../model/flow-schema.js';
import { afterCursor, foldedSearch, pageSize, registerFold, toPage } from '../paging.js';
import type { FlowRepository, FlowSummary, ListFlowsQuery, Page, StoredFlow } from '../types.js';
import type { SqliteContext } from './context.js';
import { flows, flowVersions, type FlowRow } from './schema.js';
import { isPrimaryKeyViolation } from './sqlite-errors.js';
import { insertSql } from './table-sql.js';

const ID_ALPHABET = 'abcdefghijklmnopqrstuvwxyz234567';

/** `flw_` and 20 base32 characters: 100 random bits, lowercase so ids survive case-folding URLs. */
export function newFlowId(): string {
  let id = 'flw_';
  // 32 symbols divide 256 evenly, so masking a byte keeps every symbol equally likely.
  for (const byte of randomBytes(20)) id += ID_ALPHABET[byte & 31];
  return id;
}

export function flowNotFound(id: string): SvcError {
  return new SvcError('FLOW_NOT_FOUND', `flow "${id}" not found`);
}

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
  const updateHead = sqlite.prepare<[string, string, string | null, number, string, number, number, string, string]>(
    `UPDATE flows SET name = ?, description = ?, folder_id = ?, version = ?, document = ?, node_count = ?, updated_at = ?
     WHERE tenant_id = ? AND id = ?`,
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

  const insertNew = sqlite.transaction((row: FlowRow) => {
    insertFlow.run(row);
    insertVersion.run({
      tenantId: row.tenantId,
      flowId: row.id,
      version: 1,
      document: row.document,
      createdAt: row.updatedAt,
    });
  });

  const saveVersion = sqlite.transaction(
    (tenantId: string, id: string, document: FlowDocument, expectedVersion: number | undefined): string => {
      const head = selectHead.get(tenantId, id);
      if (head === undefined) throw flowNotFound(id);
      if (expectedVersion !== undefined && expectedVersion !== head.version) {
        throw new SvcError(
          'CONFLICT',
          `flow "${id}" is at version ${head.version}, not ${expectedVersion}: reload it and apply the change again`,
          { details: { currentVersion: head.version, expectedVersion } },
        );
      }
      const now = clock.now();
      const version = head.version + 1;
      const json = JSON.stringify(stored(document, id, version, head.createdAt, now));
      updateHead.run(
        document.name,
        document.description ?? '',
        document.folderId ?? null,
        version,
        json,
        document.nodes.length,
        now,
        tenantId,
        id,
      );
      insertVersion.run({ tenantId, flowId: id, version, document: json, createdAt: now });
      return json;
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
      const id = document.id ? document.id : newFlowId();
      const now = clock.now();
      const json = JSON.stringify(stored(document, id, 1, now, now));
      try {
        insertNew.immediate({
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
        });
      } catch (error) {
        // A deleted flow keeps its row, so its id stays taken: old versions remain unambiguous.
        if (isPrimaryKeyViolation(error)) {
          throw new SvcError('CONFLICT', `flow "${id}" already exists`, { cause: error });
        }
        throw error;
      }
      // Parsed from the stored text, so the caller gets what `get` will return and shares no
      // objects with the document it passed in.
      return JSON.parse(json) as StoredFlow;
    },

    async get(tenantId, id) {
      const json = selectDocument.get(tenantId, id);
      return json === undefined ? undefined : (JSON.parse(json) as StoredFlow);
    },

    async currentVersion(tenantId, id) {
      return currentVersion(tenantId, id);
    },

    async getVersion(tenantId, id, version) {
      const row = selectVersion.get({ tenantId, id, version });
      return row === undefined ? undefined : (JSON.parse(row.document) as StoredFlow);
    },

    async findByName(tenantId, name) {
      const row = selectByName.get({ tenantId, name });
      return row === undefined ? undefined : (JSON.parse(row.document) as StoredFlow);
    },

    async update(tenantId, id, document, options = {}) {
      forgetVersions();
      const json = saveVersion.immediate(tenantId, id, document, options.expectedVersion);
      return JSON.parse(json) as StoredFlow;
    },

    async delete(tenantId, id) {
      forgetVersions();
      return markDeleted.run({ tenantId, id, now: clock.now() }).changes > 0;
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
      const rows = db
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
        // Both descending, so that the (tenant, updated_at, id) index yields rows in page order.
        .orderBy(desc(flows.updatedAt), desc(flows.id))
        .limit(size + 1)
        .all();
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

/** The document as stored: the store owns id, version and the timestamps, whatever was sent. */
export function stored(
  document: FlowDocument,
  id: string,
  version: number,
  createdAt: number,
  updatedAt: number,
): StoredFlow {
  return {
    ...document,
    id,
    version,
    createdAt: new Date(createdAt).toISOString(),
    updatedAt: new Date(updatedAt).toISOString(),
  };
}
