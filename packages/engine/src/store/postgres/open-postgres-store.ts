import { hkdfSync } from 'node:crypto';
import pg from 'pg';
import { drizzle } from 'drizzle-orm/node-postgres';
import { systemClock, type Clock } from '../../clock.js';
import { SvcError } from '../../errors.js';
import { silentLogger, type Logger } from '../../logger.js';
import { createSecretCipher } from '../../environments/secret-cipher.js';
import type { Store } from '../types.js';
import { createAlertChannelRepository } from './alert-channel-repository.js';
import { createApiClientRepository } from './api-client-repository.js';
import { createCatalogRepository } from './catalog-repository.js';
import type { PostgresContext } from './context.js';
import { createEnvironmentRepository } from './environment-repository.js';
import { createExecutionRepository } from './execution-repository.js';
import { createFlowRepository } from './flow-repository.js';
import { createHealthRepository } from './health-repository.js';
import { createJobRepository } from './job-repository.js';
import { applyPostgresMigrations } from './migrations.js';
import { createScheduleRepository } from './schedule-repository.js';
import { createSigningKeyRepository } from './signing-key-repository.js';
import { createSuiteRepository } from './suite-repository.js';
import { createTenantRepository } from './tenant-repository.js';
import { createWebhookRepository } from './webhook-repository.js';
import { createWorkListener } from './work-listener.js';

export interface PostgresStoreOptions {
  /** A connection URL: `postgres://user:password@host:5432/database`. */
  url: string;
  /**
   * The schema that holds the tables, made when missing (default: the connection's own, usually
   * `public`). Stores on different schemas of one database share nothing.
   */
  schema?: string;
  /**
   * The 32-byte key that encrypts stored secrets (`SVC_SECRET_KEY`). Required: every process on
   * the database must seal and open with the same key, so none can make its own.
   */
  secretKey: Buffer;
  /**
   * `normal` (default): a commit is acknowledged once the database server holds it
   * (`synchronous_commit=off`): it survives the crash of any svc process, and the last commits
   * (well under a second's) may be lost if the database server itself crashes or loses power.
   * `full`: once it is on the server's disk (`synchronous_commit=on`), at the cost of a flush
   * per commit. The same trade as SQLite's `synchronous` setting under `SVC_DB_SYNC`.
   */
  synchronous?: 'normal' | 'full';
  /** Connections in the pool (default 10). */
  poolSize?: number;
  clock?: Clock;
  logger?: Logger;
}

/** A schema name is put into SQL text and a channel name, so it is held to a plain identifier. */
const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,47}$/;

/** PostgreSQL's `bigint` (milliseconds, counts) read as a JS number; the values stay far below 2^53. */
const TYPES = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === pg.types.builtins.INT8
      ? (value: string) => Number(value)
      : pg.types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser,
};

/**
 * The URL without its `options` parameter, and those options with `settings` after them: the
 * driver would let the URL's options replace the ones it is given, not add to them.
 */
function connectionOf(url: string, settings: string[]): { connectionString: string; options: string } {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new SvcError(
      'CONFIG_ERROR',
      'the PostgreSQL URL does not parse; expected postgres://user:password@host:5432/database',
    );
  }
  const given = parsed.searchParams.get('options');
  parsed.searchParams.delete('options');
  return { connectionString: parsed.toString(), options: [...(given === null ? [] : [given]), ...settings].join(' ') };
}

/**
 * Opens the PostgreSQL store (several `svc serve` processes share one), bringing its schema up to
 * date first: migrations run under an advisory lock, so processes starting together migrate once.
 *
 * @example
 * const store = await openPostgresStore({ url: 'postgres://svc@db:5432/svc', secretKey: config.secretKey });
 * const flow = await store.flows.create('acme', document);
 * await store.close();
 */
export async function openPostgresStore(options: PostgresStoreOptions): Promise<Store> {
  if (options.schema !== undefined && !SCHEMA_NAME.test(options.schema)) {
    throw new SvcError('CONFIG_ERROR', `the schema name "${options.schema}" is not a plain lowercase identifier`);
  }
  if (options.secretKey.length !== 32) throw new SvcError('CONFIG_ERROR', 'the secret key must be 32 bytes');
  const logger = options.logger ?? silentLogger;
  const config: pg.ClientConfig = {
    ...connectionOf(options.url, [
      ...(options.schema === undefined ? [] : [`-c search_path=${options.schema}`]),
      `-c synchronous_commit=${options.synchronous === 'full' ? 'on' : 'off'}`,
    ]),
    types: TYPES,
    application_name: 'svc',
  };
  const pool = new pg.Pool({ ...config, max: options.poolSize ?? 10 });
  // An idle connection the server dropped is replaced on the next query; say so, don't crash.
  pool.on('error', (error) => logger.warn('a pooled database connection failed', { error: String(error) }));
  let schema: string;
  try {
    const client = await pool.connect();
    try {
      const current = (await client.query<{ schema: string | null }>('SELECT current_schema() AS schema')).rows[0];
      const named = options.schema ?? current?.schema ?? null;
      if (named === null || !SCHEMA_NAME.test(named)) {
        throw new SvcError(
          'CONFIG_ERROR',
          named === null
            ? "the connection's search_path names no schema that exists: create it, or name an existing one"
            : `the schema "${named}" is not a plain lowercase identifier`,
        );
      }
      schema = named;
      await applyPostgresMigrations(client, schema, options.schema !== undefined);
    } finally {
      client.release();
    }
  } catch (error) {
    await pool.end().catch(() => undefined);
    if (error instanceof SvcError) throw error;
    throw new SvcError('STORE_UNAVAILABLE', `cannot open the PostgreSQL store: ${(error as Error).message}`, {
      cause: error,
    });
  }

  const secretKey = options.secretKey;
  const workChannel = `svc_work_${schema}`;
  const context: PostgresContext = {
    pool,
    db: drizzle({ client: pool }),
    clock: options.clock ?? systemClock,
    cipher: createSecretCipher(secretKey),
    workChannel,
  };
  const executions = createExecutionRepository(context);
  const listener = createWorkListener({ config, channel: workChannel, logger });
  let closed = false;
  return {
    flows: createFlowRepository(context),
    executions: executions.repository,
    tenants: createTenantRepository(context),
    clients: createApiClientRepository(context),
    signingKeys: createSigningKeyRepository(context),
    catalog: createCatalogRepository(context),
    jobs: createJobRepository(context),
    suites: createSuiteRepository(context),
    environments: createEnvironmentRepository(context),
    webhooks: createWebhookRepository(context),
    schedules: createScheduleRepository(context),
    alertChannels: createAlertChannelRepository(context),
    health: createHealthRepository(context),
    deriveKey: (purpose) => Buffer.from(hkdfSync('sha256', secretKey, Buffer.alloc(0), `svc:${purpose}`, 32)),
    onWorkAvailable: (notify) => listener.subscribe(notify),
    async close() {
      if (closed) return;
      closed = true;
      // Writes still waiting for their batch land before the pool goes.
      await executions.flush();
      await listener.close();
      await pool.end();
    },
  };
}
