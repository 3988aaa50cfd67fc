import { eq, type AnyColumn } from 'drizzle-orm';
import type {
  AlertAttemptOutcome,
  AlertDeliveryRecord,
  CheckStateRecord,
  CheckTransition,
  ListAlertDeliveriesQuery,
} from './health-types.js';
import { keysetListQuery, type ListQuery } from './list-query.js';

/** A check's state as both stores keep it: the last failure and the alert times as JSON text. */
export type CheckColumns = Omit<CheckStateRecord, 'lastFailure' | 'notifiedAt'> & {
  lastFailure: string | null;
  notifiedAt: string;
};

/** An alert delivery as both stores keep it: the alert and the last error as JSON text. */
export type DeliveryColumns = Omit<AlertDeliveryRecord, 'alert' | 'lastError'> & {
  alert: string;
  lastError: string | null;
};

function toCheckRow(record: CheckStateRecord): CheckColumns {
  return {
    tenantId: record.tenantId,
    suiteId: record.suiteId,
    flowId: record.flowId,
    checkName: record.checkName,
    state: record.state,
    since: record.since,
    streak: record.streak,
    lastRunAt: record.lastRunAt,
    lastExecutionId: record.lastExecutionId,
    lastFailure: record.lastFailure === null ? null : JSON.stringify(record.lastFailure),
    notifiedAt: JSON.stringify(record.notifiedAt),
    version: record.version,
  };
}

/** The row a transition writes: its next state, one version past the one it was decided on. */
export function transitionedCheckRow(change: CheckTransition): CheckColumns {
  return toCheckRow({ ...change.next, version: (change.expectedVersion ?? 0) + 1 });
}

export function toCheckRecord(row: CheckColumns): CheckStateRecord {
  return {
    tenantId: row.tenantId,
    suiteId: row.suiteId,
    flowId: row.flowId,
    checkName: row.checkName,
    state: row.state,
    since: row.since,
    streak: row.streak,
    lastRunAt: row.lastRunAt,
    lastExecutionId: row.lastExecutionId,
    lastFailure: row.lastFailure === null ? null : (JSON.parse(row.lastFailure) as CheckStateRecord['lastFailure']),
    // A null-prototype object: a channel id is a key like any other.
    notifiedAt: Object.assign(Object.create(null) as Record<string, number>, JSON.parse(row.notifiedAt) as object),
    version: row.version,
  };
}

export function toDeliveryRow(record: AlertDeliveryRecord): DeliveryColumns {
  return {
    tenantId: record.tenantId,
    id: record.id,
    suiteId: record.suiteId,
    channelId: record.channelId,
    channelType: record.channelType,
    flowId: record.flowId,
    event: record.event,
    alert: JSON.stringify(record.alert),
    status: record.status,
    attempts: record.attempts,
    nextAttemptAt: record.nextAttemptAt,
    lastError: record.lastError === null ? null : JSON.stringify(record.lastError),
    responseStatus: record.responseStatus,
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
    deliveredAt: record.deliveredAt,
  };
}

export function toDeliveryRecord(row: DeliveryColumns): AlertDeliveryRecord {
  return {
    id: row.id,
    tenantId: row.tenantId,
    suiteId: row.suiteId,
    channelId: row.channelId,
    channelType: row.channelType,
    flowId: row.flowId,
    event: row.event,
    alert: JSON.parse(row.alert) as AlertDeliveryRecord['alert'],
    status: row.status,
    attempts: row.attempts,
    nextAttemptAt: row.nextAttemptAt,
    lastError: row.lastError === null ? null : (JSON.parse(row.lastError) as AlertDeliveryRecord['lastError']),
    responseStatus: row.responseStatus,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    deliveredAt: row.deliveredAt,
  };
}

/** The columns a finished attempt sets on its delivery; `updatedAt` is when it ended. */
export function finishedAttemptColumns(outcome: AlertAttemptOutcome) {
  const failedOrPending = outcome.status === 'delivered' ? undefined : outcome;
  return {
    status: outcome.status,
    nextAttemptAt: failedOrPending?.nextAttemptAt ?? null,
    lastError: failedOrPending ? JSON.stringify(failedOrPending.lastError) : null,
    responseStatus: outcome.responseStatus,
    deliveredAt: outcome.status === 'delivered' ? outcome.at : null,
    updatedAt: outcome.at,
  };
}

/** A page of a suite's alert deliveries, newest first, of one status or check when asked. */
export function deliveryListQuery(
  table: Record<'tenantId' | 'suiteId' | 'status' | 'flowId' | 'createdAt' | 'id', AnyColumn>,
  tenantId: string,
  suiteId: string,
  query: ListAlertDeliveriesQuery,
): ListQuery<DeliveryColumns> {
  const filters = [
    eq(table.tenantId, tenantId),
    eq(table.suiteId, suiteId),
    query.status === undefined ? undefined : eq(table.status, query.status),
    query.flowId === undefined ? undefined : eq(table.flowId, query.flowId),
  ];
  return keysetListQuery(query, filters, 'desc', [table.createdAt, table.id], (row) => row.createdAt);
}
