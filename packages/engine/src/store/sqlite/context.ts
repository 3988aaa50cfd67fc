import type { Database } from 'better-sqlite3';
import type { BetterSQLite3Database } from 'drizzle-orm/better-sqlite3';
import type { Clock } from '../../clock.js';
import type { SecretCipher } from '../../environments/secret-cipher.js';

/** What a repository of the SQLite store works with: one connection, seen two ways. */
export interface SqliteContext {
  /** The raw connection: transactions and the prepared statements of the hot paths. */
  sqlite: Database;
  /** Drizzle over the same connection: the queries whose shape varies (filters, paging). */
  db: BetterSQLite3Database;
  /** Stamps `createdAt`/`updatedAt` that the store itself owns. */
  clock: Clock;
  /** Seals secret values at rest (stored environments, a run's secret env values). */
  cipher: SecretCipher;
}
