import type { Database, Statement } from 'better-sqlite3';
import { getTableColumns } from 'drizzle-orm';
import { SvcError } from '../../errors.js';
import type { ErrorInfo, ExecutionPatch, ExecutionRecord, StepRecord } from '../types.js';
import { executions, steps, type ExecutionRow, type StepRow } from './schema.js';
import { isForeignKeyViolation, isPrimaryKeyViolation } from './sqlite-errors.js';
import { columnName, insertSql, tableName } from './table-sql.js';

/**
 * The writes of the execution repository as plain data: what the group commit applies at once,
 * and what the execution log keeps, bound (`BoundWrite`), until it is folded into the tables.
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

export function executionNotFound(id: string): SvcError {
  return new SvcError('EXECUTION_NOT_FOUND', `execution "${id}" not found`, { status: 404 });
}

export function executionConflict(id: string, cause?: unknown): SvcError {
  return new SvcError('CONFLICT', `execution "${id}" already exists`, { status: 409, ...(cause === undefined ? {} : { cause }) });
}

/** A value a statement binds. */
export type Binding = string | number | null;

/**
 * A write as its statements bind it: JSON columns serialised, the patch's shape (the fields it
 * sets, comma-separated, which names its UPDATE statement) and every value in statement order:
 * the patch's values, `updatedAt`, tenant and id (when there is a patch), then the row (a create's
 * or a step's). The execution log keeps writes in this form, so folding a record is binding and
 * running statements, with no object built on the way.
 */
export interface BoundWrite {
  kind: ExecutionWrite['kind'];
  shape: string;
  values: Binding[];
}

const executionKeys = Object.keys(getTableColumns(executions)) as (keyof ExecutionRow)[];
const stepKeys = Object.keys(getTableColumns(steps)) as (keyof StepRow)[];
const EXECUTION_ID = executionKeys.indexOf('id');
const STEP_EXECUTION_ID = stepKeys.indexOf('executionId');

export function bindWrite(write: ExecutionWrite): BoundWrite {
  switch (write.kind) {
    case 'create': {
      const row = toExecutionRow(write.record);
      return { kind: 'create', shape: '', values: executionKeys.map((key) => row[key]) };
    }
    case 'update': {
      const { shape, values } = bindPatch(write.patch);
      values.push(write.updatedAt, write.tenantId, write.id);
      return { kind: 'update', shape, values };
    }
    case 'step': {
      const { shape, values } = bindPatch(write.patch);
      if (shape !== '') values.push(write.updatedAt, write.step.tenantId, write.step.executionId);
      const row = toStepRow(write.step);
      for (const key of stepKeys) values.push(row[key]);
      return { kind: 'step', shape, values };
    }
  }
}

function bindPatch(patch: ExecutionPatch): { shape: string; values: Binding[] } {
  // Most steps change nothing on their execution.
  if (isEmpty(patch)) return { shape: '', values: [] };
  let shape = '';
  const values: Binding[] = [];
  for (const field of PATCH_FIELDS) {
    const value = patch[field];
    if (value === undefined) continue;
    shape = shape === '' ? field : `${shape},${field}`;
    values.push(field === 'error' ? errorJson(value as ErrorInfo | null) : field === 'outputs' ? toJson(value) : (value as Binding));
  }
  return { shape, values };
}

function isEmpty(object: object): boolean {
  for (const _key in object) return false;
  return true;
}

/** The execution a bound write belongs to. */
export function boundExecutionId(write: BoundWrite): string {
  switch (write.kind) {
    case 'create':
      return String(write.values[EXECUTION_ID]);
    case 'update':
      return String(write.values[write.values.length - 1]);
    case 'step':
      return String(write.values[write.values.length - stepKeys.length + STEP_EXECUTION_ID]);
  }
}

/**
 * Where a patch's values stand in a bound write of that shape: its fields' values first, then
 * `updatedAt`, tenant and id; the row of a step follows at `row`.
 */
interface PatchLayout {
  fields: string[];
  updatedAt: number;
  tenant: number;
  id: number;
  row: number;
}

const patchLayouts = new Map<string, PatchLayout>();

function patchLayout(shape: string): PatchLayout {
  let layout = patchLayouts.get(shape);
  if (layout === undefined) {
    const fields = shape === '' ? [] : shape.split(',');
    layout = { fields, updatedAt: fields.length, tenant: fields.length + 1, id: fields.length + 2, row: fields.length + 3 };
    patchLayouts.set(shape, layout);
  }
  return layout;
}

const EXECUTION_TENANT = executionKeys.indexOf('tenantId');
const EXECUTION_UPDATED_AT = executionKeys.indexOf('updatedAt');
const EXECUTION_COLUMNS = new Map<string, number>(executionKeys.map((key, index) => [key, index]));

/** A write to apply, and how many of the writes it was made of. */
export interface CoalescedWrite {
  write: BoundWrite;
  writes: number;
}

/**
 * The same changes in fewer statements, for writes applied in one transaction: a patch (an
 * update's, or a step's) of an execution created earlier in the batch goes into the row the
 * create inserts, so a run that starts and ends within one fold inserts its execution once,
 * finished, instead of inserting it and then moving it through the status and lease indexes.
 * The tables end the same either way; the writes keep their order.
 */
export function coalesceWrites(writes: readonly BoundWrite[]): CoalescedWrite[] {
  const result: CoalescedWrite[] = [];
  /** Creates in this batch, by execution id; an id created twice is left alone. */
  const created = new Map<string, CoalescedWrite | null>();
  for (const write of writes) {
    if (write.kind === 'create') {
      const id = String(write.values[EXECUTION_ID]);
      const entry: CoalescedWrite = { write: { kind: 'create', shape: '', values: [...write.values] }, writes: 1 };
      created.set(id, created.has(id) ? null : entry);
      result.push(entry);
      continue;
    }
    const layout = write.shape === '' ? undefined : patchLayout(write.shape);
    const target = layout === undefined ? undefined : created.get(String(write.values[layout.id]));
    if (!layout || !target || target.write.values[EXECUTION_TENANT] !== write.values[layout.tenant]) {
      result.push({ write, writes: 1 });
      continue;
    }
    const row = target.write.values;
    for (const [index, field] of layout.fields.entries()) row[EXECUTION_COLUMNS.get(field)!] = write.values[index]!;
    row[EXECUTION_UPDATED_AT] = write.values[layout.updatedAt]!;
    if (write.kind === 'update') target.writes += 1;
    else result.push({ write: { kind: 'step', shape: '', values: write.values.slice(layout.row) }, writes: 1 });
  }
  return result;
}

/** Applies writes to the tables through statements prepared once per connection. */
export interface ExecutionWriteApplier {
  /** Throws `CONFLICT` or `EXECUTION_NOT_FOUND` as the repository contract says. */
  apply(write: ExecutionWrite): void;
  /** The same, for a write already bound (read back from the execution log). */
  applyBound(write: BoundWrite): void;
}

export function createExecutionWriteApplier(sqlite: Database): ExecutionWriteApplier {
  // Values go to `run` as arguments, not as one array: the driver reads an array element by
  // element through V8's object API, which made binding a row about a third slower.
  const insertExecution = sqlite.prepare<Binding[]>(insertSql(executions, { positional: true }));
  const upsertStep = sqlite.prepare<Binding[]>(insertSql(steps, { upsertOn: ['tenantId', 'executionId', 'seq'], positional: true }));

  /*
   * One UPDATE per patch shape, built on first use: a patch writes only the columns it names (an
   * unchanged `error` is not serialised again), and the few shapes the runtime sends are each
   * prepared once.
   */
  const patchStatements = new Map<string, Statement<Binding[]>>();
  function patchStatement(shape: string): { statement: Statement<Binding[]>; layout: PatchLayout } {
    const layout = patchLayout(shape);
    let statement = patchStatements.get(shape);
    if (statement === undefined) {
      const sets = [...layout.fields, 'updatedAt'].map((field) => `${columnName(executions, field)} = ?`);
      statement = sqlite.prepare<Binding[]>(`UPDATE ${tableName(executions)} SET ${sets.join(', ')} WHERE tenant_id = ? AND id = ?`);
      patchStatements.set(shape, statement);
    }
    return { statement, layout };
  }

  function applyBound({ kind, shape, values }: BoundWrite): void {
    switch (kind) {
      case 'create':
        try {
          insertExecution.run(...values);
        } catch (error) {
          if (isPrimaryKeyViolation(error)) throw executionConflict(String(values[EXECUTION_ID]), error);
          throw error;
        }
        return;
      case 'update': {
        const { statement, layout } = patchStatement(shape);
        if (statement.run(...values).changes === 0) throw executionNotFound(String(values[layout.id]));
        return;
      }
      case 'step': {
        // The patch goes first: it finds out whether the execution exists in the step's tenant
        // before the step row is written. Without a patch, the foreign key finds that out.
        let row = values;
        if (shape !== '') {
          const { statement, layout } = patchStatement(shape);
          if (statement.run(...values.slice(0, layout.row)).changes === 0) throw executionNotFound(String(values[layout.id]));
          row = values.slice(layout.row);
        }
        try {
          upsertStep.run(...row);
        } catch (error) {
          if (isForeignKeyViolation(error)) throw executionNotFound(String(row[STEP_EXECUTION_ID]));
          throw error;
        }
      }
    }
  }

  return { apply: (write) => applyBound(bindWrite(write)), applyBound };
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
