import { randomBytes } from 'node:crypto';
import { and, desc, eq, type SQL } from 'drizzle-orm';
import { SvcError } from '../../errors.js';
import { afterCursor, foldedSearch, pageSize, registerFold, toPage } from '../paging.js';
import type { ListSuitesQuery, Page, SuiteDefinition, SuiteRecord, SuiteRepository, SuiteSummary } from '../types.js';
import type { SqliteContext } from './context.js';
import { suites, type SuiteRow } from './schema.js';
import { isPrimaryKeyViolation } from './sqlite-errors.js';
import { insertSql, selectList, tableName } from './table-sql.js';

const ID_ALPHABET = 'abcdefghijklmnopqrstuvwxyz234567';

/** `ste_` and 20 base32 characters (100 random bits), like flow ids. */
export function newSuiteId(): string {
  let id = 'ste_';
  for (const byte of randomBytes(20)) id += ID_ALPHABET[byte & 31];
  return id;
}

export function suiteNotFound(id: string): SvcError {
  return new SvcError('SUITE_NOT_FOUND', `suite "${id}" not found`);
}

/** A unique index names the constraint it broke in the message: the name, or the id. */
function conflict(error: unknown, id: string, name: string): SvcError {
  const byName = error instanceof Error && /suites\.name|suites_tenant_name_idx/.test(error.message);
  return byName
    ? new SvcError('CONFLICT', `a suite named "${name}" already exists`, { cause: error })
    : new SvcError('CONFLICT', `suite "${id}" already exists`, { cause: error });
}

export function createSuiteRepository({ sqlite, db, clock }: SqliteContext): SuiteRepository {
  registerFold(sqlite);
  const table = tableName(suites);
  const insertSuite = sqlite.prepare<SuiteRow>(insertSql(suites));
  const selectSuite = sqlite.prepare<[string, string], SuiteRow>(
    `SELECT ${selectList(suites)} FROM ${table} WHERE tenant_id = ? AND id = ?`,
  );
  const selectByName = sqlite.prepare<[string, string], SuiteRow>(
    `SELECT ${selectList(suites)} FROM ${table} WHERE tenant_id = ? AND name = ?`,
  );
  const updateSuite = sqlite.prepare<SuiteRow>(
    `UPDATE ${table} SET name = @name, description = @description, mode = @mode, kind = @kind, flow_ids = @flowIds,
            flow_count = @flowCount, source = @source, updated_at = @updatedAt
      WHERE tenant_id = @tenantId AND id = @id`,
  );
  const deleteSuite = sqlite.prepare<[string, string]>(`DELETE FROM ${table} WHERE tenant_id = ? AND id = ?`);

  const replace = sqlite.transaction((tenantId: string, id: string, definition: SuiteDefinition): SuiteRow => {
    const current = selectSuite.get(tenantId, id);
    if (current === undefined) throw suiteNotFound(id);
    const row = toRow(tenantId, id, definition, current.createdAt, Math.max(clock.now(), current.updatedAt));
    updateSuite.run(row);
    return row;
  });

  return {
    async create(tenantId, definition, options = {}) {
      const id = options.id ?? newSuiteId();
      const now = clock.now();
      const row = toRow(tenantId, id, definition, now, now);
      try {
        insertSuite.run(row);
      } catch (error) {
        if (isPrimaryKeyViolation(error)) throw conflict(error, id, definition.name);
        throw error;
      }
      return toRecord(row);
    },

    async get(tenantId, id) {
      const row = selectSuite.get(tenantId, id);
      return row === undefined ? undefined : toRecord(row);
    },

    async findByName(tenantId, name) {
      const row = selectByName.get(tenantId, name);
      return row === undefined ? undefined : toRecord(row);
    },

    async update(tenantId, id, definition) {
      try {
        return toRecord(replace.immediate(tenantId, id, definition));
      } catch (error) {
        if (isPrimaryKeyViolation(error)) throw conflict(error, id, definition.name);
        throw error;
      }
    },

    async delete(tenantId, id) {
      return deleteSuite.run(tenantId, id).changes > 0;
    },

    async list(tenantId, query: ListSuitesQuery = {}): Promise<Page<SuiteSummary>> {
      const size = pageSize(query.limit);
      const conditions: (SQL | undefined)[] = [eq(suites.tenantId, tenantId)];
      if (query.kind !== undefined) conditions.push(eq(suites.kind, query.kind));
      conditions.push(foldedSearch(query.search, [suites.name, suites.description]));
      conditions.push(
        afterCursor(query.cursor, 'desc', (after) => [
          [suites.updatedAt, after.at],
          [suites.id, after.id],
        ]),
      );
      const rows = db
        .select()
        .from(suites)
        .where(and(...conditions))
        .orderBy(desc(suites.updatedAt), desc(suites.id))
        .limit(size + 1)
        .all();
      return toPage(
        rows,
        size,
        (row): SuiteSummary => ({
          id: row.id,
          name: row.name,
          description: row.description,
          mode: row.mode,
          kind: row.kind,
          flowCount: row.flowCount,
          createdAt: new Date(row.createdAt).toISOString(),
          updatedAt: new Date(row.updatedAt).toISOString(),
        }),
        (row) => ({ at: row.updatedAt, id: row.id }),
      );
    },
  };
}

export function toRow(
  tenantId: string,
  id: string,
  definition: SuiteDefinition,
  createdAt: number,
  updatedAt: number,
): SuiteRow {
  return {
    tenantId,
    id,
    name: definition.name,
    description: definition.description,
    mode: definition.mode,
    kind: definition.kind,
    flowIds: JSON.stringify(definition.flowIds),
    flowCount: definition.flowIds.length,
    source: definition.source === null ? null : JSON.stringify(definition.source),
    createdAt,
    updatedAt,
  };
}

export function toRecord(row: SuiteRow): SuiteRecord {
  return {
    id: row.id,
    tenantId: row.tenantId,
    name: row.name,
    description: row.description,
    mode: row.mode,
    kind: row.kind,
    flowIds: JSON.parse(row.flowIds) as string[],
    source: row.source === null ? null : (JSON.parse(row.source) as Record<string, unknown>),
    createdAt: new Date(row.createdAt).toISOString(),
    updatedAt: new Date(row.updatedAt).toISOString(),
  };
}
