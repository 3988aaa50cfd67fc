import { and, asc, eq, sql, type SQL } from 'drizzle-orm';
import { SvcError } from '../../errors.js';
import { afterCursor, foldedSearch, pageSize, registerFold, toPage } from '../paging.js';
import type {
  CatalogEndpointRecord,
  CatalogImportResult,
  CatalogRepository,
  CatalogSpecRecord,
  CatalogSpecSummary,
  ListEndpointsQuery,
  Page,
} from '../types.js';
import type { SqliteContext } from './context.js';
import { catalogEndpoints, catalogSpecs, type CatalogEndpointRow, type CatalogSpecRow } from './schema.js';
import { insertSql } from './table-sql.js';

export function createCatalogRepository({ sqlite, db }: SqliteContext): CatalogRepository {
  registerFold(sqlite);
  const upsertSpec = sqlite.prepare<CatalogSpecRow>(insertSql(catalogSpecs, { upsertOn: ['tenantId', 'id'] }));
  const insertEndpoint = sqlite.prepare<CatalogEndpointRow>(insertSql(catalogEndpoints));
  const previousEndpoints = sqlite.prepare<[string, string], { endpointId: string; endpoint: string }>(
    'SELECT endpoint_id AS endpointId, endpoint FROM catalog_endpoints WHERE tenant_id = ? AND spec_id = ?',
  );
  const deleteEndpoints = sqlite.prepare<[string, string]>(
    'DELETE FROM catalog_endpoints WHERE tenant_id = ? AND spec_id = ?',
  );

  const replace = sqlite.transaction((tenantId: string, specRow: CatalogSpecRow, rows: CatalogEndpointRow[]) => {
    const before = new Map(previousEndpoints.all(tenantId, specRow.id).map((row) => [row.endpointId, row.endpoint]));
    deleteEndpoints.run(tenantId, specRow.id);
    upsertSpec.run(specRow);
    for (const row of rows) insertEndpoint.run(row);
    const added: string[] = [];
    const changed: string[] = [];
    let unchanged = 0;
    for (const row of rows) {
      const previous = before.get(row.endpointId);
      if (previous === undefined) added.push(row.endpointId);
      else if (previous !== row.endpoint) changed.push(row.endpointId);
      else unchanged += 1;
      before.delete(row.endpointId);
    }
    return { added, changed, removed: [...before.keys()], unchanged };
  });

  return {
    async importSpec(tenantId, spec): Promise<CatalogImportResult> {
      const seen = new Set<string>();
      for (const endpoint of spec.endpoints) {
        if (seen.has(endpoint.endpointId)) {
          throw new SvcError(
            'VALIDATION_ERROR',
            `endpoint id "${endpoint.endpointId}" appears twice in spec "${spec.id}"`,
          );
        }
        seen.add(endpoint.endpointId);
      }
      const specRow: CatalogSpecRow = {
        tenantId,
        id: spec.id,
        name: spec.name,
        title: spec.title,
        version: spec.version,
        sourceVersion: spec.sourceVersion,
        document: JSON.stringify(spec.document ?? null),
        endpointCount: spec.endpoints.length,
        importedAt: spec.importedAt,
      };
      const rows = spec.endpoints.map((endpoint, position): CatalogEndpointRow => ({
        tenantId,
        specId: spec.id,
        endpointId: endpoint.endpointId,
        position,
        method: endpoint.method,
        path: endpoint.path,
        summary: endpoint.summary,
        tags: JSON.stringify(endpoint.tags),
        endpoint: JSON.stringify(endpoint.endpoint),
      }));
      const diff = replace.immediate(tenantId, specRow, rows);
      return { spec: toSpecSummary(specRow), ...diff };
    },

    async getSpec(tenantId, id) {
      const row = db
        .select()
        .from(catalogSpecs)
        .where(and(eq(catalogSpecs.tenantId, tenantId), eq(catalogSpecs.id, id)))
        .get();
      return row === undefined ? undefined : toSpec(row);
    },

    async listSpecs(tenantId) {
      return db
        .select()
        .from(catalogSpecs)
        .where(eq(catalogSpecs.tenantId, tenantId))
        .orderBy(asc(catalogSpecs.id))
        .all()
        .map(toSpecSummary);
    },

    async listEndpoints(tenantId, query: ListEndpointsQuery = {}): Promise<Page<CatalogEndpointRecord>> {
      const size = pageSize(query.limit);
      const conditions: (SQL | undefined)[] = [eq(catalogEndpoints.tenantId, tenantId)];
      if (query.specId !== undefined) conditions.push(eq(catalogEndpoints.specId, query.specId));
      conditions.push(
        foldedSearch(query.search, [
          catalogEndpoints.endpointId,
          sql`${catalogEndpoints.method} || ' ' || ${catalogEndpoints.path}`,
          catalogEndpoints.summary,
          catalogEndpoints.tags,
        ]),
      );
      // The cursor's id is the spec and its number the position within it.
      conditions.push(
        afterCursor(query.cursor, 'asc', (after) => [
          [catalogEndpoints.specId, after.id],
          [catalogEndpoints.position, after.at],
        ]),
      );
      const rows = db
        .select()
        .from(catalogEndpoints)
        .where(and(...conditions))
        .orderBy(asc(catalogEndpoints.specId), asc(catalogEndpoints.position))
        .limit(size + 1)
        .all();
      return toPage(rows, size, toEndpoint, (row) => ({ at: row.position, id: row.specId }));
    },

    async getEndpoint(tenantId, id) {
      const exact = db
        .select()
        .from(catalogEndpoints)
        .where(and(eq(catalogEndpoints.tenantId, tenantId), eq(catalogEndpoints.endpointId, id)))
        .orderBy(asc(catalogEndpoints.specId))
        .limit(1)
        .get();
      if (exact !== undefined) return toEndpoint(exact);
      const colon = id.indexOf(':');
      if (colon <= 0) return undefined;
      const row = db
        .select()
        .from(catalogEndpoints)
        .where(
          and(
            eq(catalogEndpoints.tenantId, tenantId),
            eq(catalogEndpoints.specId, id.slice(0, colon)),
            eq(catalogEndpoints.endpointId, id.slice(colon + 1)),
          ),
        )
        .get();
      return row === undefined ? undefined : toEndpoint(row);
    },
  };
}

export function toSpecSummary(row: CatalogSpecRow): CatalogSpecSummary {
  return {
    tenantId: row.tenantId,
    id: row.id,
    name: row.name,
    title: row.title,
    version: row.version,
    sourceVersion: row.sourceVersion,
    endpointCount: row.endpointCount,
    importedAt: row.importedAt,
  };
}

export function toSpec(row: CatalogSpecRow): CatalogSpecRecord {
  return { ...toSpecSummary(row), document: JSON.parse(row.document) as unknown };
}

export function toEndpoint(row: CatalogEndpointRow): CatalogEndpointRecord {
  return {
    tenantId: row.tenantId,
    specId: row.specId,
    endpointId: row.endpointId,
    method: row.method,
    path: row.path,
    summary: row.summary,
    tags: JSON.parse(row.tags) as string[],
    endpoint: JSON.parse(row.endpoint) as Record<string, unknown>,
  };
}
