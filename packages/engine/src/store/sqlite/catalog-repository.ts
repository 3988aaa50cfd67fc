import { and, asc, eq } from 'drizzle-orm';
import {
  catalogImportRows,
  endpointChanges,
  endpointCursor,
  endpointListWhere,
  specQualifiedEndpoint,
  toEndpoint,
  toSpec,
  toSpecSummary,
} from '../catalog-records.js';
import { pageSize, registerFold, toPage } from '../paging.js';
import type {
  CatalogEndpointRecord,
  CatalogImportResult,
  CatalogRepository,
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
    return endpointChanges(before, rows);
  });

  return {
    async importSpec(tenantId, spec): Promise<CatalogImportResult> {
      const { specRow, endpointRows } = catalogImportRows(tenantId, spec);
      const changes = replace.immediate(tenantId, specRow, endpointRows);
      return { spec: toSpecSummary(specRow), ...changes };
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
      const rows = db
        .select()
        .from(catalogEndpoints)
        .where(endpointListWhere(catalogEndpoints, tenantId, query))
        .orderBy(asc(catalogEndpoints.specId), asc(catalogEndpoints.position))
        .limit(size + 1)
        .all();
      return toPage(rows, size, toEndpoint, endpointCursor);
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
      const qualified = specQualifiedEndpoint(id);
      if (qualified === undefined) return undefined;
      const row = db
        .select()
        .from(catalogEndpoints)
        .where(
          and(
            eq(catalogEndpoints.tenantId, tenantId),
            eq(catalogEndpoints.specId, qualified.specId),
            eq(catalogEndpoints.endpointId, qualified.endpointId),
          ),
        )
        .get();
      return row === undefined ? undefined : toEndpoint(row);
    },
  };
}
