import { randomBytes } from 'node:crypto';
import { getTableColumns, getTableName, is } from 'drizzle-orm';
import { PgTable } from 'drizzle-orm/pg-core';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import * as sqlite from '@svc/engine/sqlite';
import * as postgres from '@svc/engine/postgres';
import { openPostgresStore, POSTGRES_MIGRATIONS } from '@svc/engine/postgres';
import { describeStoreContract } from './store-contract/contract.js';
import { dropSchemas, emptySchema, freshSchemaName, probePostgres } from './helpers/postgres-test-db.js';

const probe = await probePostgres();
if (probe.skipReason !== undefined) console.warn(`postgres-store.test.ts: skipped: ${probe.skipReason}`);

const schemas: string[] = [];
afterAll(async () => {
  if (probe.url !== undefined) await dropSchemas(probe.url, schemas);
});

describe.skipIf(probe.url === undefined)('PostgreSQL store', () => {
  const url = probe.url!;
  const schema = freshSchemaName('contract');
  schemas.push(schema);
  const secretKey = randomBytes(32);
  let opened = false;
  // The first store of the run makes the schema; each later test starts from emptied tables.
  describeStoreContract('postgres', {
    open: async () => {
      if (opened) await emptySchema(url, schema);
      opened = true;
      return openPostgresStore({ url, schema, secretKey, poolSize: 4 });
    },
    openAnother: () => openPostgresStore({ url, schema, secretKey, poolSize: 4 }),
  });
});

describe.skipIf(probe.url === undefined)('PostgreSQL schema and migrations', () => {
  const url = probe.url!;

  it('mirrors every SQLite table column for column, so both stores share their row conversions', () => {
    const pairs = [
      [sqlite.flows, postgres.flows],
      [sqlite.flowVersions, postgres.flowVersions],
      [sqlite.executions, postgres.executions],
      [sqlite.steps, postgres.steps],
      [sqlite.tenants, postgres.tenants],
      [sqlite.apiClients, postgres.apiClients],
      [sqlite.signingKeys, postgres.signingKeys],
      [sqlite.catalogSpecs, postgres.catalogSpecs],
      [sqlite.catalogEndpoints, postgres.catalogEndpoints],
      [sqlite.jobs, postgres.jobs],
      [sqlite.suites, postgres.suites],
      [sqlite.environments, postgres.environments],
      [sqlite.webhookTriggers, postgres.webhookTriggers],
      [sqlite.webhookDeliveries, postgres.webhookDeliveries],
      [sqlite.webhookReceipts, postgres.webhookReceipts],
      [sqlite.schedules, postgres.schedules],
      [sqlite.alertChannels, postgres.alertChannels],
      [sqlite.healthChecks, postgres.healthChecks],
      [sqlite.alertDeliveries, postgres.alertDeliveries],
    ] as const;
    for (const [lite, pgTable] of pairs) {
      const shape = (columns: Record<string, { name: string; notNull: boolean }>) =>
        Object.entries(columns).map(([key, column]) => [key, column.name, column.notNull]);
      expect(getTableName(pgTable)).toBe(getTableName(lite));
      expect(shape(getTableColumns(pgTable))).toEqual(shape(getTableColumns(lite)));
    }
  });

  it('creates exactly the tables and columns the drizzle schema declares', async () => {
    const schema = freshSchemaName('columns');
    schemas.push(schema);
    const store = await openPostgresStore({ url, schema, secretKey: randomBytes(32) });
    await store.close();
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const rows = (
        await client.query<{ table: string; column: string; type: string; nullable: string }>(
          `SELECT table_name AS table, column_name AS column, data_type AS type, is_nullable AS nullable
             FROM information_schema.columns WHERE table_schema = $1 AND table_name <> 'schema_migrations'
            ORDER BY table_name, ordinal_position`,
          [schema],
        )
      ).rows;
      const declared = Object.values(postgres as Record<string, unknown>)
        .filter((value): value is PgTable => is(value, PgTable))
        .flatMap((table) =>
          Object.values(getTableColumns(table)).map((column) => ({
            table: getTableName(table),
            column: column.name,
            type: column.getSQLType(),
            nullable: column.notNull ? 'NO' : 'YES',
          })),
        );
      const key = (row: { table: string; column: string }) => `${row.table}.${row.column}`;
      expect(rows.map(key).sort()).toEqual(declared.map(key).sort());
      for (const row of declared) expect(rows.find((found) => key(found) === key(row))).toEqual(row);
    } finally {
      await client.end();
    }
  });

  it('migrates once when several processes open a new schema at the same moment', async () => {
    const schema = freshSchemaName('race');
    schemas.push(schema);
    const secretKey = randomBytes(32);
    const stores = await Promise.all(
      Array.from({ length: 4 }, () => openPostgresStore({ url, schema, secretKey, poolSize: 2 })),
    );
    await stores[0]!.tenants.create({ id: 'acme', name: 'Acme', createdAt: 1 });
    expect((await stores[3]!.tenants.get('acme'))?.name).toBe('Acme');
    await Promise.all(stores.map((store) => store.close()));
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const applied = await client.query(`SELECT id FROM "${schema}".schema_migrations`);
      expect(applied.rows.map((row: { id: string }) => row.id)).toEqual(POSTGRES_MIGRATIONS.map((m) => m.id));
    } finally {
      await client.end();
    }
  });

  it('refuses a schema name that is not a plain identifier, and a server that does not answer', async () => {
    await expect(
      openPostgresStore({ url, schema: 'x"; DROP TABLE flows; --', secretKey: randomBytes(32) }),
    ).rejects.toMatchObject({ code: 'CONFIG_ERROR' });
    await expect(
      openPostgresStore({ url: 'postgres://nobody@127.0.0.1:1/none', secretKey: randomBytes(32) }),
    ).rejects.toMatchObject({ code: 'STORE_UNAVAILABLE' });
  });
});

/** A row reads the same in both stores (a compile-time check: the shared conversions rely on it). */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const rowsAgree: [
  Same<typeof sqlite.executions.$inferSelect, typeof postgres.executions.$inferSelect>,
  Same<typeof sqlite.steps.$inferSelect, typeof postgres.steps.$inferSelect>,
  Same<typeof sqlite.schedules.$inferSelect, typeof postgres.schedules.$inferSelect>,
  Same<typeof sqlite.apiClients.$inferSelect, typeof postgres.apiClients.$inferSelect>,
  Same<typeof sqlite.alertChannels.$inferSelect, typeof postgres.alertChannels.$inferSelect>,
  Same<typeof sqlite.alertDeliveries.$inferSelect, typeof postgres.alertDeliveries.$inferSelect>,
] = [true, true, true, true, true, true];
void rowsAgree;
