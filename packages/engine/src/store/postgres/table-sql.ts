import { getTableColumns, type Table } from 'drizzle-orm';
import { tableName } from '../sqlite/table-sql.js';

/*
 * SQL text for the raw statements of the PostgreSQL store, derived from the drizzle tables so that
 * column lists are written once (the select list is shared with the SQLite store: every column
 * under its drizzle property name, so a raw row has the shape of `typeof table.$inferSelect`).
 */

export { columnName, selectList, tableName } from '../sqlite/table-sql.js';

const quote = (identifier: string): string => `"${identifier.replaceAll('"', '""')}"`;

/** The property names of a table's columns, in column order. */
export function columnKeys(table: Table): string[] {
  return Object.keys(getTableColumns(table));
}

/**
 * `INSERT INTO t (…) VALUES ($1, …)` for one row; with `upsertOn`, a row with the same key is
 * overwritten (every other column).
 */
export function insertSql(table: Table, options: { upsertOn?: string[] } = {}): string {
  const all = Object.values(getTableColumns(table)).map((column) => quote(column.name));
  const statement = `INSERT INTO ${tableName(table)} (${all.join(', ')}) VALUES (${all.map((_, i) => `$${i + 1}`).join(', ')})`;
  if (options.upsertOn === undefined) return statement;
  const columns = getTableColumns(table);
  const keys = options.upsertOn.map((key) => quote(columns[key]!.name));
  const updates = all.filter((name) => !keys.includes(name)).map((name) => `${name} = excluded.${name}`);
  return `${statement} ON CONFLICT (${keys.join(', ')}) DO UPDATE SET ${updates.join(', ')}`;
}

/** A row's values in the column order of `insertSql`. */
export function rowValues<T extends Table>(table: T, row: T['$inferInsert']): unknown[] {
  return columnKeys(table).map((key) => (row as Record<string, unknown>)[key] ?? null);
}

/** `selectList` with every column qualified by `alias` (for statements that join). */
export function qualifiedSelectList(table: Table, alias: string): string {
  return Object.entries(getTableColumns(table))
    .map(([key, column]) => `${alias}.${quote(column.name)} AS ${quote(key)}`)
    .join(', ');
}

/** `"col" type, …`: the record type `jsonb_to_recordset` reads a table's rows as. */
export function recordType(table: Table): string {
  return Object.values(getTableColumns(table))
    .map((column) => `${quote(column.name)} ${column.getSQLType()}`)
    .join(', ');
}

/** `"col", …` for every column, in column order. */
export function columnList(table: Table): string {
  return Object.values(getTableColumns(table))
    .map((column) => quote(column.name))
    .join(', ');
}
