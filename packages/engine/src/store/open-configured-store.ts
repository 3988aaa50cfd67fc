import type { SvcConfig } from '../config/load-config.js';
import { SvcError } from '../errors.js';
import type { Logger } from '../logger.js';
import { isPostgresUrl } from './postgres-url.js';
import { openSqliteStore } from './sqlite/open-sqlite-store.js';
import type { Store } from './types.js';

/**
 * The store `SVC_DB` names (`@svc/engine/open-store`, what `svc` and `svc-mcp` open): a
 * `postgres://` URL opens the PostgreSQL store (several processes on one database), anything else
 * the embedded SQLite file. The PostgreSQL driver is loaded only then.
 *
 * @example
 * const config = loadConfig(process.env);
 * const store = await openConfiguredStore(config, logger);
 */
export async function openConfiguredStore(config: SvcConfig, logger: Logger): Promise<Store> {
  if (isPostgresUrl(config.db)) {
    if (config.secretKey === undefined) {
      throw new SvcError(
        'CONFIG_ERROR',
        'SVC_SECRET_KEY is required with a PostgreSQL store (SVC_DB=postgres://…): every process on the database seals and opens secrets with the same key (make one with `openssl rand -base64 32`)',
      );
    }
    const { openPostgresStore } = await import('./postgres/open-postgres-store.js');
    return openPostgresStore({
      url: config.db,
      secretKey: config.secretKey,
      synchronous: config.dbSync,
      logger,
      ...(config.dbPoolSize === undefined ? {} : { poolSize: config.dbPoolSize }),
    });
  }
  return openSqliteStore({
    path: config.db,
    synchronous: config.dbSync,
    logger,
    ...(config.secretKey === undefined ? {} : { secretKey: config.secretKey }),
  });
}
