import { foreignKey, index, integer, primaryKey, real, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import {
  EXECUTION_STATUSES,
  JOB_STATUSES,
  OVERLAP_POLICIES,
  SCHEDULE_TARGET_TYPES,
  STEP_STATUSES,
  SUITE_KINDS,
  SUITE_MODES,
} from '../types.js';

/*
 * The embedded store's tables. `migrations.ts` creates them with hand-written SQL; the
 * schema test compares both column by column, so a change here needs a new migration there.
 *
 * Conventions: every row carries `tenant_id` and it leads every primary key, so an id that
 * another tenant also uses is a different row, never a conflict that reveals it exists.
 * Times are integer milliseconds since the epoch; JSON is stored as text and (de)serialised by
 * the repositories, which keeps the row types identical for drizzle queries and the raw
 * prepared statements of the hot paths.
 */

export const flows = sqliteTable(
  'flows',
  {
    tenantId: text('tenant_id').notNull(),
    id: text('id').notNull(),
    name: text('name').notNull(),
    description: text('description').notNull(),
    folderId: text('folder_id'),
    version: integer('version').notNull(),
    /** The whole stored flow (`StoredFlow`) of the current version, as JSON. */
    document: text('document').notNull(),
    nodeCount: integer('node_count').notNull(),
    createdAt: integer('created_at').notNull(),
    updatedAt: integer('updated_at').notNull(),
    /** Soft delete: versions stay readable; a new flow with the id takes the row, numbered after them. */
    deletedAt: integer('deleted_at'),
  },
  (t) => [
    primaryKey({ name: 'flows_pk', columns: [t.tenantId, t.id] }),
    index('flows_tenant_name_idx').on(t.tenantId, t.name),
    index('flows_tenant_folder_idx').on(t.tenantId, t.folderId),
    index('flows_tenant_updated_idx').on(t.tenantId, t.updatedAt, t.id),
  ],
);

export const flowVersions = sqliteTable(
  'flow_versions',
  {
    tenantId: text('tenant_id').notNull(),
    flowId: text('flow_id').notNull(),
    version: integer('version').notNull(),
    /** The stored flow as it was saved at this version, as JSON. */
    document: text('document').notNull(),
    createdAt: integer('created_at').notNull(),
  },
  (t) => [
    primaryKey({ name: 'flow_versions_pk', columns: [t.tenantId, t.flowId, t.version] }),
    foreignKey({
      name: 'flow_versions_flow_fk',
      columns: [t.tenantId, t.flowId],
      foreignColumns: [flows.tenantId, flows.id],
    }),
  ],
);

/*
 * No foreign key from executions to flows: a run may come from a flow file that was never
 * saved (`svc run flow ./x.yaml`), and the flow row is never removed anyway.
 */
export const executions = sqliteTable(
  'executions',
  {
    tenantId: text('tenant_id').notNull(),
    id: text('id').notNull(),
    flowId: text('flow_id').notNull(),
    flowVersion: integer('flow_version').notNull(),
    flowName: text('flow_name').notNull(),
    status: text('status', { enum: EXECUTION_STATUSES }).notNull(),
    trigger: text('trigger').notNull(),
    env: text('env').notNull(),
    secretKeys: text('secret_keys').notNull(),
    inputs: text('inputs').notNull(),
    parentExecutionId: text('parent_execution_id'),
    error: text('error'),
    createdAt: integer('created_at').notNull(),
    startedAt: integer('started_at'),
    endedAt: integer('ended_at'),
    // Durations may be fractional (measured with a monotonic timer).
    durationMs: real('duration_ms'),
    nodesExecuted: integer('nodes_executed').notNull(),
    nodesSkipped: integer('nodes_skipped').notNull(),
    stepsExecuted: integer('steps_executed').notNull(),
    wakeAt: integer('wake_at'),
    leaseOwner: text('lease_owner'),
    leaseExpiresAt: integer('lease_expires_at'),
    updatedAt: integer('updated_at').notNull(),
    // Added by 0003: the flow's declared outputs, evaluated when the run completed.
    outputs: text('outputs'),
  },
  (t) => [
    primaryKey({ name: 'executions_pk', columns: [t.tenantId, t.id] }),
    index('executions_tenant_flow_created_idx').on(t.tenantId, t.flowId, t.createdAt),
    index('executions_tenant_created_idx').on(t.tenantId, t.createdAt),
    index('executions_status_wake_idx').on(t.status, t.wakeAt),
    index('executions_lease_owner_idx').on(t.leaseOwner),
  ],
);

export const steps = sqliteTable(
  'steps',
  {
    tenantId: text('tenant_id').notNull(),
    id: text('id').notNull(),
    executionId: text('execution_id').notNull(),
    seq: integer('seq').notNull(),
    nodeId: text('node_id').notNull(),
    nodeName: text('node_name').notNull(),
    nodeType: text('node_type').notNull(),
    scope: text('scope').notNull(),
    attempt: integer('attempt').notNull(),
    status: text('status', { enum: STEP_STATUSES }).notNull(),
    startedAt: integer('started_at').notNull(),
    endedAt: integer('ended_at'),
    latencyMs: real('latency_ms'),
    request: text('request'),
    response: text('response'),
    output: text('output'),
    handles: text('handles').notNull(),
    error: text('error'),
    skipKind: text('skip_kind', { enum: ['condition', 'failure'] }),
    branch: text('branch'),
    wakeAt: integer('wake_at'),
    state: text('state'),
  },
  // No primary key of its own: steps live in the rowid tree (appended in commit order) and one
  // unique index by execution and seq, so committing a step writes two B-trees, not three.
  (t) => [
    foreignKey({
      name: 'steps_execution_fk',
      columns: [t.tenantId, t.executionId],
      foreignColumns: [executions.tenantId, executions.id],
    }),
    uniqueIndex('steps_execution_seq_idx').on(t.tenantId, t.executionId, t.seq),
  ],
);

/*
 * Auth tables (migration 0002). Tenants and signing keys have no tenant of their own to lead
 * their keys; every client row carries its tenant.
 */
export const tenants = sqliteTable(
  'tenants',
  {
    id: text('id').notNull(),
    name: text('name').notNull(),
    createdAt: integer('created_at').notNull(),
  },
  (t) => [primaryKey({ name: 'tenants_pk', columns: [t.id] })],
);

export const apiClients = sqliteTable(
  'api_clients',
  {
    tenantId: text('tenant_id').notNull(),
    clientId: text('client_id').notNull(),
    name: text('name').notNull(),
    /** JSON array of scope names. */
    scopes: text('scopes').notNull(),
    trial: integer('trial', { mode: 'boolean' }).notNull(),
    expiresAt: integer('expires_at'),
    /** Hex SHA-256 of the secret (see the gateway's `auth/secrets.ts` for why a fast hash). */
    secretHash: text('secret_hash').notNull(),
    previousSecretHash: text('previous_secret_hash'),
    previousSecretExpiresAt: integer('previous_secret_expires_at'),
    revokedAt: integer('revoked_at'),
    createdAt: integer('created_at').notNull(),
  },
  (t) => [
    primaryKey({ name: 'api_clients_pk', columns: [t.tenantId, t.clientId] }),
    foreignKey({ name: 'api_clients_tenant_fk', columns: [t.tenantId], foreignColumns: [tenants.id] }),
    // A token request and an API key name a client before its tenant is known.
    uniqueIndex('api_clients_client_id_idx').on(t.clientId),
    uniqueIndex('api_clients_secret_hash_idx').on(t.secretHash),
    index('api_clients_previous_secret_hash_idx').on(t.previousSecretHash),
  ],
);

export const signingKeys = sqliteTable(
  'signing_keys',
  {
    kid: text('kid').notNull(),
    algorithm: text('algorithm').notNull(),
    /** The private JWK as JSON. Plain in the file, like the rest of the embedded store. */
    jwk: text('jwk').notNull(),
    createdAt: integer('created_at').notNull(),
  },
  (t) => [primaryKey({ name: 'signing_keys_pk', columns: [t.kid] })],
);

/*
 * Catalog tables (migration 0004). An endpoint row repeats the few fields lists filter and show;
 * the whole endpoint is its JSON.
 */
export const catalogSpecs = sqliteTable(
  'catalog_specs',
  {
    tenantId: text('tenant_id').notNull(),
    id: text('id').notNull(),
    name: text('name').notNull(),
    title: text('title').notNull(),
    version: text('version').notNull(),
    sourceVersion: text('source_version').notNull(),
    document: text('document').notNull(),
    endpointCount: integer('endpoint_count').notNull(),
    importedAt: integer('imported_at').notNull(),
  },
  (t) => [primaryKey({ name: 'catalog_specs_pk', columns: [t.tenantId, t.id] })],
);

export const catalogEndpoints = sqliteTable(
  'catalog_endpoints',
  {
    tenantId: text('tenant_id').notNull(),
    specId: text('spec_id').notNull(),
    endpointId: text('endpoint_id').notNull(),
    /** Order within the spec, which is also the paging key. */
    position: integer('position').notNull(),
    method: text('method').notNull(),
    path: text('path').notNull(),
    summary: text('summary').notNull(),
    tags: text('tags').notNull(),
    endpoint: text('endpoint').notNull(),
  },
  (t) => [
    primaryKey({ name: 'catalog_endpoints_pk', columns: [t.tenantId, t.specId, t.endpointId] }),
    index('catalog_endpoints_tenant_endpoint_idx').on(t.tenantId, t.endpointId),
    uniqueIndex('catalog_endpoints_tenant_spec_position_idx').on(t.tenantId, t.specId, t.position),
    foreignKey({
      name: 'catalog_endpoints_spec_fk',
      columns: [t.tenantId, t.specId],
      foreignColumns: [catalogSpecs.tenantId, catalogSpecs.id],
    }),
  ],
);

/*
 * Jobs and suites (migration 0005).
 */
export const jobs = sqliteTable(
  'jobs',
  {
    tenantId: text('tenant_id').notNull(),
    id: text('id').notNull(),
    kind: text('kind').notNull(),
    status: text('status', { enum: JOB_STATUSES }).notNull(),
    /** JSON. */
    input: text('input').notNull(),
    progress: text('progress'),
    /** JSON, once Completed. */
    result: text('result'),
    /** `{ code, message }` as JSON, once Failed. */
    error: text('error'),
    createdAt: integer('created_at').notNull(),
    startedAt: integer('started_at'),
    endedAt: integer('ended_at'),
    updatedAt: integer('updated_at').notNull(),
    owner: text('owner'),
    leaseExpiresAt: integer('lease_expires_at'),
  },
  (t) => [
    primaryKey({ name: 'jobs_pk', columns: [t.tenantId, t.id] }),
    index('jobs_tenant_created_idx').on(t.tenantId, t.createdAt, t.id),
    // The orphan sweep reads active jobs only, by lease.
    index('jobs_status_lease_idx').on(t.status, t.leaseExpiresAt),
  ],
);

export const suites = sqliteTable(
  'suites',
  {
    tenantId: text('tenant_id').notNull(),
    id: text('id').notNull(),
    name: text('name').notNull(),
    description: text('description').notNull(),
    mode: text('mode', { enum: SUITE_MODES }).notNull(),
    kind: text('kind', { enum: SUITE_KINDS }).notNull(),
    /** JSON array of flow ids, in order. */
    flowIds: text('flow_ids').notNull(),
    flowCount: integer('flow_count').notNull(),
    /** JSON object or NULL. */
    source: text('source'),
    createdAt: integer('created_at').notNull(),
    updatedAt: integer('updated_at').notNull(),
  },
  (t) => [
    primaryKey({ name: 'suites_pk', columns: [t.tenantId, t.id] }),
    // `svc run suite <name>` finds a suite by name, so a name means one suite in its tenant.
    uniqueIndex('suites_tenant_name_idx').on(t.tenantId, t.name),
    index('suites_tenant_updated_idx').on(t.tenantId, t.updatedAt, t.id),
  ],
);

/**
 * Stored environments (migration 0009). `variables` is a JSON object of
 * `{ "<key>": { "value": <json> } | { "sealed": "v1:…" } }`: secret values only ever sealed.
 */
export const environments = sqliteTable(
  'environments',
  {
    tenantId: text('tenant_id').notNull(),
    id: text('id').notNull(),
    name: text('name').notNull(),
    description: text('description').notNull(),
    variables: text('variables').notNull(),
    createdAt: integer('created_at').notNull(),
    updatedAt: integer('updated_at').notNull(),
  },
  (t) => [
    primaryKey({ name: 'environments_pk', columns: [t.tenantId, t.id] }),
    // A run names its environment, so a name means one environment in its tenant.
    uniqueIndex('environments_tenant_name_idx').on(t.tenantId, t.name),
  ],
);

/**
 * Public trigger paths of flows (migration 0010). The path alone leads the key: a path is unique
 * across the service, since an inbound request names nothing else (no tenant, no credentials).
 */
export const webhookTriggers = sqliteTable(
  'webhook_triggers',
  {
    path: text('path').notNull(),
    tenantId: text('tenant_id').notNull(),
    flowId: text('flow_id').notNull(),
    nodeId: text('node_id').notNull(),
    createdAt: integer('created_at').notNull(),
  },
  (t) => [
    primaryKey({ name: 'webhook_triggers_pk', columns: [t.path] }),
    uniqueIndex('webhook_triggers_flow_node_idx').on(t.tenantId, t.flowId, t.nodeId),
  ],
);

/**
 * Verified callbacks (migration 0010), one per token: a second delivery of a token meets the key.
 * `body` and `headers` are JSON.
 */
export const webhookDeliveries = sqliteTable(
  'webhook_deliveries',
  {
    tenantId: text('tenant_id').notNull(),
    tokenHash: text('token_hash').notNull(),
    executionId: text('execution_id').notNull(),
    nodeId: text('node_id').notNull(),
    scope: text('scope').notNull(),
    body: text('body').notNull(),
    headers: text('headers').notNull(),
    receivedAt: integer('received_at').notNull(),
  },
  (t) => [
    primaryKey({ name: 'webhook_deliveries_pk', columns: [t.tenantId, t.tokenHash] }),
    index('webhook_deliveries_execution_idx').on(t.executionId),
  ],
);

/** Verified trigger requests taken once, by replay key, until their timestamp's tolerance ends. */
export const webhookReceipts = sqliteTable(
  'webhook_receipts',
  {
    tenantId: text('tenant_id').notNull(),
    path: text('path').notNull(),
    key: text('replay_key').notNull(),
    executionId: text('execution_id').notNull(),
    claimedAt: integer('claimed_at').notNull(),
    expiresAt: integer('expires_at').notNull(),
  },
  (t) => [
    primaryKey({ name: 'webhook_receipts_pk', columns: [t.tenantId, t.path, t.key] }),
    index('webhook_receipts_expires_idx').on(t.expiresAt),
  ],
);

/**
 * Schedules (migration 0011). `next_due_at` is the claim key: a due run is fired by the one
 * process whose conditional update moved it on. `last_run` is the last fired run as JSON.
 */
export const schedules = sqliteTable(
  'schedules',
  {
    tenantId: text('tenant_id').notNull(),
    id: text('id').notNull(),
    name: text('name').notNull(),
    description: text('description').notNull(),
    targetType: text('target_type', { enum: SCHEDULE_TARGET_TYPES }).notNull(),
    targetId: text('target_id').notNull(),
    cron: text('cron').notNull(),
    timezone: text('timezone').notNull(),
    environment: text('environment'),
    enabled: integer('enabled', { mode: 'boolean' }).notNull(),
    overlap: text('overlap', { enum: OVERLAP_POLICIES }).notNull(),
    nextDueAt: integer('next_due_at'),
    lastRun: text('last_run'),
    skippedRuns: integer('skipped_runs').notNull(),
    lastSkippedAt: integer('last_skipped_at'),
    missedRuns: integer('missed_runs').notNull(),
    createdAt: integer('created_at').notNull(),
    updatedAt: integer('updated_at').notNull(),
  },
  (t) => [
    primaryKey({ name: 'schedules_pk', columns: [t.tenantId, t.id] }),
    uniqueIndex('schedules_tenant_name_idx').on(t.tenantId, t.name),
    // The scheduler's read: enabled schedules by due time, across tenants.
    index('schedules_due_idx').on(t.enabled, t.nextDueAt),
  ],
);

/**
 * How often each counted table changed (migration 0007; triggers count). A cache compares a
 * table's counter to tell another connection's change of that table from changes of others.
 */
export const changeCounters = sqliteTable(
  'change_counters',
  {
    name: text('name').notNull(),
    counter: integer('counter').notNull(),
  },
  (t) => [primaryKey({ name: 'change_counters_pk', columns: [t.name] })],
);

export type FlowRow = typeof flows.$inferSelect;
export type FlowVersionRow = typeof flowVersions.$inferSelect;
export type ExecutionRow = typeof executions.$inferSelect;
export type StepRow = typeof steps.$inferSelect;
export type TenantRow = typeof tenants.$inferSelect;
export type ApiClientRow = typeof apiClients.$inferSelect;
export type SigningKeyRow = typeof signingKeys.$inferSelect;
export type CatalogSpecRow = typeof catalogSpecs.$inferSelect;
export type CatalogEndpointRow = typeof catalogEndpoints.$inferSelect;
export type JobRow = typeof jobs.$inferSelect;
export type SuiteRow = typeof suites.$inferSelect;
export type EnvironmentRow = typeof environments.$inferSelect;
export type WebhookTriggerRow = typeof webhookTriggers.$inferSelect;
export type WebhookDeliveryRow = typeof webhookDeliveries.$inferSelect;
export type ScheduleRow = typeof schedules.$inferSelect;
