import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { ALERT_CHANNEL_TYPES, ALERT_DELIVERY_STATUSES, ALERT_EVENTS, CHECK_STATES } from '../health-types.js';

/*
 * Health checks and alerts (migration 0012), beside `schema.ts` and under its conventions:
 * `tenant_id` leads every key, times are integer milliseconds, JSON is text.
 */

/**
 * Alert channels of a suite. `secrets` is a JSON object of `{ "<name>": "v1:…" }`: every value
 * sealed (AES-256-GCM, the environments' cipher), with a context naming tenant, channel and name.
 */
export const alertChannels = sqliteTable(
  'alert_channels',
  {
    tenantId: text('tenant_id').notNull(),
    id: text('id').notNull(),
    suiteId: text('suite_id').notNull(),
    name: text('name').notNull(),
    type: text('type', { enum: ALERT_CHANNEL_TYPES }).notNull(),
    enabled: integer('enabled', { mode: 'boolean' }).notNull(),
    repeatEveryMs: integer('repeat_every_ms'),
    /** JSON object of the settings that are not secret. */
    settings: text('settings').notNull(),
    secrets: text('secrets').notNull(),
    createdAt: integer('created_at').notNull(),
    updatedAt: integer('updated_at').notNull(),
  },
  (t) => [
    primaryKey({ name: 'alert_channels_pk', columns: [t.tenantId, t.id] }),
    uniqueIndex('alert_channels_suite_name_idx').on(t.tenantId, t.suiteId, t.name),
  ],
);

/** One row per check (a flow of a health-check suite): its state and last failure. */
export const healthChecks = sqliteTable(
  'health_checks',
  {
    tenantId: text('tenant_id').notNull(),
    suiteId: text('suite_id').notNull(),
    flowId: text('flow_id').notNull(),
    checkName: text('check_name').notNull(),
    state: text('state', { enum: CHECK_STATES }).notNull(),
    since: integer('since').notNull(),
    streak: integer('streak').notNull(),
    lastRunAt: integer('last_run_at').notNull(),
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
export const alertDeliveries = sqliteTable(
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
    nextAttemptAt: integer('next_attempt_at'),
    /** `{ code, message }` as JSON. */
    lastError: text('last_error'),
    responseStatus: integer('response_status'),
    createdAt: integer('created_at').notNull(),
    updatedAt: integer('updated_at').notNull(),
    deliveredAt: integer('delivered_at'),
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
