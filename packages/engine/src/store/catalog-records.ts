import { and, eq, sql, type Column, type SQL } from 'drizzle-orm';
import { SvcError } from '../errors.js';
import { afterCursor, foldedSearch, type CursorPosition } from './paging.js';
import type {
  CatalogEndpointRecord,
  CatalogImportResult,
  CatalogSpecImport,
  CatalogSpecRecord,
  CatalogSpecSummary,
  ListEndpointsQuery,
} from './types.js';

/*
 * The catalog as both stores keep it: a `catalog_specs` row per spec and a `catalog_endpoints`
 * row per endpoint, JSON as text. Both schemas declare these columns alike, so one conversion
 * serves both.
 */

/** A `catalog_specs` row: the summary, and the document as JSON text. */
export type CatalogSpecRow = CatalogSpecSummary & { document: string };

/** A `catalog_endpoints` row: its place in the spec, tags and endpoint as JSON text. */
export type CatalogEndpointRow = Omit<CatalogEndpointRecord, 'tags' | 'endpoint'> & {
  position: number;
  tags: string;
  endpoint: string;
};

/** Either store's `catalog_endpoints` table: a column for each field of a row. */
export type CatalogEndpointColumns = Record<keyof CatalogEndpointRow, Column>;

/**
 * The rows an import writes: the spec's, and its endpoints' in the spec's order. Two endpoints
 * with the same id throw `SvcError('VALIDATION_ERROR')`.
 */
export function catalogImportRows(
  tenantId: string,
  spec: CatalogSpecImport,
): { specRow: CatalogSpecRow; endpointRows: CatalogEndpointRow[] } {
  const seen = new Set<string>();
  for (const endpoint of spec.endpoints) {
    if (seen.has(endpoint.endpointId)) {
      throw new SvcError('VALIDATION_ERROR', `endpoint id "${endpoint.endpointId}" appears twice in spec "${spec.id}"`);
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
  const endpointRows = spec.endpoints.map((endpoint, position): CatalogEndpointRow => ({
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
  return { specRow, endpointRows };
}

/**
 * What an import changed: `before` maps each endpoint id the spec had to its endpoint JSON,
 * `rows` are the endpoints it has now.
 */
export function endpointChanges(
  before: ReadonlyMap<string, string>,
  rows: readonly CatalogEndpointRow[],
): Omit<CatalogImportResult, 'spec'> {
  const removed = new Map(before);
  const added: string[] = [];
  const changed: string[] = [];
  let unchanged = 0;
  for (const row of rows) {
    const previous = removed.get(row.endpointId);
    if (previous === undefined) added.push(row.endpointId);
    else if (previous !== row.endpoint) changed.push(row.endpointId);
    else unchanged += 1;
    removed.delete(row.endpointId);
  }
  return { added, changed, removed: [...removed.keys()], unchanged };
}

/**
 * The WHERE clause of `listEndpoints`: the tenant, the spec, the search and the cursor (whose id
 * is the spec and its number the position within it).
 */
export function endpointListWhere(
  table: CatalogEndpointColumns,
  tenantId: string,
  query: ListEndpointsQuery,
): SQL | undefined {
  const conditions: (SQL | undefined)[] = [eq(table.tenantId, tenantId)];
  if (query.specId !== undefined) conditions.push(eq(table.specId, query.specId));
  conditions.push(
    foldedSearch(query.search, [
      table.endpointId,
      sql`${table.method} || ' ' || ${table.path}`,
      table.summary,
      table.tags,
    ]),
  );
  conditions.push(
    afterCursor(query.cursor, 'asc', (after) => [
      [table.specId, after.id],
      [table.position, after.at],
    ]),
  );
  return and(...conditions);
}

/** Where the next page of `listEndpoints` starts after `row`. */
export function endpointCursor(row: CatalogEndpointRow): CursorPosition {
  return { at: row.position, id: row.specId };
}

/** `specId:endpointId` split in two; undefined when `id` names no spec. */
export function specQualifiedEndpoint(id: string): { specId: string; endpointId: string } | undefined {
  const colon = id.indexOf(':');
  if (colon <= 0) return undefined;
  return { specId: id.slice(0, colon), endpointId: id.slice(colon + 1) };
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
