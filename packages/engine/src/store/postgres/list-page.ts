import type { InferSelectModel } from 'drizzle-orm';
import type { NodePgDatabase } from 'drizzle-orm/node-postgres';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { ListQuery } from '../list-query.js';
import { toPage } from '../paging.js';
import type { Page } from '../types.js';

/** Reads the page `list` describes from `table`, each row as `toItem` makes it. */
export async function readListPage<Table extends PgTable, Item>(
  db: NodePgDatabase,
  table: Table,
  list: ListQuery<InferSelectModel<Table>>,
  toItem: (row: InferSelectModel<Table>) => Item,
): Promise<Page<Item>> {
  const rows = await db
    .select()
    .from(table as PgTable)
    .where(list.where)
    .orderBy(...list.orderBy)
    .limit(list.size + 1);
  // Drizzle types a select from a table, not from a type parameter: the rows are `table`'s.
  return toPage(rows as InferSelectModel<Table>[], list.size, toItem, list.positionOf);
}
