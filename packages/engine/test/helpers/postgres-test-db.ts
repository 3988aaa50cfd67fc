import { randomBytes } from 'node:crypto';
import pg from 'pg';

/**
 * The PostgreSQL server store tests run on: `SVC_TEST_POSTGRES_URL`, else the local one
 * (127.0.0.1:5432, database `test`, trust auth as `postgres`, or `root` where that role is the
 * one that exists). Each run works in a schema of its own, dropped when the run ends.
 */
const CANDIDATES = process.env.SVC_TEST_POSTGRES_URL
  ? [process.env.SVC_TEST_POSTGRES_URL]
  : ['postgres://postgres@127.0.0.1:5432/test', 'postgres://root@127.0.0.1:5432/test'];

export type PostgresProbe = { url: string; skipReason?: undefined } | { url?: undefined; skipReason: string };

let probed: Promise<PostgresProbe> | undefined;

/** The URL of a server that answers, or why the PostgreSQL tests skip. */
export function probePostgres(): Promise<PostgresProbe> {
  probed ??= (async () => {
    const problems: string[] = [];
    for (const url of CANDIDATES) {
      const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2_000 });
      try {
        await client.connect();
        await client.query('SELECT 1');
        return { url };
      } catch (error) {
        problems.push(`${url.replace(/:[^:@/]*@/, ':***@')}: ${(error as Error).message}`);
      } finally {
        await client.end().catch(() => undefined);
      }
    }
    return { skipReason: `no PostgreSQL server answers (${problems.join('; ')})` };
  })();
  return probed;
}

/** A schema name no other run uses. */
export function freshSchemaName(label: string): string {
  return `svc_test_${label}_${randomBytes(5).toString('hex')}`;
}

/** Empties every table of `schema` but the migrations' own (a store opened next starts empty). */
export async function emptySchema(url: string, schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const tables = await client.query<{ name: string }>(
      `SELECT tablename AS name FROM pg_tables WHERE schemaname = $1 AND tablename <> 'schema_migrations'`,
      [schema],
    );
    // DELETE rather than TRUNCATE: the tables are small, and TRUNCATE makes new files for each.
    if (tables.rows.length > 0)
      await client.query(
        `SET session_replication_role = replica; ${tables.rows.map((row) => `DELETE FROM "${schema}"."${row.name}";`).join(' ')}`,
      );
  } finally {
    await client.end();
  }
}

export async function dropSchemas(url: string, schemas: string[]): Promise<void> {
  if (schemas.length === 0) return;
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    for (const schema of schemas) await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  } finally {
    await client.end();
  }
}
