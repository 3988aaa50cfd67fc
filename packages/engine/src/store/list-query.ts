import { and, asc, desc, type AnyColumn, type SQL } from 'drizzle-orm';
import { afterCursor, pageSize, type CursorPosition } from './paging.js';

/**
 * One page of a list as both stores read it: how many rows, which ones (the cursor included), in
 * what order, and where a row stands in that order (what the next page's cursor holds).
 */
export interface ListQuery<Row> {
  size: number;
  where: SQL | undefined;
  orderBy: SQL[];
  positionOf: (row: Row) => CursorPosition;
}

/**
 * The page `query` asks for of the rows that pass every filter (an undefined filter passes all),
 * sorted by `sortColumn` and then `idColumn` in `direction`; `sortValue` reads a row's sort value.
 *
 * @example
 * keysetListQuery(query, [eq(jobs.tenantId, tenantId)], 'desc', [jobs.createdAt, jobs.id], (row) => row.createdAt);
 */
export function keysetListQuery<Row extends { id: string }>(
  query: { limit?: number; cursor?: string },
  filters: (SQL | undefined)[],
  direction: 'asc' | 'desc',
  [sortColumn, idColumn]: [AnyColumn, AnyColumn],
  sortValue: (row: Row) => number,
): ListQuery<Row> {
  const order = direction === 'asc' ? asc : desc;
  return {
    size: pageSize(query.limit),
    where: and(
      ...filters,
      afterCursor(query.cursor, direction, (after) => [
        [sortColumn, after.at],
        [idColumn, after.id],
      ]),
    ),
    orderBy: [order(sortColumn), order(idColumn)],
    positionOf: (row) => ({ at: sortValue(row), id: row.id }),
  };
}
