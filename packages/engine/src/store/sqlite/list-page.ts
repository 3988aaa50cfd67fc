import type { InferSelectModel } from 'drizzle-orm';
import type { BetterSQLite3Database } from 'drizzle-orm/better-sqlite3';
import type { SQLiteTable } from 'drizzle-orm/sqlite-core';
import type { ListQuery } from '../list-query.js';
import { toPage } from '../paging.js';
import type { Page } from '../types.js';

/** Reads the page `list` describes from `table`, each row as `toItem` makes it. */
export function readListPage<Table extends SQLiteTable, Item>(
  db: BetterSQLite3Database,
  table: Table,
  list: ListQuery<InferSelectModel<Table>>,
  toItem: (row: InferSelectModel<Table>) => Item,
): Page<Item> {
  const rows = db
    .select()
    .from(table as SQLiteTable)
    .where(list.where)
    .orderBy(...list.orderBy)
    .limit(list.size + 1)
    .all();
  // Drizzle types a select from a table, not from a type parameter: the rows are `table`'s.
  return toPage(rows as InferSelectModel<Table>[], list.size, toItem, list.positionOf);
}
