import type { Statement } from 'better-sqlite3';
import { and, asc, desc, eq, inArray, isNotNull, isNull, lt, lte, ne, or, sql, type SQL } from 'drizzle-orm';
import { SvcError } from '../../errors.js';
import { decodeCursor, pageSize, toPage } from '../paging.js';
import {
  EXECUTION_STATUSES,
  TERMINAL_STATUSES,
  type ClaimOptions,
  type ErrorInfo,
  type ExecutionPatch,
  type ExecutionRecord,
  type ExecutionRepository,
  type ExecutionStatus,
  type ListExecutionsQuery,
  type StepRecord,
} from '../types.js';
import type { SqliteContext } from './context.js';
import { executions, steps, type ExecutionRow, type StepRow } from './schema.js';
import { isForeignKeyViolation, isPrimaryKeyViolation } from './sqlite-errors.js';
import { columnName, insertSql, selectList, tableName } from './table-sql.js';

const ACTIVE_STATUSES: ExecutionStatus[] = EXECUTION_STATUSES.filter((status) => !TERMINAL_STATUSES.has(status));

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

function hasFields(patch: ExecutionPatch): boolean {
  for (const field of PATCH_FIELDS) if (patch[field] !== undefined) return true;
  return false;
}

function executionNotFound(id: string): SvcError {
  return new SvcError('EXECUTION_NOT_FOUND', `execution "${id}" not found`, { status: 404 });
}

/*
 * `create`, `get`, `update` and `commitStep` run once or more per step of every run, so they use
 * better-sqlite3 statements prepared once; list and worker queries go through drizzle.
 */
export function createExecutionRepository({ sqlite, db, clock }: SqliteContext): ExecutionRepository {
  const insertExecution = sqlite.prepare<ExecutionRow>(insertSql(executions));
  const selectExecution = sqlite.prepare<[string, string], ExecutionRow>(
    `SELECT ${selectList(executions)} FROM ${tableName(executions)} WHERE tenant_id = ? AND id = ?`,
  );
  const upsertStep = sqlite.prepare<StepRow>(insertSql(steps, { upsertOn: ['tenantId', 'executionId', 'seq'] }));

  /*
   * One UPDATE per set of patched fields, built on first use: a patch writes only the columns it
   * names (an unchanged `error` is not serialised again), and the few shapes the runtime sends
   * are each prepared once.
   */
  const patchStatements = new Map<string, Statement<unknown[]>>();
  function patchExecution(tenantId: string, id: string, patch: ExecutionPatch): number {
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
      statement = sqlite.prepare<unknown[]>(
        `UPDATE ${tableName(executions)} SET ${sets.join(', ')} WHERE tenant_id = ? AND id = ?`,
      );
      patchStatements.set(shape, statement);
    }
    values.push(clock.now(), tenantId, id);
    return statement.run(...values).changes;
  }

  function writeStep(step: StepRecord, patch: ExecutionPatch): void {
    // The patch goes first: it finds out whether the execution exists in the step's tenant
    // before the step row is written. Without a patch, the foreign key finds that out.
    if (hasFields(patch)) {
      if (patchExecution(step.tenantId, step.executionId, patch) === 0) throw executionNotFound(step.executionId);
    }
    try {
      upsertStep.run(toStepRow(step));
    } catch (error) {
      if (isForeignKeyViolation(error)) throw executionNotFound(step.executionId);
      throw error;
    }
  }

  /*
   * Group commit: writes made during one turn of the event loop (concurrent executions whose
   * requests answered together) share one transaction, each in a savepoint of its own so that one
   * failing write rolls back alone. Each caller's promise settles only after that transaction is
   * committed, so a step is still stored before anything after it starts; the cost of a commit
   * is paid once for the group instead of once per write. Writes apply in the order they were made.
   */
  interface PendingWrite {
    write: () => void;
    resolve: () => void;
    reject: (error: unknown) => void;
    error?: unknown;
  }
  let pending: PendingWrite[] = [];
  const inSavepoint = sqlite.transaction((write: () => void) => write());
  const commitGroup = sqlite.transaction((group: PendingWrite[]) => {
    // A write alone in its group needs no savepoint: its failure rolls back the transaction.
    if (group.length === 1) {
      group[0]!.write();
      return;
    }
    for (const entry of group) {
      try {
        inSavepoint(entry.write);
      } catch (error) {
        entry.error = error;
      }
    }
  });
  function flushGroup(): void {
    const group = pending;
    pending = [];
    try {
      commitGroup.immediate(group);
    } catch (error) {
      for (const entry of group) entry.error ??= error;
    }
    for (const entry of group) {
      if (entry.error === undefined) entry.resolve();
      else entry.reject(entry.error);
    }
  }
  function enqueue(write: () => void): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      if (pending.length === 0) setImmediate(flushGroup);
      pending.push({ write, resolve, reject });
    });
  }

  const selectSteps = db
    .select()
    .from(steps)
    .where(and(eq(steps.tenantId, sql.placeholder('tenantId')), eq(steps.executionId, sql.placeholder('executionId'))))
    .orderBy(asc(steps.seq), asc(steps.id))
    .prepare();

  const selectClaimable = db
    .select()
    .from(executions)
    .where(
      and(
        inArray(executions.status, ACTIVE_STATUSES),
        or(
          isNull(executions.leaseOwner),
          lte(executions.leaseExpiresAt, sql.placeholder('now')),
          sql`${executions.leaseOwner} IN (SELECT value FROM json_each(${sql.placeholder('takeOverFrom')}))`,
        ),
        or(ne(executions.status, 'Waiting'), isNull(executions.wakeAt), lte(executions.wakeAt, sql.placeholder('dueBy'))),
      ),
    )
    // Oldest ready work first: a due wake time is when a waiting run became ready again.
    .orderBy(sql`coalesce(${executions.wakeAt}, ${executions.createdAt})`, asc(executions.createdAt), asc(executions.id))
    .limit(sql.placeholder('limit'))
    .prepare();
  const setLease = sqlite.prepare<[string, number, number, string, string]>(
    'UPDATE executions SET lease_owner = ?, lease_expires_at = ?, updated_at = ? WHERE tenant_id = ? AND id = ?',
  );
  const claimTransaction = sqlite.transaction((options: ClaimOptions): ExecutionRecord[] => {
    const rows = selectClaimable.all({
      now: options.now,
      takeOverFrom: JSON.stringify(options.takeOverFrom ?? []),
      dueBy: options.dueBy ?? options.now,
      limit: options.limit,
    });
    const leaseExpiresAt = options.now + options.leaseMs;
    const updatedAt = clock.now();
    return rows.map((row) => {
      setLease.run(options.owner, leaseExpiresAt, updatedAt, row.tenantId, row.id);
      return { ...toExecutionRecord(row), leaseOwner: options.owner, leaseExpiresAt, updatedAt };
    });
  });

  // Renewal is a heartbeat, not a change of the run, so it leaves `updatedAt` alone; and a lease
  // left on a finished run means nothing, so those rows are not rewritten every few seconds.
  const renew = db
    .update(executions)
    .set({ leaseExpiresAt: sql`${sql.placeholder('leaseExpiresAt')}` })
    .where(and(eq(executions.leaseOwner, sql.placeholder('owner')), inArray(executions.status, ACTIVE_STATUSES)))
    .prepare();
  const selectLeaseOwners = db
    .selectDistinct({ owner: executions.leaseOwner })
    .from(executions)
    .where(and(isNotNull(executions.leaseOwner), inArray(executions.status, ACTIVE_STATUSES)))
    .orderBy(asc(executions.leaseOwner))
    .prepare();

  return {
    create(record) {
      return enqueue(() => {
        try {
          insertExecution.run(toExecutionRow(record));
        } catch (error) {
          if (isPrimaryKeyViolation(error)) {
            throw new SvcError('CONFLICT', `execution "${record.id}" already exists`, { status: 409, cause: error });
          }
          throw error;
        }
      });
    },

    async get(tenantId, id) {
      const row = selectExecution.get(tenantId, id);
      return row === undefined ? undefined : toExecutionRecord(row);
    },

    async list(tenantId, query: ListExecutionsQuery = {}) {
      const size = pageSize(query.limit);
      const conditions: (SQL | undefined)[] = [eq(executions.tenantId, tenantId)];
      if (query.flowId !== undefined) conditions.push(eq(executions.flowId, query.flowId));
      if (query.status !== undefined) conditions.push(eq(executions.status, query.status));
      if (query.cursor !== undefined) {
        const after = decodeCursor(query.cursor);
        conditions.push(
          or(lt(executions.createdAt, after.at), and(eq(executions.createdAt, after.at), lt(executions.id, after.id))),
        );
      }
      const rows = db
        .select()
        .from(executions)
        .where(and(...conditions))
        .orderBy(desc(executions.createdAt), desc(executions.id))
        .limit(size + 1)
        .all();
      return toPage(rows, size, toExecutionRecord, (row) => ({ at: row.createdAt, id: row.id }));
    },

    update(tenantId, id, patch) {
      return enqueue(() => {
        if (patchExecution(tenantId, id, patch) === 0) throw executionNotFound(id);
      });
    },

    commitStep(step, patch) {
      return enqueue(() => writeStep(step, patch));
    },

    async listSteps(tenantId, executionId) {
      return selectSteps.all({ tenantId, executionId }).map(toStepRecord);
    },

    async claim(options) {
      const limit = Math.floor(options.limit);
      if (!(limit >= 1)) return [];
      // IMMEDIATE takes the write lock before the candidates are read, so another process can
      // neither claim the same rows in between nor make this transaction fail on commit.
      return claimTransaction.immediate({ ...options, limit });
    },

    async renewLeases(owner, leaseExpiresAt) {
      renew.run({ owner, leaseExpiresAt });
    },

    async listLeaseOwners() {
      return selectLeaseOwners.all().flatMap((row) => (row.owner === null ? [] : [row.owner]));
    },
  };
}

function errorJson(error: ErrorInfo | null): string | null {
  return error === null ? null : JSON.stringify(error);
}

/** `undefined` has no JSON form; it is stored as SQL NULL and read back as `null`. */
function toJson(value: unknown): string | null {
  return value === undefined ? null : JSON.stringify(value);
}

function fromJson(text: string | null): unknown {
  return text === null ? null : JSON.parse(text);
}

function toExecutionRow(record: ExecutionRecord): ExecutionRow {
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

function toExecutionRecord(row: ExecutionRow): ExecutionRecord {
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
    error: row.error === null ? null : (JSON.parse(row.error) as ErrorInfo),
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

function toStepRow(step: StepRecord): StepRow {
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

function toStepRecord(row: StepRow): StepRecord {
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
    error: row.error === null ? null : (JSON.parse(row.error) as ErrorInfo),
    skipKind: row.skipKind,
    branch: row.branch,
    wakeAt: row.wakeAt,
    state: fromJson(row.state),
  };
}
