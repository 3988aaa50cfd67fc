import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import Database from 'better-sqlite3';
import { getTableColumns, getTableName, type Table } from 'drizzle-orm';
import pg from 'pg';
import { SvcError } from '../../errors.js';
import { loadOrCreateKeyFile } from '../../environments/secret-key-file.js';
import { openSqliteStore } from '../sqlite/open-sqlite-store.js';
import * as sqliteHealth from '../sqlite/health-schema.js';
import * as sqliteTables from '../sqlite/schema.js';
import { selectList } from '../sqlite/table-sql.js';
import * as pgHealth from './health-schema.js';
import { openPostgresStore } from './open-postgres-store.js';
import * as pgTables from './schema.js';
import { columnList, recordType, tableName } from './table-sql.js';

/** Rows per INSERT: one JSON document each, bound as one value. */
const ROWS_PER_STATEMENT = 500;

/** Every table, parents before the rows that refer to them. */
const TABLES: readonly (readonly [Table, Table])[] = [
  [sqliteTables.tenants, pgTables.tenants],
  [sqliteTables.apiClients, pgTables.apiClients],
  [sqliteTables.signingKeys, pgTables.signingKeys],
  [sqliteTables.flows, pgTables.flows],
  [sqliteTables.flowVersions, pgTables.flowVersions],
  [sqliteTables.executions, pgTables.executions],
  [sqliteTables.steps, pgTables.steps],
  [sqliteTables.catalogSpecs, pgTables.catalogSpecs],
  [sqliteTables.catalogEndpoints, pgTables.catalogEndpoints],
  [sqliteTables.jobs, pgTables.jobs],
  [sqliteTables.suites, pgTables.suites],
  [sqliteTables.environments, pgTables.environments],
  [sqliteTables.webhookTriggers, pgTables.webhookTriggers],
  [sqliteTables.webhookDeliveries, pgTables.webhookDeliveries],
  [sqliteTables.webhookReceipts, pgTables.webhookReceipts],
  [sqliteTables.schedules, pgTables.schedules],
  [sqliteHealth.alertChannels, pgHealth.alertChannels],
  [sqliteHealth.healthChecks, pgHealth.healthChecks],
  [sqliteHealth.alertDeliveries, pgHealth.alertDeliveries],
];

export interface CopyFromSqliteOptions {
  /** The SQLite store's file. */
  from: string;
  /** The PostgreSQL database's URL; its schema (the connection's `search_path`) must hold no data yet. */
  to: string;
  /**
   * The SQLite store's secret key (`SVC_SECRET_KEY`); without it, the key file beside the store.
   * Sealed values are copied as they are, so the PostgreSQL processes must use this key.
   */
  secretKey?: Buffer;
  /** Told each table as it is copied. */
  onTable?: (table: string, rows: number) => void;
}

export interface CopyFromSqliteResult {
  /** Rows copied, by table. */
  rows: Record<string, number>;
  /** The key the copied secrets are sealed with: every PostgreSQL process must run with it. */
  secretKey: Buffer;
}

/**
 * Copies everything an embedded SQLite store holds (tenants and clients, signing keys, flows and
 * their versions, executions with their steps, catalog, jobs, suites, environments, webhooks,
 * schedules, health checks and alerts) into an empty PostgreSQL database, in one transaction: the
 * target ends with all of it or none. Both stores are brought up to date first. Secret values stay
 * sealed as they are, under the SQLite store's key.
 *
 * @example
 * const { rows } = await copySqliteToPostgres({ from: '.svc/svc.db', to: 'postgres://svc@db:5432/svc' });
 */
export async function copySqliteToPostgres(options: CopyFromSqliteOptions): Promise<CopyFromSqliteResult> {
  const from = resolve(options.from);
  if (!existsSync(from)) throw new SvcError('VALIDATION_ERROR', `no SQLite store at ${from}`);
  const secretKey = options.secretKey ?? loadOrCreateKeyFile(`${from}.key`);
  // Opening each store applies its migrations: the source reads in the current shape, the target has its tables.
  await openSqliteStore({ path: from, secretKey }).close();
  await (await openPostgresStore({ url: options.to, secretKey, poolSize: 1 })).close();

  const source = new Database(from, { readonly: true, fileMustExist: true });
  const target = new pg.Client({ connectionString: options.to });
  const rows: Record<string, number> = {};
  try {
    await target.connect();
    await target.query('BEGIN');
    const held = await target.query<{ rows: string }>(
      'SELECT (SELECT count(*) FROM tenants) + (SELECT count(*) FROM flows) + (SELECT count(*) FROM executions) AS rows',
    );
    if (Number(held.rows[0]?.rows ?? 0) > 0) {
      throw new SvcError(
        'CONFLICT',
        'the PostgreSQL database already holds svc data; copy into an empty database (or another schema)',
      );
    }
    for (const [liteTable, pgTable] of TABLES) {
      const name = getTableName(pgTable);
      const booleans = Object.entries(getTableColumns(pgTable))
        .filter(([, column]) => column.getSQLType() === 'boolean')
        .map(([key]) => key);
      const columnNames = Object.entries(getTableColumns(pgTable)).map(([key, column]) => [key, column.name] as const);
      const insert =
        `INSERT INTO ${tableName(pgTable)} (${columnList(pgTable)}) ` +
        `SELECT ${columnList(pgTable)} FROM jsonb_to_recordset($1::jsonb) AS x(${recordType(pgTable)})`;
      let count = 0;
      let chunk: Record<string, unknown>[] = [];
      const flush = async () => {
        if (chunk.length === 0) return;
        await target.query(insert, [JSON.stringify(chunk)]);
        count += chunk.length;
        chunk = [];
      };
      const statement = source.prepare<[], Record<string, unknown>>(`SELECT ${selectList(liteTable)} FROM "${name}"`);
      for (const row of statement.iterate()) {
        const record: Record<string, unknown> = {};
        // SQLite keeps booleans as 0 and 1.
        for (const [key, column] of columnNames)
          record[column] = booleans.includes(key) ? Boolean(row[key]) : (row[key] ?? null);
        chunk.push(record);
        if (chunk.length >= ROWS_PER_STATEMENT) await flush();
      }
      await flush();
      rows[name] = count;
      options.onTable?.(name, count);
    }
    await target.query('COMMIT');
  } catch (error) {
    await target.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    source.close();
    await target.end().catch(() => undefined);
  }
  return { rows, secretKey };
}
