import { asc, eq } from 'drizzle-orm';
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
import { pageSize, toPage } from '../paging.js';
import type {
  CatalogEndpointRecord,
  CatalogImportResult,
  CatalogRepository,
  ListEndpointsQuery,
  Page,
} from '../types.js';
import { inTransaction, type PostgresContext } from './context.js';
import { catalogEndpoints, catalogSpecs, type CatalogEndpointRow, type CatalogSpecRow } from './schema.js';
import { columnKeys, insertSql, rowValues, selectList, tableName } from './table-sql.js';

/** Endpoint rows per INSERT statement (each binds nine values; PostgreSQL allows 65,535). */
const ENDPOINTS_PER_STATEMENT = 500;

export function createCatalogRepository({ pool, db }: PostgresContext): CatalogRepository {
  const upsertSpec = insertSql(catalogSpecs, { upsertOn: ['tenantId', 'id'] });
  const endpointColumns = columnKeys(catalogEndpoints).length;
  const insertEndpoints = (count: number): string => {
    const rows = Array.from(
      { length: count },
      (_, row) =>
        `(${Array.from({ length: endpointColumns }, (_, column) => `$${row * endpointColumns + column + 1}`).join(', ')})`,
    );
    return insertSql(catalogEndpoints).replace(/VALUES \(.*\)$/, `VALUES ${rows.join(', ')}`);
  };

  return {
    async importSpec(tenantId, spec): Promise<CatalogImportResult> {
      const { specRow, endpointRows } = catalogImportRows(tenantId, spec);
      const changes = await inTransaction(pool, async (client) => {
        // The spec row first, locked: two imports of one spec apply one after the other.
        await client.query(upsertSpec, rowValues(catalogSpecs, specRow));
        const previous = await client.query<{ endpointId: string; endpoint: string }>(
          'SELECT endpoint_id AS "endpointId", endpoint FROM catalog_endpoints WHERE tenant_id = $1 AND spec_id = $2',
          [tenantId, spec.id],
        );
        const before = new Map(previous.rows.map((row) => [row.endpointId, row.endpoint]));
        await client.query('DELETE FROM catalog_endpoints WHERE tenant_id = $1 AND spec_id = $2', [tenantId, spec.id]);
        for (let start = 0; start < endpointRows.length; start += ENDPOINTS_PER_STATEMENT) {
          const chunk = endpointRows.slice(start, start + ENDPOINTS_PER_STATEMENT);
          await client.query(
            insertEndpoints(chunk.length),
            chunk.flatMap((row) => rowValues(catalogEndpoints, row)),
          );
        }
        return endpointChanges(before, endpointRows);
      });
      return { spec: toSpecSummary(specRow), ...changes };
    },

    async getSpec(tenantId, id) {
      const row = (
        await pool.query<CatalogSpecRow>(
          `SELECT ${selectList(catalogSpecs)} FROM ${tableName(catalogSpecs)} WHERE tenant_id = $1 AND id = $2`,
          [tenantId, id],
        )
      ).rows[0];
      return row === undefined ? undefined : toSpec(row);
    },

    async listSpecs(tenantId) {
      const rows = await db
        .select()
        .from(catalogSpecs)
        .where(eq(catalogSpecs.tenantId, tenantId))
        .orderBy(asc(catalogSpecs.id));
      return rows.map(toSpecSummary);
    },

    async listEndpoints(tenantId, query: ListEndpointsQuery = {}): Promise<Page<CatalogEndpointRecord>> {
      const size = pageSize(query.limit);
      const rows = await db
        .select()
        .from(catalogEndpoints)
        .where(endpointListWhere(catalogEndpoints, tenantId, query))
        .orderBy(asc(catalogEndpoints.specId), asc(catalogEndpoints.position))
        .limit(size + 1);
      return toPage(rows, size, toEndpoint, endpointCursor);
    },

    async getEndpoint(tenantId, id) {
      const select = `SELECT ${selectList(catalogEndpoints)} FROM ${tableName(catalogEndpoints)}`;
      const exact = (
        await pool.query<CatalogEndpointRow>(
          `${select} WHERE tenant_id = $1 AND endpoint_id = $2 ORDER BY spec_id LIMIT 1`,
          [tenantId, id],
        )
      ).rows[0];
      if (exact !== undefined) return toEndpoint(exact);
      const qualified = specQualifiedEndpoint(id);
      if (qualified === undefined) return undefined;
      const row = (
        await pool.query<CatalogEndpointRow>(`${select} WHERE tenant_id = $1 AND spec_id = $2 AND endpoint_id = $3`, [
          tenantId,
          qualified.specId,
          qualified.endpointId,
        ])
      ).rows[0];
      return row === undefined ? undefined : toEndpoint(row);
    },
  };
}
