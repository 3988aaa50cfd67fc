import { existsSync, mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { drizzle } from 'drizzle-orm/better-sqlite3';
import { systemClock, type Clock } from '../../clock.js';
import { SvcError } from '../../errors.js';
import { silentLogger, type Logger } from '../../logger.js';
import type { Store } from '../types.js';
import { createExecutionRepository } from './execution-repository.js';
import { createFlowRepository } from './flow-repository.js';
import { createApiClientRepository } from './api-client-repository.js';
import { createCatalogRepository } from './catalog-repository.js';
import { createSigningKeyRepository } from './signing-key-repository.js';
import { createTenantRepository } from './tenant-repository.js';
import { createJobRepository } from './job-repository.js';
import { createSuiteRepository } from './suite-repository.js';
import { createEnvironmentRepository } from './environment-repository.js';
import { createSecretCipher } from '../../environments/secret-cipher.js';
import { loadOrCreateKeyFile } from '../../environments/secret-key-file.js';
import { hkdfSync, randomBytes } from 'node:crypto';
import { createWebhookRepository } from './webhook-repository.js';
import { createScheduleRepository } from './schedule-repository.js';
import { createAlertChannelRepository } from './alert-channel-repository.js';
import { createHealthRepository } from './health-repository.js';
import { startCheckpointer } from './checkpointer.js';
import { applyMigrations } from './migrations.js';

export type SqliteSynchronous = 'normal' | 'full';

export interface SqliteStoreOptions {
  /** A file path, or `:memory:` for a private database that lives as long as the store. */
  path: string;
  /**
   * `normal` (default): with WAL, every commit survives a crash of the process; the last commits
   * may be lost on power loss. `full`: an fsync per commit, for power-loss durability.
   */
  synchronous?: SqliteSynchronous;
  /** Stamps the times the store owns (flow `createdAt`/`updatedAt`, execution `updatedAt`). */
  clock?: Clock;
  /** Where the store reports what it cannot hand back to a caller (default: nowhere). */
  logger?: Logger;
  /**
   * The 32-byte key that encrypts stored secrets (`SVC_SECRET_KEY`). Without it the key is read
   * from `<path>.key`, made there (mode 0600) on first start; `:memory:` makes one for its life.
   */
  secretKey?: Buffer;
}

const MEMORY = ':memory:';

/**
 * Opens (creating when needed) the embedded store and brings its schema up to date.
 *
 * @example
 * const config = loadConfig(process.env);
 * const store = openSqliteStore({ path: config.db, synchronous: config.dbSync, logger });
 * const flow = await store.flows.create('acme', document);
 * await store.close();
 */
export function openSqliteStore(options: SqliteStoreOptions): Store {
  if (options.path === '') throw new SvcError('CONFIG_ERROR', 'the database path is empty');
  const isFile = options.path !== MEMORY;
  if (isFile) mkdirSync(dirname(resolve(options.path)), { recursive: true });

  const sqlite = new Database(options.path);
  try {
    // WAL lets readers (the gateway, a CLI on the same file) run beside the one writer, and with
    // synchronous=NORMAL makes a commit a write to the log without an fsync.
    if (isFile) sqlite.pragma('journal_mode = WAL');
    sqlite.pragma('busy_timeout = 5000');
    sqlite.pragma(`synchronous = ${options.synchronous === 'full' ? 'FULL' : 'NORMAL'}`);
    sqlite.pragma('foreign_keys = ON');
    // The checkpointer thread does the regular copying; this connection checkpoints only as a
    // backstop, rarely, and thereby lets the log start over (see checkpointer.ts).
    if (isFile) sqlite.pragma('wal_autocheckpoint = 10000');
    applyMigrations(sqlite);
  } catch (error) {
    sqlite.close();
    throw error;
  }

  let secretKey: Buffer;
  try {
    secretKey = options.secretKey ?? (isFile ? loadOrCreateKeyFile(`${resolve(options.path)}.key`) : randomBytes(32));
  } catch (error) {
    sqlite.close();
    throw error;
  }
  const logger = options.logger ?? silentLogger;
  if (isFile) warnOfLeftExecutionLog(resolve(options.path), logger);
  const checkpointer = isFile ? startCheckpointer(options.path, { logger }) : undefined;
  const cipher = createSecretCipher(secretKey);
  const context = { sqlite, db: drizzle({ client: sqlite }), clock: options.clock ?? systemClock, cipher };
  const executions = createExecutionRepository(context);
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
    async close() {
      if (!sqlite.open) return;
      // Writes still waiting for their group commit land before the connection goes.
      executions.close();
      await checkpointer?.stop();
      // Lets SQLite refresh its planner statistics where they went stale; cheap when nothing did.
      sqlite.pragma('optimize');
      sqlite.close();
    },
  };
}

/**
 * Earlier versions kept executions' latest writes in `<database>-execlog/` and folded them
 * into the tables later. A log left there by a process that was killed holds writes this
 * version does not read: say so, once, rather than lose them without a word.
 */
function warnOfLeftExecutionLog(databasePath: string, logger: Logger): void {
  const directory = `${databasePath}-execlog`;
  if (!existsSync(directory)) return;
  logger.warn(
    'an execution log from an earlier version is left beside the database; its unfolded writes are not read',
    {
      directory,
      remedy: 'open the database once with the earlier version and close it cleanly, then remove the directory',
    },
  );
}
