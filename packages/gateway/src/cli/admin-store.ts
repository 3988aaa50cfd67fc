import { createStderrLogger, loadConfig, systemClock, type Store } from '@svc/engine';
import { openConfiguredStore } from '@svc/engine/open-store';

/** Runs `work` on the embedded store (`SVC_DB`, else `./.svc/svc.db`) and closes it after. */
export async function withLocalStore<T>(work: (store: Store, clock: typeof systemClock) => Promise<T>): Promise<T> {
  const config = loadConfig(process.env);
  const logger = createStderrLogger({ level: config.logLevel, format: config.logFormat });
  const store = await openConfiguredStore(config, logger);
  try {
    return await work(store, systemClock);
  } finally {
    await store.close();
  }
}

export function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}
