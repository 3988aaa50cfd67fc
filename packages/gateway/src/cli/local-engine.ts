import { createEngine, createStderrLogger, egressPolicyFromEnv, type Engine, type Store } from '@svc/engine';
import { defaultDatabasePath, openSqliteStore, synchronousFromEnv } from '@svc/engine/sqlite';

/** The tenant the command line works in on the embedded store. */
export const LOCAL_TENANT = 'default';

/** An engine on the embedded SQLite store (`SVC_DB`, else `./.svc/svc.db`). */
export async function openLocalEngine(): Promise<{ engine: Engine; store: Store; close(): Promise<void> }> {
  // A developer's machine: loopback and private addresses are what `svc run` is for.
  const egress = egressPolicyFromEnv(process.env, 'local');
  const store = openSqliteStore({ path: defaultDatabasePath(), synchronous: synchronousFromEnv(process.env) });
  const leaseMs = Number(process.env.SVC_LEASE_MS ?? 30_000);
  const engine = await createEngine({
    store,
    logger: createStderrLogger(process.env.SVC_LOG_LEVEL === 'debug' ? 'debug' : 'warn'),
    leaseMs: Number.isFinite(leaseMs) && leaseMs > 0 ? leaseMs : 30_000,
    egress,
  });
  return {
    engine,
    store,
    async close() {
      await engine.stop();
      await store.close();
    },
  };
}
