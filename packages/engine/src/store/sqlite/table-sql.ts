import { getTableColumns, getTableName, type Table } from 'drizzle-orm';

/*
 * SQL text for the better-sqlite3 statements of the hot paths, derived from the drizzle tables so
 * that the column lists are written once. Columns are selected under their drizzle property
 * names, so a raw row has exactly the shape of `typeof table.$inferSelect`, and inserts bind
 * named parameters from an object of that shape.
 */

function columns(table: Table): { key: string; name: string }[] {
  return Object.entries(getTableColumns(table)).map(([key, column]) => ({ key, name: column.name }));
}

const quote = (identifier: string): string => `"${identifier.replaceAll('"', '""')}"`;

export function tableName(table: Table): string {
  return quote(getTableName(table));
}

/** `"tenant_id" AS "tenantId", …` for every column. */
export function selectList(table: Table): string {
  return columns(table)
    .map(({ key, name }) => `${quote(name)} AS ${quote(key)}`)
    .join(', ');
}

/** The SQL column name of a drizzle property (for hand-written WHERE and SET clauses). */
export function columnName(table: Table, key: string): string {
  const column = getTableColumns(table)[key];
  if (column === undefined) throw new Error(`table ${getTableName(table)} has no column ${key}`);
  return quote(column.name);
}

/**
 * `INSERT INTO t (…) VALUES (@key, …)` (with `positional`, `?` in column order); with
 * `upsertOn`, an existing row with the same key is overwritten in place (every other column),
 * which keeps its rowid and index entries stable.
 */
export function insertSql(table: Table, options: { upsertOn?: string[]; positional?: boolean } = {}): string {
  const all = columns(table);
  const statement =
    `INSERT INTO ${tableName(table)} (${all.map((c) => quote(c.name)).join(', ')}) ` +
    `VALUES (${all.map((c) => (options.positional ? '?' : `@${c.key}`)).join(', ')})`;
  if (options.upsertOn === undefined) return statement;
  const keyColumns = options.upsertOn.map((key) => columnName(table, key));
  const updates = all
    .map((c) => quote(c.name))
    .filter((name) => !keyColumns.includes(name))
    .map((name) => `${name} = excluded.${name}`);
  return `${statement} ON CONFLICT (${keyColumns.join(', ')}) DO UPDATE SET ${updates.join(', ')}`;
}
