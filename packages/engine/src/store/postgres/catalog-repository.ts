import { and, asc, eq, sql, type SQL } from 'drizzle-orm';
import { SvcError } from '../../errors.js';
import { afterCursor, foldedSearch, pageSize, toPage } from '../paging.js';
import type {
  CatalogEndpointRecord,
  CatalogImportResult,
  CatalogRepository,
  ListEndpointsQuery,
  Page,
} from '../types.js';
import { toEndpoint, toSpec, toSpecSummary } from '../sqlite/catalog-repository.js';
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
      const diff = await inTransaction(pool, async (client) => {
        // The spec row first, locked: two imports of one spec apply one after the other.
        await client.query(upsertSpec, rowValues(catalogSpecs, specRow));
        const previous = await client.query<{ endpointId: string; endpoint: string }>(
          'SELECT endpoint_id AS "endpointId", endpoint FROM catalog_endpoints WHERE tenant_id = $1 AND spec_id = $2',
          [tenantId, spec.id],
        );
        const before = new Map(previous.rows.map((row) => [row.endpointId, row.endpoint]));
        await client.query('DELETE FROM catalog_endpoints WHERE tenant_id = $1 AND spec_id = $2', [tenantId, spec.id]);
        for (let start = 0; start < rows.length; start += ENDPOINTS_PER_STATEMENT) {
          const chunk = rows.slice(start, start + ENDPOINTS_PER_STATEMENT);
          await client.query(
            insertEndpoints(chunk.length),
            chunk.flatMap((row) => rowValues(catalogEndpoints, row)),
          );
        }
        const added: string[] = [];
        const changed: string[] = [];
        let unchanged = 0;
        for (const row of rows) {
          const earlier = before.get(row.endpointId);
          if (earlier === undefined) added.push(row.endpointId);
          else if (earlier !== row.endpoint) changed.push(row.endpointId);
          else unchanged += 1;
          before.delete(row.endpointId);
        }
        return { added, changed, removed: [...before.keys()], unchanged };
      });
      return { spec: toSpecSummary(specRow), ...diff };
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
      conditions.push(
        afterCursor(query.cursor, 'asc', (after) => [
          [catalogEndpoints.specId, after.id],
          [catalogEndpoints.position, after.at],
        ]),
      );
      const rows = await db
        .select()
        .from(catalogEndpoints)
        .where(and(...conditions))
        .orderBy(asc(catalogEndpoints.specId), asc(catalogEndpoints.position))
        .limit(size + 1);
      return toPage(rows, size, toEndpoint, (row) => ({ at: row.position, id: row.specId }));
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
      const colon = id.indexOf(':');
      if (colon <= 0) return undefined;
      const row = (
        await pool.query<CatalogEndpointRow>(`${select} WHERE tenant_id = $1 AND spec_id = $2 AND endpoint_id = $3`, [
          tenantId,
          id.slice(0, colon),
          id.slice(colon + 1),
        ])
      ).rows[0];
      return row === undefined ? undefined : toEndpoint(row);
    },
  };
}
