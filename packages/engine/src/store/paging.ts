import type { Database } from 'better-sqlite3';
import { and, eq, gt, lt, or, sql, type Column, type SQL, type SQLWrapper } from 'drizzle-orm';
import { SvcError } from '../errors.js';
import type { Page } from './types.js';

export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 200;

/** The page size a list query asked for, brought into 1..200; 50 when not given. */
export function pageSize(limit: number | undefined): number {
  if (limit === undefined || Number.isNaN(limit)) return DEFAULT_PAGE_SIZE;
  return Math.min(MAX_PAGE_SIZE, Math.max(1, Math.trunc(limit)));
}

/**
 * Where a page ended: the sort value and id of its last item. Keyset paging (rather than an
 * offset) keeps pages stable while rows are added at the top of the list.
 */
export interface CursorPosition {
  at: number;
  id: string;
}

export function encodeCursor(position: CursorPosition): string {
  return Buffer.from(JSON.stringify([position.at, position.id]), 'utf8').toString('base64url');
}

export function decodeCursor(cursor: string): CursorPosition {
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    decoded = undefined;
  }
  if (
    !Array.isArray(decoded) ||
    decoded.length !== 2 ||
    typeof decoded[0] !== 'number' ||
    !Number.isFinite(decoded[0]) ||
    typeof decoded[1] !== 'string'
  ) {
    throw new SvcError('VALIDATION_ERROR', 'invalid cursor: pass the nextCursor of a previous page');
  }
  return { at: decoded[0], id: decoded[1] };
}

/**
 * Turns `size + 1` fetched rows into a page: the extra row only tells that another page exists,
 * which spares a count query.
 */
export function toPage<Row, Item>(
  rows: Row[],
  size: number,
  map: (row: Row) => Item,
  positionOf: (row: Row) => CursorPosition,
): Page<Item> {
  const hasMore = rows.length > size;
  const kept = hasMore ? rows.slice(0, size) : rows;
  const last = kept[kept.length - 1];
  return {
    items: kept.map(map),
    nextCursor: hasMore && last !== undefined ? encodeCursor(positionOf(last)) : null,
  };
}

type Key = readonly [column: SQLWrapper, value: unknown];

/**
 * The keyset condition for the rows after `cursor` in a list sorted by two keys, both ascending
 * or both descending: past the first key, or level with it and past the second. Undefined when
 * there is no cursor (the first page).
 *
 * @example
 * conditions.push(afterCursor(query.cursor, 'desc', (after) => [[flows.updatedAt, after.at], [flows.id, after.id]]));
 */
export function afterCursor(
  cursor: string | undefined,
  direction: 'asc' | 'desc',
  keys: (after: CursorPosition) => readonly [Key, Key],
): SQL | undefined {
  if (cursor === undefined) return undefined;
  const [[first, firstValue], [second, secondValue]] = keys(decodeCursor(cursor));
  const beyond = direction === 'desc' ? lt : gt;
  return or(
    beyond(first as Column, firstValue),
    and(eq(first as Column, firstValue), beyond(second as Column, secondValue)),
  );
}

/**
 * Case folding for search, registered on each connection: SQLite's own `lower()` and `LIKE` fold
 * ASCII only, and a flow named "Überweisung" should be found by "überweisung".
 */
const FOLD_FUNCTION = 'svc_fold';

/** Makes `foldedSearch` work on a connection; registering again is harmless. */
export function registerFold(sqlite: Database): void {
  sqlite.function(FOLD_FUNCTION, { deterministic: true }, (value: unknown) =>
    typeof value === 'string' ? value.toLowerCase() : value,
  );
}

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/**
 * Rows where any of `columns` contains `search`, case-folded; undefined for no search (or an
 * empty one). `%` and `_` in the search are plain characters.
 *
 * @example
 * conditions.push(foldedSearch(query.search, [flows.name, flows.description]));
 */
export function foldedSearch(search: string | undefined, columns: SQLWrapper[]): SQL | undefined {
  if (!search) return undefined;
  const pattern = `%${escapeLike(search.toLowerCase())}%`;
  return or(...columns.map((column) => sql`${sql.raw(FOLD_FUNCTION)}(${column}) LIKE ${pattern} ESCAPE '\\'`));
}
