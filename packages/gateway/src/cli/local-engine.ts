import { createEngine, createStderrLogger, loadConfig, type Engine, type Store, type SvcConfig } from '@svc/engine';
import { openSqliteStore } from '@svc/engine/sqlite';

/** The tenant the command line works in on the embedded store. */
export const LOCAL_TENANT = 'default';

/** An engine on the embedded SQLite store (`SVC_DB`, else `./.svc/svc.db`), configured by the `SVC_*` variables. */
export async function openLocalEngine(config: SvcConfig = loadConfig(process.env)): Promise<{ engine: Engine; store: Store; config: SvcConfig; close(): Promise<void> }> {
  const store = openSqliteStore({ path: config.db, synchronous: config.dbSync });
  const engine = await createEngine({
    store,
    logger: createStderrLogger({ level: config.logLevel, format: config.logFormat }),
    leaseMs: config.leaseMs,
  });
  return {
    engine,
    store,
    config,
    async close() {
      await engine.stop();
      await store.close();
    },
  };
}
