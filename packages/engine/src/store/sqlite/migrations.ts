import type { Database } from 'better-sqlite3';

export interface Migration {
  /** Sortable and never reused: the `schema_migrations` row that marks it applied. */
  id: string;
  sql: string;
}

/**
 * Applied in order, each once. A shipped migration is never edited: a change of schema is a new
 * entry at the end, matched by a change of `schema.ts`.
 */
export const MIGRATIONS: readonly Migration[] = [
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
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  deleted_at INTEGER,
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
  created_at INTEGER NOT NULL,
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
  created_at INTEGER NOT NULL,
  started_at INTEGER,
  ended_at INTEGER,
  duration_ms REAL,
  nodes_executed INTEGER NOT NULL,
  nodes_skipped INTEGER NOT NULL,
  steps_executed INTEGER NOT NULL,
  wake_at INTEGER,
  lease_owner TEXT,
  lease_expires_at INTEGER,
  updated_at INTEGER NOT NULL,
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
  started_at INTEGER NOT NULL,
  ended_at INTEGER,
  latency_ms REAL,
  request TEXT,
  response TEXT,
  output TEXT,
  handles TEXT NOT NULL,
  error TEXT,
  skip_kind TEXT,
  branch TEXT,
  wake_at INTEGER,
  state TEXT,
  CONSTRAINT steps_execution_fk FOREIGN KEY (tenant_id, execution_id) REFERENCES executions (tenant_id, id)
);
CREATE UNIQUE INDEX steps_execution_seq_idx ON steps (tenant_id, execution_id, seq);
`,
  },
  {
    id: '0002_auth',
    sql: `
CREATE TABLE tenants (
  id TEXT NOT NULL,
  name TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  CONSTRAINT tenants_pk PRIMARY KEY (id)
);

CREATE TABLE api_clients (
  tenant_id TEXT NOT NULL,
  client_id TEXT NOT NULL,
  name TEXT NOT NULL,
  scopes TEXT NOT NULL,
  trial INTEGER NOT NULL,
  expires_at INTEGER,
  secret_hash TEXT NOT NULL,
  previous_secret_hash TEXT,
  previous_secret_expires_at INTEGER,
  revoked_at INTEGER,
  created_at INTEGER NOT NULL,
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
  created_at INTEGER NOT NULL,
  CONSTRAINT signing_keys_pk PRIMARY KEY (kid)
);
`,
  },
  {
    id: '0003_execution_outputs',
    sql: `ALTER TABLE executions ADD COLUMN outputs TEXT;`,
  },
  {
    id: '0004_catalog',
    sql: `
CREATE TABLE catalog_specs (
  tenant_id TEXT NOT NULL,
  id TEXT NOT NULL,
  name TEXT NOT NULL,
  title TEXT NOT NULL,
  version TEXT NOT NULL,
  source_version TEXT NOT NULL,
  document TEXT NOT NULL,
  endpoint_count INTEGER NOT NULL,
  imported_at INTEGER NOT NULL,
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
`,
  },
  {
    id: '0005_jobs_suites',
    sql: `
CREATE TABLE jobs (
  tenant_id TEXT NOT NULL,
  id TEXT NOT NULL,
  kind TEXT NOT NULL,
  status TEXT NOT NULL,
  input TEXT NOT NULL,
  progress TEXT,
  result TEXT,
  error TEXT,
  created_at INTEGER NOT NULL,
  started_at INTEGER,
  ended_at INTEGER,
  updated_at INTEGER NOT NULL,
  owner TEXT,
  lease_expires_at INTEGER,
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
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  CONSTRAINT suites_pk PRIMARY KEY (tenant_id, id)
);
CREATE UNIQUE INDEX suites_tenant_name_idx ON suites (tenant_id, name);
CREATE INDEX suites_tenant_updated_idx ON suites (tenant_id, updated_at, id);
`,
  },
  {
    // How far each execution log had been folded into executions and steps (dropped by 0008).
    id: '0006_execution_log_positions',
    sql: `
CREATE TABLE execution_log_positions (
  log_id TEXT NOT NULL,
  epoch INTEGER NOT NULL,
  "offset" INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  CONSTRAINT execution_log_positions_pk PRIMARY KEY (log_id)
);
`,
  },
  {
    // A counter per table that triggers move on every change of it, so that a cache of rows can
    // tell whether another connection changed that table (PRAGMA data_version only says that
    // something changed). Flows are counted: every run reads its flow's current version.
    id: '0007_change_counters',
    sql: `
CREATE TABLE change_counters (
  name TEXT NOT NULL,
  counter INTEGER NOT NULL,
  CONSTRAINT change_counters_pk PRIMARY KEY (name)
);
INSERT INTO change_counters (name, counter) VALUES ('flows', 0);
CREATE TRIGGER flows_counted_insert AFTER INSERT ON flows BEGIN UPDATE change_counters SET counter = counter + 1 WHERE name = 'flows'; END;
CREATE TRIGGER flows_counted_update AFTER UPDATE ON flows BEGIN UPDATE change_counters SET counter = counter + 1 WHERE name = 'flows'; END;
CREATE TRIGGER flows_counted_delete AFTER DELETE ON flows BEGIN UPDATE change_counters SET counter = counter + 1 WHERE name = 'flows'; END;
`,
  },
  {
    // Executions and steps are written straight into their tables: the execution log, and the
    // fold positions kept for it (0006), are gone.
    id: '0008_drop_execution_log_positions',
    sql: `
DROP TABLE IF EXISTS execution_log_positions;
`,
  },
  {
    // Stored environments; secret values are sealed (AES-256-GCM) inside the variables JSON.
    id: '0009_environments',
    sql: `
CREATE TABLE environments (
  tenant_id TEXT NOT NULL,
  id TEXT NOT NULL,
  name TEXT NOT NULL,
  description TEXT NOT NULL,
  variables TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  CONSTRAINT environments_pk PRIMARY KEY (tenant_id, id)
);
CREATE UNIQUE INDEX environments_tenant_name_idx ON environments (tenant_id, name);
`,
  },
  {
    // Webhooks: flows' public trigger paths, and the verified callbacks their waits read.
    id: '0010_webhooks',
    sql: `
CREATE TABLE webhook_triggers (
  path TEXT NOT NULL,
  tenant_id TEXT NOT NULL,
  flow_id TEXT NOT NULL,
  node_id TEXT NOT NULL,
  created_at INTEGER NOT NULL,
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
  received_at INTEGER NOT NULL,
  CONSTRAINT webhook_deliveries_pk PRIMARY KEY (tenant_id, token_hash)
);
CREATE INDEX webhook_deliveries_execution_idx ON webhook_deliveries (execution_id);
`,
  },
  {
    // Schedules: cron-fired runs of a flow or a suite; next_due_at is the claim key.
    id: '0011_schedules',
    sql: `
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
  enabled INTEGER NOT NULL,
  overlap TEXT NOT NULL,
  next_due_at INTEGER,
  last_run TEXT,
  skipped_runs INTEGER NOT NULL,
  last_skipped_at INTEGER,
  missed_runs INTEGER NOT NULL,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  CONSTRAINT schedules_pk PRIMARY KEY (tenant_id, id)
);
CREATE UNIQUE INDEX schedules_tenant_name_idx ON schedules (tenant_id, name);
CREATE INDEX schedules_due_idx ON schedules (enabled, next_due_at);
`,
  },
  {
    // Health-check suites: alert channels (secret parts sealed), each check's state, and the
    // alert deliveries a change of state queues (sent by a worker, retried with backoff).
    id: '0012_health_alerts',
    sql: `
CREATE TABLE alert_channels (
  tenant_id TEXT NOT NULL,
  id TEXT NOT NULL,
  suite_id TEXT NOT NULL,
  name TEXT NOT NULL,
  type TEXT NOT NULL,
  enabled INTEGER NOT NULL,
  repeat_every_ms INTEGER,
  settings TEXT NOT NULL,
  secrets TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  CONSTRAINT alert_channels_pk PRIMARY KEY (tenant_id, id)
);
CREATE UNIQUE INDEX alert_channels_suite_name_idx ON alert_channels (tenant_id, suite_id, name);
CREATE TABLE health_checks (
  tenant_id TEXT NOT NULL,
  suite_id TEXT NOT NULL,
  flow_id TEXT NOT NULL,
  check_name TEXT NOT NULL,
  state TEXT NOT NULL,
  since INTEGER NOT NULL,
  streak INTEGER NOT NULL,
  last_run_at INTEGER NOT NULL,
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
  next_attempt_at INTEGER,
  last_error TEXT,
  response_status INTEGER,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  delivered_at INTEGER,
  CONSTRAINT alert_deliveries_pk PRIMARY KEY (tenant_id, id)
);
CREATE INDEX alert_deliveries_status_due_idx ON alert_deliveries (status, next_attempt_at);
CREATE INDEX alert_deliveries_suite_created_idx ON alert_deliveries (tenant_id, suite_id, created_at, id);
`,
  },
  {
    // Verified trigger requests taken once (a replay, or a sender's retry, starts nothing new).
    id: '0013_webhook_receipts',
    sql: `
CREATE TABLE webhook_receipts (
  tenant_id TEXT NOT NULL,
  path TEXT NOT NULL,
  replay_key TEXT NOT NULL,
  execution_id TEXT NOT NULL,
  claimed_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  CONSTRAINT webhook_receipts_pk PRIMARY KEY (tenant_id, path, replay_key)
);
CREATE INDEX webhook_receipts_expires_idx ON webhook_receipts (expires_at);
`,
  },
];

/**
 * Brings the database up to the last migration and returns the ids it applied. Runs as one
 * `BEGIN IMMEDIATE` transaction, so two processes starting on the same file at once apply each
 * migration exactly once (the second waits on `busy_timeout`, then finds nothing to do).
 */
export function applyMigrations(db: Database, migrations: readonly Migration[] = MIGRATIONS): string[] {
  const run = db.transaction(() => {
    db.exec('CREATE TABLE IF NOT EXISTS schema_migrations (id TEXT PRIMARY KEY NOT NULL, applied_at INTEGER NOT NULL)');
    const applied = new Set(db.prepare('SELECT id FROM schema_migrations').pluck().all() as string[]);
    const record = db.prepare('INSERT INTO schema_migrations (id, applied_at) VALUES (?, ?)');
    const now = Date.now();
    const done: string[] = [];
    for (const migration of migrations) {
      if (applied.has(migration.id)) continue;
      db.exec(migration.sql);
      record.run(migration.id, now);
      done.push(migration.id);
    }
    return done;
  });
  return run.immediate();
}
