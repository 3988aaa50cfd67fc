import { createEngine, createStderrLogger, type Engine, type Store } from '@svc/engine';
import { defaultDatabasePath, openSqliteStore, synchronousFromEnv } from '@svc/engine/sqlite';
import { createLazySandbox } from './lazy-sandbox.js';
import { observeRuns, type RunListener } from './step-lines.js';

/** The tenant the command line works in on the embedded store. */
export const LOCAL_TENANT = 'default';

/**
 * An engine on the embedded SQLite store (`SVC_DB`, else `./.svc/svc.db`). With `listener`, the
 * command hears of executions and steps as they are saved.
 */
export async function openLocalEngine(options: { listener?: RunListener } = {}): Promise<{ engine: Engine; store: Store; close(): Promise<void> }> {
  const store = openSqliteStore({ path: defaultDatabasePath(), synchronous: synchronousFromEnv(process.env) });
  const leaseMs = Number(process.env.SVC_LEASE_MS ?? 30_000);
  const sandbox = createLazySandbox();
  const engine = await createEngine({
    store: options.listener ? observeRuns(store, options.listener) : store,
    sandbox,
    logger: createStderrLogger(process.env.SVC_LOG_LEVEL === 'debug' ? 'debug' : 'warn'),
    leaseMs: Number.isFinite(leaseMs) && leaseMs > 0 ? leaseMs : 30_000,
  });
  return {
    engine,
    store,
    async close() {
      await engine.stop();
      await sandbox.dispose();
      await store.close();
    },
  };
}
