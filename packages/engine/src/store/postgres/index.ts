/**
 * The PostgreSQL store (`@svc/engine/postgres`), for several processes on one database. A subpath
 * of its own so that code which only needs the embedded store never loads the driver.
 */
export { openPostgresStore, type PostgresStoreOptions } from './open-postgres-store.js';
export { isPostgresUrl } from '../postgres-url.js';
export { POSTGRES_MIGRATIONS } from './migrations.js';
export {
  flows,
  flowVersions,
  executions,
  steps,
  tenants,
  apiClients,
  signingKeys,
  catalogSpecs,
  catalogEndpoints,
  jobs,
  suites,
  environments,
  webhookTriggers,
  webhookDeliveries,
  webhookReceipts,
  schedules,
} from './schema.js';
export { alertChannels, healthChecks, alertDeliveries } from './health-schema.js';
export { copySqliteToPostgres, type CopyFromSqliteOptions, type CopyFromSqliteResult } from './copy-from-sqlite.js';
