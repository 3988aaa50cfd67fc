/*
 * PostgreSQL's SQLSTATE codes for the constraint failures the repositories turn into their
 * contract's errors. Drizzle wraps a driver error in its own (the driver's is its `cause`).
 */

function driverError(error: unknown): { code?: unknown; constraint?: unknown } | undefined {
  for (let current = error, depth = 0; current instanceof Error && depth < 3; depth += 1) {
    if ('code' in current && typeof current.code === 'string' && /^[0-9A-Z]{5}$/.test(current.code)) return current;
    current = current.cause;
  }
  return undefined;
}

/** The constraint an insert or update broke by repeating a key (23505), or undefined. */
export function uniqueViolation(error: unknown): string | undefined {
  const found = driverError(error);
  return found?.code === '23505' ? String(found.constraint ?? '') : undefined;
}

/** True for a write whose row refers to a parent row that does not exist (23503). */
export function isForeignKeyViolation(error: unknown): boolean {
  return driverError(error)?.code === '23503';
}
