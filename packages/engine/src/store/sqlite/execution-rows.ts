import type { ErrorInfo, ExecutionRecord, StepRecord } from '../types.js';
import type { ExecutionRow, StepRow } from './schema.js';

/*
 * The one place where executions and steps change shape between the store's records
 * (`types.ts`) and the table rows (`schema.ts`): JSON columns are serialised on the way in and
 * parsed on the way out. The client-facing shapes are made from records in
 * `runtime/execution-view.ts`.
 */

export function errorJson(error: ErrorInfo | null): string | null {
  return error === null ? null : JSON.stringify(error);
}

/** `undefined` has no JSON form; it is stored as SQL NULL and read back as `null`. */
export function toJson(value: unknown): string | null {
  return value === undefined ? null : JSON.stringify(value);
}

function fromJson(text: string | null): unknown {
  return text === null ? null : JSON.parse(text);
}

function errorFromJson(text: string | null): ErrorInfo | null {
  return text === null ? null : (JSON.parse(text) as ErrorInfo);
}

export function toExecutionRow(record: ExecutionRecord): ExecutionRow {
  return {
    tenantId: record.tenantId,
    id: record.id,
    flowId: record.flowId,
    flowVersion: record.flowVersion,
    flowName: record.flowName,
    status: record.status,
    trigger: JSON.stringify(record.trigger),
    env: JSON.stringify(record.env),
    secretKeys: JSON.stringify(record.secretKeys),
    inputs: JSON.stringify(record.inputs),
    parentExecutionId: record.parentExecutionId,
    error: errorJson(record.error),
    createdAt: record.createdAt,
    startedAt: record.startedAt,
    endedAt: record.endedAt,
    durationMs: record.durationMs,
    nodesExecuted: record.nodesExecuted,
    nodesSkipped: record.nodesSkipped,
    stepsExecuted: record.stepsExecuted,
    wakeAt: record.wakeAt,
    leaseOwner: record.leaseOwner,
    leaseExpiresAt: record.leaseExpiresAt,
    updatedAt: record.updatedAt,
    outputs: record.outputs === null ? null : JSON.stringify(record.outputs),
  };
}

export function toExecutionRecord(row: ExecutionRow): ExecutionRecord {
  return {
    id: row.id,
    tenantId: row.tenantId,
    flowId: row.flowId,
    flowVersion: row.flowVersion,
    flowName: row.flowName,
    status: row.status,
    trigger: JSON.parse(row.trigger) as ExecutionRecord['trigger'],
    env: JSON.parse(row.env) as Record<string, unknown>,
    secretKeys: JSON.parse(row.secretKeys) as string[],
    inputs: JSON.parse(row.inputs) as Record<string, unknown>,
    parentExecutionId: row.parentExecutionId,
    error: errorFromJson(row.error),
    createdAt: row.createdAt,
    startedAt: row.startedAt,
    endedAt: row.endedAt,
    durationMs: row.durationMs,
    nodesExecuted: row.nodesExecuted,
    nodesSkipped: row.nodesSkipped,
    stepsExecuted: row.stepsExecuted,
    wakeAt: row.wakeAt,
    leaseOwner: row.leaseOwner,
    leaseExpiresAt: row.leaseExpiresAt,
    updatedAt: row.updatedAt,
    outputs: row.outputs === null ? null : (JSON.parse(row.outputs) as Record<string, unknown>),
  };
}

export function toStepRow(step: StepRecord): StepRow {
  return {
    tenantId: step.tenantId,
    id: step.id,
    executionId: step.executionId,
    seq: step.seq,
    nodeId: step.nodeId,
    nodeName: step.nodeName,
    nodeType: step.nodeType,
    scope: step.scope,
    attempt: step.attempt,
    status: step.status,
    startedAt: step.startedAt,
    endedAt: step.endedAt,
    latencyMs: step.latencyMs,
    request: toJson(step.request),
    response: toJson(step.response),
    output: toJson(step.output),
    handles: JSON.stringify(step.handles),
    error: errorJson(step.error),
    skipKind: step.skipKind,
    branch: step.branch,
    wakeAt: step.wakeAt,
    state: toJson(step.state),
  };
}

export function toStepRecord(row: StepRow): StepRecord {
  return {
    id: row.id,
    executionId: row.executionId,
    tenantId: row.tenantId,
    seq: row.seq,
    nodeId: row.nodeId,
    nodeName: row.nodeName,
    nodeType: row.nodeType,
    scope: row.scope,
    attempt: row.attempt,
    status: row.status,
    startedAt: row.startedAt,
    endedAt: row.endedAt,
    latencyMs: row.latencyMs,
    request: fromJson(row.request),
    response: fromJson(row.response),
    output: fromJson(row.output),
    handles: JSON.parse(row.handles) as string[],
    error: errorFromJson(row.error),
    skipKind: row.skipKind,
    branch: row.branch,
    wakeAt: row.wakeAt,
    state: fromJson(row.state),
  };
}
