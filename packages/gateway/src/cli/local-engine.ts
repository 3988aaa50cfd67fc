import {
  createEngine,
  createStderrLogger,
  egressPolicyOf,
  loadConfig,
  type Engine,
  type Store,
  type SvcConfig,
} from '@svc/engine';
import { openConfiguredStore } from '@svc/engine/open-store';
import { reportFailure } from './report-failure.js';
import { observeRuns, type RunListener } from './step-lines.js';

/** The tenant the command line works in on the embedded store. */
export const LOCAL_TENANT = 'default';

/**
 * An engine on the embedded SQLite store (`SVC_DB`, else `./.svc/svc.db`), configured by the
 * `SVC_*` variables. With `listener`, the command hears of executions and steps as they are saved.
 */
export async function openLocalEngine(
  config: SvcConfig = loadConfig(process.env),
  options: {
    listener?: RunListener;
    /** Give waits back to the store (for `svc serve` to resume) instead of holding them until they end. */
    releaseWaits?: boolean;
  } = {},
): Promise<{ engine: Engine; store: Store; config: SvcConfig; close(): Promise<void> }> {
  const logger = createStderrLogger({ level: config.logLevel, format: config.logFormat });
  const store = await openConfiguredStore(config, logger);
  // No sandbox passed in: the engine's own starts its worker threads on the first JavaScript
  // expression (most flows have none) and `engine.stop()` ends them.
  const engine = await createEngine({
    store: options.listener ? observeRuns(store, options.listener) : store,
    logger,
    leaseMs: config.leaseMs,
    ...(options.releaseWaits ? { releaseWaits: true, releaseWaitsLongerThanMs: 0 } : {}),
    ...(config.publicUrl === undefined ? {} : { publicUrl: config.publicUrl }),
    // A developer's machine: loopback and private addresses are what `svc run` is for.
    egress: egressPolicyOf(config, 'local'),
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

/**
 * Runs a command's work on the local engine and closes it after; a failure is printed (its code
 * and message) and answered as the exit code, as `reportFailure` says.
 */
export async function withLocalEngine(work: (engine: Engine) => Promise<number>): Promise<number> {
  const { engine, close } = await openLocalEngine();
  try {
    return await work(engine);
  } catch (error) {
    return reportFailure(error);
  } finally {
    await close();
  }
}
