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
    throw new SvcError('VALIDATION_ERROR', 'invalid cursor: pass the nextCursor of a previous page', { status: 400 });
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
