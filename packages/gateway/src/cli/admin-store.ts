import { systemClock, type Store } from '@svc/engine';
import { defaultDatabasePath, openSqliteStore, synchronousFromEnv } from '@svc/engine/sqlite';

/** Runs `work` on the embedded store (`SVC_DB`, else `./.svc/svc.db`) and closes it after. */
export async function withLocalStore<T>(work: (store: Store, clock: typeof systemClock) => Promise<T>): Promise<T> {
  const store = openSqliteStore({ path: defaultDatabasePath(), synchronous: synchronousFromEnv(process.env) });
  try {
    return await work(store, systemClock);
  } finally {
    await store.close();
  }
}

export function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}
