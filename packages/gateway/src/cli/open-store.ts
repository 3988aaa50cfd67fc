import { isPostgresUrl, SvcError, type Logger, type Store, type SvcConfig } from '@svc/engine';
import { openSqliteStore } from '@svc/engine/sqlite';

/**
 * The store `SVC_DB` names: a `postgres://` URL opens the PostgreSQL store (several processes on
 * one database), anything else the embedded SQLite file. The PostgreSQL driver is loaded only then.
 */
export async function openConfiguredStore(config: SvcConfig, logger: Logger): Promise<Store> {
  if (isPostgresUrl(config.db)) {
    if (config.secretKey === undefined) {
      throw new SvcError(
        'CONFIG_ERROR',
        'SVC_SECRET_KEY is required with a PostgreSQL store (SVC_DB=postgres://…): every process on the database seals and opens secrets with the same key (make one with `openssl rand -base64 32`)',
      );
    }
    const { openPostgresStore } = await import('@svc/engine/postgres');
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
