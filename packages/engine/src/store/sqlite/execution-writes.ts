import type { Database, Statement } from 'better-sqlite3';
import { getTableColumns } from 'drizzle-orm';
import { SvcError } from '../../errors.js';
import type { ErrorInfo, ExecutionPatch, ExecutionRecord, StepRecord } from '../types.js';
import { executions, steps, type ExecutionRow, type StepRow } from './schema.js';
import { isForeignKeyViolation, isPrimaryKeyViolation } from './sqlite-errors.js';
import { columnName, insertSql, tableName } from './table-sql.js';

/**
 * The writes of the execution repository as plain data: what the group commit applies at once,
 * and what the execution log keeps (as JSON) until it is folded into the tables. Records are
 * turned into rows when applied, so a write is serialised once on its way to the log.
 * `updatedAt` is taken when the write is made, so a write applied later, or after a crash,
 * stamps the same time. A record is not changed after it is written.
 */
export type ExecutionWrite =
  | { kind: 'create'; record: ExecutionRecord }
  | { kind: 'update'; tenantId: string; id: string; patch: ExecutionPatch; updatedAt: number }
  | { kind: 'step'; step: StepRecord; patch: ExecutionPatch; updatedAt: number };

/** How the execution repository makes its writes durable. */
export interface ExecutionWriter {
  /** Settles once the write is durable; rejects with the contract's errors. */
  write(write: ExecutionWrite): Promise<void>;
  /** Makes every write made so far visible in the tables, for a read that follows. */
  flush(): void;
  /** Flushes and lets go of what the writer holds (files, timers). */
  close(): void;
}

/** The patchable fields, in the fixed order that names a cached UPDATE statement. */
const PATCH_FIELDS = [
  'status',
  'error',
  'outputs',
  'startedAt',
  'endedAt',
  'durationMs',
  'nodesExecuted',
  'nodesSkipped',
  'stepsExecuted',
  'wakeAt',
  'leaseOwner',
  'leaseExpiresAt',
] as const satisfies readonly (keyof ExecutionPatch)[];

export function hasFields(patch: ExecutionPatch): boolean {
  for (const field of PATCH_FIELDS) if (patch[field] !== undefined) return true;
  return false;
}

export function executionNotFound(id: string): SvcError {
  return new SvcError('EXECUTION_NOT_FOUND', `execution "${id}" not found`, { status: 404 });
}

export function executionConflict(id: string, cause?: unknown): SvcError {
  return new SvcError('CONFLICT', `execution "${id}" already exists`, { status: 409, ...(cause === undefined ? {} : { cause }) });
}

/** Applies writes to the tables through statements prepared once per connection. */
export interface ExecutionWriteApplier {
  /** Throws `CONFLICT` or `EXECUTION_NOT_FOUND` as the repository contract says. */
  apply(write: ExecutionWrite): void;
}

export function createExecutionWriteApplier(sqlite: Database): ExecutionWriteApplier {
  const insertExecution = sqlite.prepare<ExecutionRow>(insertSql(executions));
  // Positional: binding 22 values from an array is cheaper than looking each name up in a row.
  const upsertStep = sqlite.prepare<unknown[]>(insertSql(steps, { upsertOn: ['tenantId', 'executionId', 'seq'], positional: true }));
  const stepKeys = Object.keys(getTableColumns(steps)) as (keyof StepRow)[];

  /*
   * One UPDATE per set of patched fields, built on first use: a patch writes only the columns it
   * names (an unchanged `error` is not serialised again), and the few shapes the runtime sends
   * are each prepared once.
   */
  const patchStatements = new Map<string, Statement<unknown[]>>();
  function patchExecution(tenantId: string, id: string, patch: ExecutionPatch, updatedAt: number): number {
    const fields: string[] = [];
    const values: unknown[] = [];
    for (const field of PATCH_FIELDS) {
      const value = patch[field];
      if (value === undefined) continue;
      fields.push(field);
      values.push(field === 'error' ? errorJson(value as ErrorInfo | null) : field === 'outputs' ? toJson(value) : value);
    }
    const shape = fields.join(',');
    let statement = patchStatements.get(shape);
    if (statement === undefined) {
      const sets = [...fields, 'updatedAt'].map((field) => `${columnName(executions, field)} = ?`);
      statement = sqlite.prepare<unknown[]>(`UPDATE ${tableName(executions)} SET ${sets.join(', ')} WHERE tenant_id = ? AND id = ?`);
      patchStatements.set(shape, statement);
    }
    values.push(updatedAt, tenantId, id);
    return statement.run(...values).changes;
  }

  return {
    apply(write) {
      switch (write.kind) {
        case 'create':
          try {
            insertExecution.run(toExecutionRow(write.record));
          } catch (error) {
            if (isPrimaryKeyViolation(error)) throw executionConflict(write.record.id, error);
            throw error;
          }
          return;
        case 'update':
          if (patchExecution(write.tenantId, write.id, write.patch, write.updatedAt) === 0) throw executionNotFound(write.id);
          return;
        case 'step': {
          const { step } = write;
          // The patch goes first: it finds out whether the execution exists in the step's tenant
          // before the step row is written. Without a patch, the foreign key finds that out.
          if (hasFields(write.patch) && patchExecution(step.tenantId, step.executionId, write.patch, write.updatedAt) === 0) {
            throw executionNotFound(step.executionId);
          }
          const row = toStepRow(step);
          try {
            upsertStep.run(stepKeys.map((key) => row[key]));
          } catch (error) {
            if (isForeignKeyViolation(error)) throw executionNotFound(step.executionId);
            throw error;
          }
        }
      }
    },
  };
}

/** The execution a write belongs to, as `tenant\0id`. */
export function writeTarget(write: ExecutionWrite): string {
  switch (write.kind) {
    case 'create':
      return executionKey(write.record.tenantId, write.record.id);
    case 'update':
      return executionKey(write.tenantId, write.id);
    case 'step':
      return executionKey(write.step.tenantId, write.step.executionId);
  }
}

export function executionKey(tenantId: string, id: string): string {
  return `${tenantId}\u0000${id}`;
}

export function errorJson(error: ErrorInfo | null): string | null {
  return error === null ? null : JSON.stringify(error);
}

/** `undefined` has no JSON form; it is stored as SQL NULL and read back as `null`. */
export function toJson(value: unknown): string | null {
  return value === undefined ? null : JSON.stringify(value);
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
