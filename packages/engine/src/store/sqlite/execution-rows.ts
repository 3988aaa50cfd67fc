import type { SecretCipher } from '../../environments/secret-cipher.js';
import { isSvcError } from '../../errors.js';
import { SECRET_MASK, type ErrorInfo, type ExecutionRecord, type StepRecord } from '../types.js';
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

/** How a secret value of a run's env is kept in the row: sealed, never as text. */
const SEALED = '$svcSealed';

const sealContext = (tenantId: string, executionId: string, key: string) => `${tenantId}/${executionId}/env/${key}`;

/**
 * The env of an execution as its row keeps it: the values of its secret keys sealed, so that the
 * store file holds no secret in the clear (another process decrypts them to resume the run).
 */
function sealEnv(record: ExecutionRecord, cipher: SecretCipher | undefined): Record<string, unknown> {
  if (cipher === undefined || !record.secretKeys.some((key) => Object.hasOwn(record.env, key))) return record.env;
  const sealed: Record<string, unknown> = { ...record.env };
  for (const key of record.secretKeys) {
    if (Object.hasOwn(record.env, key))
      sealed[key] = {
        [SEALED]: cipher.encrypt(JSON.stringify(record.env[key] ?? null), sealContext(record.tenantId, record.id, key)),
      };
  }
  return sealed;
}

/**
 * Opens the sealed values of a row's env. Under another key a value cannot be opened: it reads
 * `***` (so the execution can still be read and listed), and a run resumed so sends `***`.
 */
function openEnv(
  row: ExecutionRow,
  env: Record<string, unknown>,
  secretKeys: string[],
  cipher: SecretCipher | undefined,
): Record<string, unknown> {
  let opened: Record<string, unknown> | undefined;
  for (const key of secretKeys) {
    const value = env[key];
    if (value === null || typeof value !== 'object' || !Object.hasOwn(value, SEALED)) continue;
    opened ??= { ...env };
    try {
      if (cipher === undefined) throw new Error('no key');
      opened[key] = JSON.parse(
        cipher.decrypt((value as Record<string, string>)[SEALED]!, sealContext(row.tenantId, row.id, key)),
      ) as unknown;
    } catch (error) {
      if (!(isSvcError(error) || error instanceof Error)) throw error;
      opened[key] = SECRET_MASK;
    }
  }
  return opened ?? env;
}

export function toExecutionRow(record: ExecutionRecord, cipher?: SecretCipher): ExecutionRow {
  return {
    tenantId: record.tenantId,
    id: record.id,
    flowId: record.flowId,
    flowVersion: record.flowVersion,
    flowName: record.flowName,
    status: record.status,
    trigger: JSON.stringify(record.trigger),
    env: JSON.stringify(sealEnv(record, cipher)),
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

export function toExecutionRecord(row: ExecutionRow, cipher?: SecretCipher): ExecutionRecord {
  const secretKeys = JSON.parse(row.secretKeys) as string[];
  return {
    id: row.id,
    tenantId: row.tenantId,
    flowId: row.flowId,
    flowVersion: row.flowVersion,
    flowName: row.flowName,
    status: row.status,
    trigger: JSON.parse(row.trigger) as ExecutionRecord['trigger'],
    env: openEnv(row, JSON.parse(row.env) as Record<string, unknown>, secretKeys, cipher),
    secretKeys,
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
