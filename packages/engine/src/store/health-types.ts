import type { Page } from './types.js';

/*
 * Health checks and their alerts: each flow of a `health-check` suite is a check whose state
 * (healthy or failing, since when) every run of the suite updates; a change of state queues one
 * alert per channel of the suite, as a delivery row with a due time that a worker sends.
 */

export const CHECK_STATES = ['healthy', 'failing'] as const;
export type CheckState = (typeof CHECK_STATES)[number];

/** Where alerts go: a generic JSON webhook, a Slack-compatible incoming webhook, PagerDuty Events API v2. */
export const ALERT_CHANNEL_TYPES = ['webhook', 'slack', 'pagerduty'] as const;
export type AlertChannelType = (typeof ALERT_CHANNEL_TYPES)[number];

/** What an alert says: a check started failing, is still failing (a reminder), or recovered. */
export const ALERT_EVENTS = ['failing', 'reminder', 'recovered'] as const;
export type AlertEvent = (typeof ALERT_EVENTS)[number];

/**
 * Deliveries kept per suite: when a transition adds some, delivered and failed ones older than the
 * newest this many are removed (pending ones always stay), so a flapping check cannot grow the
 * store without bound.
 */
export const MAX_KEPT_ALERT_DELIVERIES = 1_000;

export const ALERT_DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const;
export type AlertDeliveryStatus = (typeof ALERT_DELIVERY_STATUSES)[number];

/** A channel as the service hands it to the store: `secrets` are sealed before they are written. */
export interface AlertChannelDefinition {
  name: string;
  type: AlertChannelType;
  enabled: boolean;
  /** While a check keeps failing, remind every this many milliseconds; null for no reminders. */
  repeatEveryMs: number | null;
  /** Settings that are not secret (e.g. PagerDuty's severity, the URL's origin to show). JSON. */
  settings: Record<string, unknown>;
  /** The secret parts (URLs with tokens, routing keys, signing secrets, header values), by name. */
  secrets: Record<string, string>;
}

/** A channel as reads answer it: the names of its secrets, never their values. */
export interface AlertChannelRecord {
  /** `alc_` and 20 base32 characters. */
  id: string;
  tenantId: string;
  suiteId: string;
  name: string;
  type: AlertChannelType;
  enabled: boolean;
  repeatEveryMs: number | null;
  settings: Record<string, unknown>;
  /** The names in `secrets` that are set, sorted. */
  secretKeys: string[];
  /** ISO 8601, stamped by the store. */
  createdAt: string;
  updatedAt: string;
}

export interface AlertChannelRepository {
  /** A name already used by another channel of the suite throws `SvcError('CONFLICT')`. */
  create(tenantId: string, suiteId: string, definition: AlertChannelDefinition): Promise<AlertChannelRecord>;
  get(tenantId: string, suiteId: string, id: string): Promise<AlertChannelRecord | undefined>;
  /** By name. */
  list(tenantId: string, suiteId: string): Promise<AlertChannelRecord[]>;
  /** Replaces the definition. Missing: `SvcError('ALERT_CHANNEL_NOT_FOUND')`; a name taken: `CONFLICT`. */
  update(
    tenantId: string,
    suiteId: string,
    id: string,
    definition: AlertChannelDefinition,
  ): Promise<AlertChannelRecord>;
  /** True when a channel was deleted. */
  delete(tenantId: string, suiteId: string, id: string): Promise<boolean>;
  /**
   * The secrets decrypted, for a delivery about to be sent (and for an update that keeps some);
   * undefined for a missing channel. `SvcError('SECRET_UNREADABLE')` under another key.
   */
  openSecrets(tenantId: string, id: string): Promise<Record<string, string> | undefined>;
}

/** The last failure of a check: which step failed and how. */
export interface CheckFailure {
  /** When the failing run was recorded (ms since the epoch). */
  at: number;
  executionId: string | null;
  /** The name of the node whose step failed; null when the flow did not run (e.g. it was deleted). */
  step: string | null;
  error: { code: string; message: string };
}

/** One check (a flow of a health-check suite) and its state. */
export interface CheckStateRecord {
  tenantId: string;
  suiteId: string;
  flowId: string;
  /** The flow's name when it last ran. */
  checkName: string;
  state: CheckState;
  /** Since when the check is in `state` (ms since the epoch). */
  since: number;
  /** Runs in a row that ended in `state`. */
  streak: number;
  lastRunAt: number;
  lastExecutionId: string | null;
  lastFailure: CheckFailure | null;
  /**
   * When each channel (by id) was last alerted about the current failure: what `repeatEvery`
   * reminders count from. Emptied on recovery.
   */
  notifiedAt: Record<string, number>;
  /** Raised by one on each write: a transition applies only over the version it was decided on. */
  version: number;
}

/** The facts of one alert, kept on its delivery and rendered per channel type when it is sent. */
export interface AlertFacts {
  event: AlertEvent;
  suite: { id: string; name: string };
  check: { flowId: string; name: string };
  state: CheckState;
  /** ISO 8601: since when the check is in `state`. */
  since: string;
  /** The failure (for `failing` and `reminder`), or the one that ended (for `recovered`). */
  error: { code: string; message: string; step: string | null } | null;
  /** The execution of the run that raised the alert. */
  executionId: string | null;
  /** The execution over REST, on the service's public base URL. */
  executionUrl: string | null;
  /** ISO 8601: when the alert was raised. */
  time: string;
}

export interface AlertDeliveryRecord {
  /** `alr_` and a version 7 UUID (ids sort by creation). Sent as `webhook-id` when signed. */
  id: string;
  tenantId: string;
  suiteId: string;
  channelId: string;
  channelType: AlertChannelType;
  flowId: string;
  event: AlertEvent;
  alert: AlertFacts;
  status: AlertDeliveryStatus;
  /** Attempts begun so far (an attempt counts from the moment a worker claims it). */
  attempts: number;
  /** While pending: when it is due (the next attempt, or when a claimed attempt is given up on). */
  nextAttemptAt: number | null;
  lastError: { code: string; message: string } | null;
  /** The HTTP status of the last answer, when there was one. */
  responseStatus: number | null;
  createdAt: number;
  updatedAt: number;
  deliveredAt: number | null;
}

export interface ListAlertDeliveriesQuery {
  status?: AlertDeliveryStatus;
  /** One check's alerts. */
  flowId?: string;
  limit?: number;
  cursor?: string;
}

export interface ClaimAlertDeliveriesOptions {
  now: number;
  /** A claimed attempt that has not finished by `now + leaseMs` is due again (its sender died). */
  leaseMs: number;
  limit: number;
  /** At most this many of one channel in this claim (default: no limit). */
  perChannel?: number;
  /** Take none of these channels' deliveries (those a worker already has enough of in flight). */
  skipChannelIds?: readonly string[];
}

/** How an attempt ended: delivered, due again at `nextAttemptAt`, or given up on. */
export type AlertAttemptOutcome =
  | { status: 'delivered'; at: number; responseStatus: number }
  | {
      status: 'pending' | 'failed';
      at: number;
      nextAttemptAt: number | null;
      lastError: { code: string; message: string };
      responseStatus: number | null;
    };

export interface CheckTransition {
  /** The check's version the decision was made on; null when the check had no state yet. */
  expectedVersion: number | null;
  /** The new state (its `version` is set by the store to `expectedVersion + 1`, or 1). */
  next: Omit<CheckStateRecord, 'version'>;
  /** Alerts the transition raises, stored in the same transaction. */
  deliveries: AlertDeliveryRecord[];
}

export interface HealthRepository {
  /** The suite's checks, by flow id. */
  listChecks(tenantId: string, suiteId: string): Promise<CheckStateRecord[]>;
  getCheck(tenantId: string, suiteId: string, flowId: string): Promise<CheckStateRecord | undefined>;
  /**
   * Writes the check's new state and inserts its deliveries atomically, only when the stored
   * version is still `expectedVersion` (or, for null, no state is stored): answers false and
   * writes nothing otherwise, so two runs deciding on the same state cannot both alert. Past
   * `MAX_KEPT_ALERT_DELIVERIES` of the suite, the oldest finished deliveries are removed.
   */
  transition(transition: CheckTransition): Promise<boolean>;
  /** Newest first. */
  listDeliveries(
    tenantId: string,
    suiteId: string,
    query?: ListAlertDeliveriesQuery,
  ): Promise<Page<AlertDeliveryRecord>>;
  getDelivery(tenantId: string, id: string): Promise<AlertDeliveryRecord | undefined>;
  /**
   * Atomically takes up to `limit` pending deliveries due by `now` (any tenant), oldest due
   * first: counts the attempt and moves the due time to `now + leaseMs`, so another worker does
   * not take them while this one sends, and takes them again if this one dies.
   */
  claimDue(options: ClaimAlertDeliveriesOptions): Promise<AlertDeliveryRecord[]>;
  /**
   * Records how the attempt numbered `attempt` ended, when the delivery is still pending on that
   * attempt; answers false otherwise (a worker whose claim expired and was taken over).
   */
  finishAttempt(tenantId: string, id: string, attempt: number, outcome: AlertAttemptOutcome): Promise<boolean>;
  /** Removes a deleted suite's channels, check states and deliveries. */
  deleteSuite(tenantId: string, suiteId: string): Promise<void>;
}
