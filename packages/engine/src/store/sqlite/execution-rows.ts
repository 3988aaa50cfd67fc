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

/**
 * `undefined` has no JSON form, and `null` needs none: both are stored as SQL NULL and read back
 * as `null` (a row written earlier may hold the text `null`, which reads the same).
 */
export function toJson(value: unknown): string | null {
  return value === undefined || value === null ? null : JSON.stringify(value);
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

/** A value a statement binds. */
export type Binding = string | number | null;

/*
 * The insert statements bind a record's values straight from the record, in the column order of
 * their drizzle table (`insertSql` lists the columns in that order), rather than through a row
 * object: building a 22-field object per step and reading it back by key costs more than the
 * statement itself. `execution-rows.test.ts` checks both orders against the tables.
 */

/** The values of an execution's row, in the column order of `executions`. */
export function executionRowValues(record: ExecutionRecord, cipher?: SecretCipher): Binding[] {
  return [
    record.tenantId,
    record.id,
    record.flowId,
    record.flowVersion,
    record.flowName,
    record.status,
    JSON.stringify(record.trigger),
    JSON.stringify(sealEnv(record, cipher)),
    JSON.stringify(record.secretKeys),
    JSON.stringify(record.inputs),
    record.parentExecutionId,
    errorJson(record.error),
    record.createdAt,
    record.startedAt,
    record.endedAt,
    record.durationMs,
    record.nodesExecuted,
    record.nodesSkipped,
    record.stepsExecuted,
    record.wakeAt,
    record.leaseOwner,
    record.leaseExpiresAt,
    record.updatedAt,
    toJson(record.outputs),
  ];
}

/** The values of a step's row, in the column order of `steps`. */
export function stepRowValues(step: StepRecord): Binding[] {
  return [
    step.tenantId,
    step.id,
    step.executionId,
    step.seq,
    step.nodeId,
    step.nodeName,
    step.nodeType,
    step.scope,
    step.attempt,
    step.status,
    step.startedAt,
    step.endedAt,
    step.latencyMs,
    toJson(step.request),
    toJson(step.response),
    toJson(step.output),
    JSON.stringify(step.handles),
    errorJson(step.error),
    step.skipKind,
    step.branch,
    step.wakeAt,
    toJson(step.state),
  ];
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
