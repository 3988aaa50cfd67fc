/**
 * True for a `SVC_DB` value that names a PostgreSQL database (`postgres://…` or `postgresql://…`)
 * rather than a SQLite file.
 *
 * @example
 * isPostgresUrl('postgres://svc@db:5432/svc'); // true
 * isPostgresUrl('.svc/svc.db'); // false
 */
export function isPostgresUrl(value: string): boolean {
  return /^postgres(ql)?:\/\//i.test(value);
}
