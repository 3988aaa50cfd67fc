import type { Pool, PoolClient } from 'pg';
import type { NodePgDatabase } from 'drizzle-orm/node-postgres';
import type { Clock } from '../../clock.js';
import type { SecretCipher } from '../../environments/secret-cipher.js';

/** What a repository of the PostgreSQL store works with: one pool, seen two ways. */
export interface PostgresContext {
  /** Raw statements: transactions, claims and the batched writes of the hot paths. */
  pool: Pool;
  /** Drizzle over the same pool: the queries whose shape varies (filters, paging). */
  db: NodePgDatabase;
  /** Stamps `createdAt`/`updatedAt` that the store itself owns. */
  clock: Clock;
  /** Seals secret values at rest (stored environments, a run's secret env values). */
  cipher: SecretCipher;
  /** The channel `NOTIFY` announces claimable work on (one per schema). */
  workChannel: string;
}

/**
 * Runs `work` in one transaction on one connection of the pool: committed when it resolves,
 * rolled back when it throws.
 */
export async function inTransaction<T>(pool: Pool, work: (client: PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}
