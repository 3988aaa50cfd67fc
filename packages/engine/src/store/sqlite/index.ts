/**
 * The embedded SQLite store (`@svc/engine/sqlite`). A subpath of its own so that code which only
 * needs the store's interfaces never loads the native driver.
 */
export { openSqliteStore, type SqliteStoreOptions, type SqliteSynchronous } from './open-sqlite-store.js';
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
  changeCounters,
} from './schema.js';
export { alertChannels, healthChecks, alertDeliveries } from './health-schema.js';
export type { AlertChannelRow, HealthCheckRow, AlertDeliveryRow } from './health-schema.js';
export type {
  FlowRow,
  FlowVersionRow,
  ExecutionRow,
  StepRow,
  TenantRow,
  ApiClientRow,
  SigningKeyRow,
  CatalogSpecRow,
  CatalogEndpointRow,
  JobRow,
  SuiteRow,
  EnvironmentRow,
  WebhookTriggerRow,
  WebhookDeliveryRow,
  ScheduleRow,
} from './schema.js';
