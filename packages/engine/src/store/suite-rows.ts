import { eq, type AnyColumn } from 'drizzle-orm';
import { SvcError } from '../errors.js';
import { keysetListQuery, type ListQuery } from './list-query.js';
import { foldedSearch } from './paging.js';
import { randomId } from './random-id.js';
import type { ListSuitesQuery, SuiteDefinition, SuiteRecord, SuiteSummary } from './types.js';

/**
 * A suite as both stores keep it: the flow ids (and their count, for summaries) and the source
 * as JSON text, times in milliseconds.
 */
export type SuiteColumns = Omit<SuiteRecord, 'flowIds' | 'source' | 'createdAt' | 'updatedAt'> & {
  flowIds: string;
  flowCount: number;
  source: string | null;
  createdAt: number;
  updatedAt: number;
};

/** `ste_` and 20 base32 characters (100 random bits), like flow ids. */
export function newSuiteId(): string {
  return randomId('ste_');
}

export function suiteNotFound(id: string): SvcError {
  return new SvcError('SUITE_NOT_FOUND', `suite "${id}" not found`);
}

/** The CONFLICT of a write that repeated a suite's name (`byName`) or its id. */
export function suiteConflict(error: unknown, byName: boolean, id: string, name: string): SvcError {
  return byName
    ? new SvcError('CONFLICT', `a suite named "${name}" already exists`, { cause: error })
    : new SvcError('CONFLICT', `suite "${id}" already exists`, { cause: error });
}

export function toSuiteRow(
  tenantId: string,
  id: string,
  definition: SuiteDefinition,
  createdAt: number,
  updatedAt: number,
): SuiteColumns {
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

/** The row an update writes over `current`: the new definition, `updatedAt` never going back. */
export function updatedSuiteRow(current: SuiteColumns, definition: SuiteDefinition, now: number): SuiteColumns {
  return toSuiteRow(current.tenantId, current.id, definition, current.createdAt, Math.max(now, current.updatedAt));
}

export function toSuiteRecord(row: SuiteColumns): SuiteRecord {
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

export function toSuiteSummary(row: SuiteColumns): SuiteSummary {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    mode: row.mode,
    kind: row.kind,
    flowCount: row.flowCount,
    createdAt: new Date(row.createdAt).toISOString(),
    updatedAt: new Date(row.updatedAt).toISOString(),
  };
}

/** A page of a tenant's suites, last updated first, of one kind or matching a search when asked. */
export function suiteListQuery(
  table: Record<'tenantId' | 'kind' | 'name' | 'description' | 'updatedAt' | 'id', AnyColumn>,
  tenantId: string,
  query: ListSuitesQuery,
): ListQuery<SuiteColumns> {
  const filters = [
    eq(table.tenantId, tenantId),
    query.kind === undefined ? undefined : eq(table.kind, query.kind),
    foldedSearch(query.search, [table.name, table.description]),
  ];
  return keysetListQuery(query, filters, 'desc', [table.updatedAt, table.id], (row) => row.updatedAt);
}
