import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { drizzle } from 'drizzle-orm/better-sqlite3';
import { systemClock, type Clock } from '../../clock.js';
import { SvcError } from '../../errors.js';
import type { Store } from '../types.js';
import { createExecutionRepository } from './execution-repository.js';
import { executionLogDirectory } from './execution-log.js';
import { createFlowRepository } from './flow-repository.js';
import { createApiClientRepository } from './api-client-repository.js';
import { createCatalogRepository } from './catalog-repository.js';
import { createSigningKeyRepository } from './signing-key-repository.js';
import { createTenantRepository } from './tenant-repository.js';
import { createJobRepository } from './job-repository.js';
import { createSuiteRepository } from './suite-repository.js';
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
  /**
   * How executions and steps are written to a file with `synchronous=NORMAL`. By default each
   * write is made durable in the store's execution log (`<path>-execlog/`, memory-mapped) and
   * folded into the tables every `foldDelayMs`, on the process's fold thread (`foldOn: 'thread'`)
   * or on the event loop (`'event-loop'`); `false` commits each group of writes straight into the
   * tables instead. In memory and with `synchronous=FULL`, writes always go straight in.
   */
  executionLog?: false | { foldDelayMs?: number; logBytes?: number; staleAfterMs?: number; foldOn?: 'thread' | 'event-loop' };
}

/*
 * A fold every 50 ms: each commit rewrites the pages every fold touches (the newest leaves of
 * the step and execution trees and their indexes) and wakes two threads, so under load fewer,
 * larger folds leave more of the machine to the event loop (measured: 16 concurrent runs went
 * from about 0.62 to 0.68 of the plain script's rate between 20 and 50 ms; 100 ms measured the
 * same as 50). Longer would only lengthen what a read may wait for and what another process
 * sees late.
 */
const LOG_DEFAULTS = { foldDelayMs: 50, logBytes: 8 * 1024 * 1024, maxPendingWrites: 2_000, staleAfterMs: 15_000, foldOn: 'thread' } as const;

const MEMORY = ':memory:';

/**
 * Opens (creating when needed) the embedded store and brings its schema up to date.
 *
 * @example
 * const store = openSqliteStore({ path: defaultDatabasePath(), synchronous: synchronousFromEnv() });
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

  const checkpointer = isFile ? startCheckpointer(options.path) : undefined;
  const context = { sqlite, db: drizzle({ client: sqlite }), clock: options.clock ?? systemClock };
  const logged = isFile && options.synchronous !== 'full' && options.executionLog !== false;
  const executions = createExecutionRepository(
    context,
    logged
      ? {
          kind: 'execution-log',
          databasePath: resolve(options.path),
          directory: executionLogDirectory(resolve(options.path)),
          ...LOG_DEFAULTS,
          ...(options.executionLog || {}),
        }
      : { kind: 'group-commit' },
  );
  return {
    flows: createFlowRepository(context),
    executions: executions.repository,
    tenants: createTenantRepository(context),
    clients: createApiClientRepository(context),
    signingKeys: createSigningKeyRepository(context),
    catalog: createCatalogRepository(context),
    jobs: createJobRepository(context),
    suites: createSuiteRepository(context),
    async close() {
      if (!sqlite.open) return;
      // Writes still waiting (group commit, execution log) land before the connection goes.
      executions.close();
      await checkpointer?.stop();
      // Lets SQLite refresh its planner statistics where they went stale; cheap when nothing did.
      sqlite.pragma('optimize');
      sqlite.close();
    },
  };
}

/**
 * Where the embedded store lives: `SVC_DB` when set, otherwise `.svc/svc.db` under `cwd`.
 *
 * @example
 * defaultDatabasePath({ SVC_DB: '/var/lib/svc/svc.db' }); // '/var/lib/svc/svc.db'
 * defaultDatabasePath({}, '/srv/app');                   // '/srv/app/.svc/svc.db'
 */
export function defaultDatabasePath(env: NodeJS.ProcessEnv = process.env, cwd: string = process.cwd()): string {
  const configured = env.SVC_DB?.trim();
  if (configured === MEMORY) return MEMORY;
  return resolve(cwd, configured ? configured : '.svc/svc.db');
}

/**
 * The `synchronous` level from `SVC_DB_SYNC` (`normal` when unset). An unknown value is an error
 * rather than a silent fallback: someone who asked for durability should not quietly lose it.
 *
 * @example
 * synchronousFromEnv({ SVC_DB_SYNC: 'full' }); // 'full'
 */
export function synchronousFromEnv(env: NodeJS.ProcessEnv = process.env): SqliteSynchronous {
  const value = env.SVC_DB_SYNC?.trim().toLowerCase();
  if (value === undefined || value === '' || value === 'normal') return 'normal';
  if (value === 'full') return 'full';
  throw new SvcError('CONFIG_ERROR', `SVC_DB_SYNC must be "normal" or "full", not "${env.SVC_DB_SYNC}"`);
}
