import { bigint, boolean, index, integer, pgTable, primaryKey, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { ALERT_CHANNEL_TYPES, ALERT_DELIVERY_STATUSES, ALERT_EVENTS, CHECK_STATES } from '../health-types.js';

/*
 * Health checks and alerts, beside `schema.ts` and under its conventions: the SQLite store's
 * tables column for column (`../sqlite/health-schema.ts`).
 */

/**
 * Alert channels of a suite. `secrets` is a JSON object of `{ "<name>": "v1:…" }`: every value
 * sealed (AES-256-GCM, the environments' cipher), with a context naming tenant, channel and name.
 */
export const alertChannels = pgTable(
  'alert_channels',
  {
    tenantId: text('tenant_id').notNull(),
    id: text('id').notNull(),
    suiteId: text('suite_id').notNull(),
    name: text('name').notNull(),
    type: text('type', { enum: ALERT_CHANNEL_TYPES }).notNull(),
    enabled: boolean('enabled').notNull(),
    repeatEveryMs: bigint('repeat_every_ms', { mode: 'number' }),
    /** JSON object of the settings that are not secret. */
    settings: text('settings').notNull(),
    secrets: text('secrets').notNull(),
    createdAt: bigint('created_at', { mode: 'number' }).notNull(),
    updatedAt: bigint('updated_at', { mode: 'number' }).notNull(),
  },
  (t) => [
    primaryKey({ name: 'alert_channels_pk', columns: [t.tenantId, t.id] }),
    uniqueIndex('alert_channels_suite_name_idx').on(t.tenantId, t.suiteId, t.name),
  ],
);

/** One row per check (a flow of a health-check suite): its state and last failure. */
export const healthChecks = pgTable(
  'health_checks',
  {
    tenantId: text('tenant_id').notNull(),
    suiteId: text('suite_id').notNull(),
    flowId: text('flow_id').notNull(),
    checkName: text('check_name').notNull(),
    state: text('state', { enum: CHECK_STATES }).notNull(),
    since: bigint('since', { mode: 'number' }).notNull(),
    streak: integer('streak').notNull(),
    lastRunAt: bigint('last_run_at', { mode: 'number' }).notNull(),
    lastExecutionId: text('last_execution_id'),
    /** `{ at, executionId, step, error }` as JSON, or NULL before the first failure. */
    lastFailure: text('last_failure'),
    /** JSON object: channel id → when it was last alerted about the current failure. */
    notifiedAt: text('notified_at').notNull(),
    version: integer('version').notNull(),
  },
  (t) => [primaryKey({ name: 'health_checks_pk', columns: [t.tenantId, t.suiteId, t.flowId] })],
);

/** Alerts to send and sent: the worker claims the due ones by `(status, next_attempt_at)`. */
export const alertDeliveries = pgTable(
  'alert_deliveries',
  {
    tenantId: text('tenant_id').notNull(),
    id: text('id').notNull(),
    suiteId: text('suite_id').notNull(),
    channelId: text('channel_id').notNull(),
    channelType: text('channel_type', { enum: ALERT_CHANNEL_TYPES }).notNull(),
    flowId: text('flow_id').notNull(),
    event: text('event', { enum: ALERT_EVENTS }).notNull(),
    /** The alert's facts (`AlertFacts`) as JSON; no secret is in them. */
    alert: text('alert').notNull(),
    status: text('status', { enum: ALERT_DELIVERY_STATUSES }).notNull(),
    attempts: integer('attempts').notNull(),
    nextAttemptAt: bigint('next_attempt_at', { mode: 'number' }),
    /** `{ code, message }` as JSON. */
    lastError: text('last_error'),
    responseStatus: integer('response_status'),
    createdAt: bigint('created_at', { mode: 'number' }).notNull(),
    updatedAt: bigint('updated_at', { mode: 'number' }).notNull(),
    deliveredAt: bigint('delivered_at', { mode: 'number' }),
  },
  (t) => [
    primaryKey({ name: 'alert_deliveries_pk', columns: [t.tenantId, t.id] }),
    index('alert_deliveries_status_due_idx').on(t.status, t.nextAttemptAt),
    index('alert_deliveries_suite_created_idx').on(t.tenantId, t.suiteId, t.createdAt, t.id),
  ],
);

export type AlertChannelRow = typeof alertChannels.$inferSelect;
export type HealthCheckRow = typeof healthChecks.$inferSelect;
export type AlertDeliveryRow = typeof alertDeliveries.$inferSelect;
