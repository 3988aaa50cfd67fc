import type { PoolClient } from 'pg';

export interface PostgresMigration {
  /** Sortable and never reused: the `schema_migrations` row that marks it applied. */
  id: string;
  sql: string;
}

/**
 * Applied in order, each once. A shipped migration is never edited: a change of schema is a new
 * entry at the end, matched by a change of `schema.ts` (and of the SQLite store's, whose tables
 * these mirror).
 */
export const POSTGRES_MIGRATIONS: readonly PostgresMigration[] = [
  {
    id: '0001_initial',
    sql: `
CREATE TABLE flows (
  tenant_id TEXT NOT NULL,
  id TEXT NOT NULL,
  name TEXT NOT NULL,
  description TEXT NOT NULL,
  folder_id TEXT,
  version INTEGER NOT NULL,
  document TEXT NOT NULL,
  node_count INTEGER NOT NULL,
  created_at BIGINT NOT NULL,
  updated_at BIGINT NOT NULL,
  deleted_at BIGINT,
  CONSTRAINT flows_pk PRIMARY KEY (tenant_id, id)
);
CREATE INDEX flows_tenant_name_idx ON flows (tenant_id, name);
CREATE INDEX flows_tenant_folder_idx ON flows (tenant_id, folder_id);
CREATE INDEX flows_tenant_updated_idx ON flows (tenant_id, updated_at, id);

CREATE TABLE flow_versions (
  tenant_id TEXT NOT NULL,
  flow_id TEXT NOT NULL,
  version INTEGER NOT NULL,
  document TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  CONSTRAINT flow_versions_pk PRIMARY KEY (tenant_id, flow_id, version),
  CONSTRAINT flow_versions_flow_fk FOREIGN KEY (tenant_id, flow_id) REFERENCES flows (tenant_id, id)
);

CREATE TABLE executions (
  tenant_id TEXT NOT NULL,
  id TEXT NOT NULL,
  flow_id TEXT NOT NULL,
  flow_version INTEGER NOT NULL,
  flow_name TEXT NOT NULL,
  status TEXT NOT NULL,
  "trigger" TEXT NOT NULL,
  env TEXT NOT NULL,
  secret_keys TEXT NOT NULL,
  inputs TEXT NOT NULL,
  parent_execution_id TEXT,
  error TEXT,
  created_at BIGINT NOT NULL,
  started_at BIGINT,
  ended_at BIGINT,
  duration_ms DOUBLE PRECISION,
  nodes_executed INTEGER NOT NULL,
  nodes_skipped INTEGER NOT NULL,
  steps_executed INTEGER NOT NULL,
  wake_at BIGINT,
  lease_owner TEXT,
  lease_expires_at BIGINT,
  updated_at BIGINT NOT NULL,
  outputs TEXT,
  CONSTRAINT executions_pk PRIMARY KEY (tenant_id, id)
);
CREATE INDEX executions_tenant_flow_created_idx ON executions (tenant_id, flow_id, created_at);
CREATE INDEX executions_tenant_created_idx ON executions (tenant_id, created_at);
CREATE INDEX executions_status_wake_idx ON executions (status, wake_at);
CREATE INDEX executions_lease_owner_idx ON executions (lease_owner);

CREATE TABLE steps (
  tenant_id TEXT NOT NULL,
  id TEXT NOT NULL,
  execution_id TEXT NOT NULL,
  seq INTEGER NOT NULL,
  node_id TEXT NOT NULL,
  node_name TEXT NOT NULL,
  node_type TEXT NOT NULL,
  scope TEXT NOT NULL,
  attempt INTEGER NOT NULL,
  status TEXT NOT NULL,
  started_at BIGINT NOT NULL,
  ended_at BIGINT,
  latency_ms DOUBLE PRECISION,
  request TEXT,
  response TEXT,
  output TEXT,
  handles TEXT NOT NULL,
  error TEXT,
  skip_kind TEXT,
  branch TEXT,
  wake_at BIGINT,
  state TEXT,
  CONSTRAINT steps_pk PRIMARY KEY (tenant_id, execution_id, seq),
  CONSTRAINT steps_execution_fk FOREIGN KEY (tenant_id, execution_id) REFERENCES executions (tenant_id, id)
);

CREATE TABLE tenants (
  id TEXT NOT NULL,
  name TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  CONSTRAINT tenants_pk PRIMARY KEY (id)
);

CREATE TABLE api_clients (
  tenant_id TEXT NOT NULL,
  client_id TEXT NOT NULL,
  name TEXT NOT NULL,
  scopes TEXT NOT NULL,
  trial BOOLEAN NOT NULL,
  expires_at BIGINT,
  secret_hash TEXT NOT NULL,
  previous_secret_hash TEXT,
  previous_secret_expires_at BIGINT,
  revoked_at BIGINT,
  created_at BIGINT NOT NULL,
  CONSTRAINT api_clients_pk PRIMARY KEY (tenant_id, client_id),
  CONSTRAINT api_clients_tenant_fk FOREIGN KEY (tenant_id) REFERENCES tenants (id)
);
CREATE UNIQUE INDEX api_clients_client_id_idx ON api_clients (client_id);
CREATE UNIQUE INDEX api_clients_secret_hash_idx ON api_clients (secret_hash);
CREATE INDEX api_clients_previous_secret_hash_idx ON api_clients (previous_secret_hash);

CREATE TABLE signing_keys (
  kid TEXT NOT NULL,
  algorithm TEXT NOT NULL,
  jwk TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  CONSTRAINT signing_keys_pk PRIMARY KEY (kid)
);

CREATE TABLE catalog_specs (
  tenant_id TEXT NOT NULL,
  id TEXT NOT NULL,
  name TEXT NOT NULL,
  title TEXT NOT NULL,
  version TEXT NOT NULL,
  source_version TEXT NOT NULL,
  document TEXT NOT NULL,
  endpoint_count INTEGER NOT NULL,
  imported_at BIGINT NOT NULL,
  CONSTRAINT catalog_specs_pk PRIMARY KEY (tenant_id, id)
);

CREATE TABLE catalog_endpoints (
  tenant_id TEXT NOT NULL,
  spec_id TEXT NOT NULL,
  endpoint_id TEXT NOT NULL,
  position INTEGER NOT NULL,
  method TEXT NOT NULL,
  path TEXT NOT NULL,
  summary TEXT NOT NULL,
  tags TEXT NOT NULL,
  endpoint TEXT NOT NULL,
  CONSTRAINT catalog_endpoints_pk PRIMARY KEY (tenant_id, spec_id, endpoint_id),
  CONSTRAINT catalog_endpoints_spec_fk FOREIGN KEY (tenant_id, spec_id) REFERENCES catalog_specs (tenant_id, id)
);
CREATE INDEX catalog_endpoints_tenant_endpoint_idx ON catalog_endpoints (tenant_id, endpoint_id);
CREATE UNIQUE INDEX catalog_endpoints_tenant_spec_position_idx ON catalog_endpoints (tenant_id, spec_id, position);

CREATE TABLE jobs (
  tenant_id TEXT NOT NULL,
  id TEXT NOT NULL,
  kind TEXT NOT NULL,
  status TEXT NOT NULL,
  input TEXT NOT NULL,
  progress TEXT,
  result TEXT,
  error TEXT,
  created_at BIGINT NOT NULL,
  started_at BIGINT,
  ended_at BIGINT,
  updated_at BIGINT NOT NULL,
  owner TEXT,
  lease_expires_at BIGINT,
  CONSTRAINT jobs_pk PRIMARY KEY (tenant_id, id)
);
CREATE INDEX jobs_tenant_created_idx ON jobs (tenant_id, created_at, id);
CREATE INDEX jobs_status_lease_idx ON jobs (status, lease_expires_at);

CREATE TABLE suites (
  tenant_id TEXT NOT NULL,
  id TEXT NOT NULL,
  name TEXT NOT NULL,
  description TEXT NOT NULL,
  mode TEXT NOT NULL,
  kind TEXT NOT NULL,
  flow_ids TEXT NOT NULL,
  flow_count INTEGER NOT NULL,
  source TEXT,
  created_at BIGINT NOT NULL,
  updated_at BIGINT NOT NULL,
  CONSTRAINT suites_pk PRIMARY KEY (tenant_id, id)
);
CREATE UNIQUE INDEX suites_tenant_name_idx ON suites (tenant_id, name);
CREATE INDEX suites_tenant_updated_idx ON suites (tenant_id, updated_at, id);

CREATE TABLE environments (
  tenant_id TEXT NOT NULL,
  id TEXT NOT NULL,
  name TEXT NOT NULL,
  description TEXT NOT NULL,
  variables TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  updated_at BIGINT NOT NULL,
  CONSTRAINT environments_pk PRIMARY KEY (tenant_id, id)
);
CREATE UNIQUE INDEX environments_tenant_name_idx ON environments (tenant_id, name);

CREATE TABLE webhook_triggers (
  path TEXT NOT NULL,
  tenant_id TEXT NOT NULL,
  flow_id TEXT NOT NULL,
  node_id TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  CONSTRAINT webhook_triggers_pk PRIMARY KEY (path)
);
CREATE UNIQUE INDEX webhook_triggers_flow_node_idx ON webhook_triggers (tenant_id, flow_id, node_id);

CREATE TABLE webhook_deliveries (
  tenant_id TEXT NOT NULL,
  token_hash TEXT NOT NULL,
  execution_id TEXT NOT NULL,
  node_id TEXT NOT NULL,
  scope TEXT NOT NULL,
  body TEXT NOT NULL,
  headers TEXT NOT NULL,
  received_at BIGINT NOT NULL,
  CONSTRAINT webhook_deliveries_pk PRIMARY KEY (tenant_id, token_hash)
);
CREATE INDEX webhook_deliveries_execution_idx ON webhook_deliveries (execution_id);

CREATE TABLE schedules (
  tenant_id TEXT NOT NULL,
  id TEXT NOT NULL,
  name TEXT NOT NULL,
  description TEXT NOT NULL,
  target_type TEXT NOT NULL,
  target_id TEXT NOT NULL,
  cron TEXT NOT NULL,
  timezone TEXT NOT NULL,
  environment TEXT,
  enabled BOOLEAN NOT NULL,
  overlap TEXT NOT NULL,
  next_due_at BIGINT,
  last_run TEXT,
  skipped_runs INTEGER NOT NULL,
  last_skipped_at BIGINT,
  missed_runs INTEGER NOT NULL,
  created_at BIGINT NOT NULL,
  updated_at BIGINT NOT NULL,
  CONSTRAINT schedules_pk PRIMARY KEY (tenant_id, id)
);
CREATE UNIQUE INDEX schedules_tenant_name_idx ON schedules (tenant_id, name);
CREATE INDEX schedules_due_idx ON schedules (enabled, next_due_at);

CREATE TABLE alert_channels (
  tenant_id TEXT NOT NULL,
  id TEXT NOT NULL,
  suite_id TEXT NOT NULL,
  name TEXT NOT NULL,
  type TEXT NOT NULL,
  enabled BOOLEAN NOT NULL,
  repeat_every_ms BIGINT,
  settings TEXT NOT NULL,
  secrets TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  updated_at BIGINT NOT NULL,
  CONSTRAINT alert_channels_pk PRIMARY KEY (tenant_id, id)
);
CREATE UNIQUE INDEX alert_channels_suite_name_idx ON alert_channels (tenant_id, suite_id, name);

CREATE TABLE health_checks (
  tenant_id TEXT NOT NULL,
  suite_id TEXT NOT NULL,
  flow_id TEXT NOT NULL,
  check_name TEXT NOT NULL,
  state TEXT NOT NULL,
  since BIGINT NOT NULL,
  streak INTEGER NOT NULL,
  last_run_at BIGINT NOT NULL,
  last_execution_id TEXT,
  last_failure TEXT,
  notified_at TEXT NOT NULL,
  version INTEGER NOT NULL,
  CONSTRAINT health_checks_pk PRIMARY KEY (tenant_id, suite_id, flow_id)
);

CREATE TABLE alert_deliveries (
  tenant_id TEXT NOT NULL,
  id TEXT NOT NULL,
  suite_id TEXT NOT NULL,
  channel_id TEXT NOT NULL,
  channel_type TEXT NOT NULL,
  flow_id TEXT NOT NULL,
  event TEXT NOT NULL,
  alert TEXT NOT NULL,
  status TEXT NOT NULL,
  attempts INTEGER NOT NULL,
  next_attempt_at BIGINT,
  last_error TEXT,
  response_status INTEGER,
  created_at BIGINT NOT NULL,
  updated_at BIGINT NOT NULL,
  delivered_at BIGINT,
  CONSTRAINT alert_deliveries_pk PRIMARY KEY (tenant_id, id)
);
CREATE INDEX alert_deliveries_status_due_idx ON alert_deliveries (status, next_attempt_at);
CREATE INDEX alert_deliveries_suite_created_idx ON alert_deliveries (tenant_id, suite_id, created_at, id);

-- The claim's read: unfinished executions in the order they became ready.
CREATE INDEX executions_ready_idx ON executions ((coalesce(wake_at, created_at)), created_at, id)
  WHERE status IN ('Queued', 'Running', 'Waiting');

-- What the search of lists compares: case-folded text (as svc_fold on SQLite).
CREATE FUNCTION svc_fold(value TEXT) RETURNS TEXT LANGUAGE sql IMMUTABLE PARALLEL SAFE AS 'SELECT lower(value)';
`,
  },
  {
    // Verified trigger requests taken once (a replay, or a sender's retry, starts nothing new).
    id: '0002_webhook_receipts',
    sql: `
CREATE TABLE webhook_receipts (
  tenant_id TEXT NOT NULL,
  path TEXT NOT NULL,
  replay_key TEXT NOT NULL,
  execution_id TEXT NOT NULL,
  claimed_at BIGINT NOT NULL,
  expires_at BIGINT NOT NULL,
  CONSTRAINT webhook_receipts_pk PRIMARY KEY (tenant_id, path, replay_key)
);
CREATE INDEX webhook_receipts_expires_idx ON webhook_receipts (expires_at);
`,
  },
];

/** Any fixed number: the advisory lock that lets one process migrate while the others wait. */
const MIGRATION_LOCK = 0x5356_4301;

/**
 * Brings the schema the connection's `search_path` names up to date (made first with
 * `createSchema`). Several processes starting
 * together each take the same transaction-level advisory lock first (keyed by schema), so one
 * migrates and the others find the work done when they get the lock.
 */
export async function applyPostgresMigrations(
  client: PoolClient,
  schema: string,
  createSchema: boolean,
): Promise<void> {
  await client.query('BEGIN');
  try {
    await client.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [MIGRATION_LOCK, schema]);
    if (createSchema) await client.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
    await client.query(
      'CREATE TABLE IF NOT EXISTS schema_migrations (id TEXT PRIMARY KEY NOT NULL, applied_at BIGINT NOT NULL)',
    );
    const applied = new Set(
      (await client.query<{ id: string }>('SELECT id FROM schema_migrations')).rows.map((row) => row.id),
    );
    for (const migration of POSTGRES_MIGRATIONS) {
      if (applied.has(migration.id)) continue;
      await client.query(migration.sql);
      await client.query('INSERT INTO schema_migrations (id, applied_at) VALUES ($1, $2)', [migration.id, Date.now()]);
    }
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
}
