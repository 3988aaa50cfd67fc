import { and, asc, desc, eq, inArray, isNotNull, isNull, lt, lte, ne, or, sql, type SQL } from 'drizzle-orm';
import { decodeCursor, pageSize, toPage } from '../paging.js';
import {
  EXECUTION_STATUSES,
  TERMINAL_STATUSES,
  type ClaimOptions,
  type ErrorInfo,
  type ExecutionRecord,
  type ExecutionRepository,
  type ExecutionStatus,
  type ListExecutionsQuery,
  type StepRecord,
} from '../types.js';
import type { SqliteContext } from './context.js';
import { ExecutionLog } from './execution-log.js';
import { createLogPositions } from './execution-log-positions.js';
import { recoverExecutionLogs } from './execution-log-recovery.js';
import { boundExecutionId, createExecutionWriteApplier, type BoundWrite, type ExecutionWrite, type ExecutionWriter } from './execution-writes.js';
import { createLogFold } from './execution-log-fold.js';
import { FoldThread } from './fold-thread.js';
import { createInlineFolder } from './log-folder.js';
import { createGroupCommitWriter } from './group-commit-writer.js';
import { createLoggedWriter } from './logged-writer.js';
import { mappedFileAddon } from './mapped-file.js';
import { executions, steps, type ExecutionRow, type StepRow } from './schema.js';
import { selectList, tableName } from './table-sql.js';

const ACTIVE_STATUSES: ExecutionStatus[] = EXECUTION_STATUSES.filter((status) => !TERMINAL_STATUSES.has(status));

/** How the repository makes writes durable: straight into the tables, or through an execution log. */
export type ExecutionWriteMode =
  | { kind: 'group-commit' }
  | {
      kind: 'execution-log';
      /** The database file's path, for the fold thread's connection. */
      databasePath: string;
      /** The folder of the database's execution logs (`executionLogDirectory`). */
      directory: string;
      /** Folds on the process's fold thread (default) or on the event loop. */
      foldOn: 'thread' | 'event-loop';
      /** The log's size: the most its writes may take between two folds. */
      logBytes: number;
      foldDelayMs: number;
      maxPendingWrites: number;
      /** A log whose owner has not marked it for this long is taken over. */
      staleAfterMs: number;
    };

export interface ExecutionRepositoryHandle {
  repository: ExecutionRepository;
  /** Flushes what is written and lets go of the log. */
  close(): void;
}

/** The open logged writers of each log folder in this process: a read flushes all of them. */
const writersByDirectory = new Map<string, Set<ExecutionWriter>>();

function reportFoldError(error: unknown, write: BoundWrite | undefined): void {
  const what = write === undefined ? 'folding the execution log' : `folding a ${write.kind} write of execution ${boundExecutionId(write)}`;
  process.stderr.write(`svc store: ${what} failed: ${error instanceof Error ? error.message : String(error)}\n`);
}

/*
 * Writes go through an `ExecutionWriter`; `get` uses a statement prepared once; list and worker
 * queries go through drizzle. Every read first flushes the writes made in this process.
 */
export function createExecutionRepository({ sqlite, db, clock }: SqliteContext, mode: ExecutionWriteMode = { kind: 'group-commit' }): ExecutionRepositoryHandle {
  const selectExecution = sqlite.prepare<[string, string], ExecutionRow>(
    `SELECT ${selectList(executions)} FROM ${tableName(executions)} WHERE tenant_id = ? AND id = ?`,
  );
  const applier = createExecutionWriteApplier(sqlite);
  let writer: ExecutionWriter;
  let recover = (): void => {};
  let flushAll = (): void => writer.flush();
  if (mode.kind === 'group-commit') {
    writer = createGroupCommitWriter(sqlite, applier);
  } else {
    const positions = createLogPositions(sqlite);
    const fold = createLogFold(sqlite, applier, positions);
    recover = () => void recoverExecutionLogs({ fold, positions, directory: mode.directory, staleAfterMs: mode.staleAfterMs, now: Date.now(), onError: reportFoldError });
    // Logs that stopped processes left behind are folded before this store reads or claims anything.
    recover();
    const inline = createInlineFolder(fold);
    const thread = mode.foldOn === 'thread' ? FoldThread.get() : null;
    writer = createLoggedWriter({
      sqlite,
      applier,
      positions,
      log: ExecutionLog.create(mode.directory, { sizeBytes: mode.logBytes, addon: mappedFileAddon() }),
      folder: thread === null ? inline : thread.folderFor(mode.databasePath, inline),
      foldDelayMs: mode.foldDelayMs,
      maxPendingWrites: mode.maxPendingWrites,
      onFoldError: reportFoldError,
    });
    let writers = writersByDirectory.get(mode.directory);
    if (writers === undefined) writersByDirectory.set(mode.directory, (writers = new Set()));
    writers.add(writer);
    const siblings = writers;
    flushAll = () => {
      for (const each of siblings) each.flush();
    };
  }
  const write = (change: ExecutionWrite): Promise<void> => writer.write(change);

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

  const repository: ExecutionRepository = {
    create(record) {
      return write({ kind: 'create', record });
    },

    async get(tenantId, id) {
      flushAll();
      const row = selectExecution.get(tenantId, id);
      return row === undefined ? undefined : toExecutionRecord(row);
    },

    async list(tenantId, query: ListExecutionsQuery = {}) {
      flushAll();
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
      return write({ kind: 'update', tenantId, id, patch, updatedAt: clock.now() });
    },

    commitStep(step, patch) {
      return write({ kind: 'step', step, patch, updatedAt: clock.now() });
    },

    async listSteps(tenantId, executionId) {
      flushAll();
      return selectSteps.all({ tenantId, executionId }).map(toStepRecord);
    },

    async claim(options) {
      const limit = Math.floor(options.limit);
      if (!(limit >= 1)) return [];
      // What a process that stopped left in its log belongs in the tables before its runs are taken.
      recover();
      flushAll();
      // IMMEDIATE takes the write lock before the candidates are read, so another process can
      // neither claim the same rows in between nor make this transaction fail on commit.
      return claimTransaction.immediate({ ...options, limit });
    },

    async renewLeases(owner, leaseExpiresAt) {
      flushAll();
      renew.run({ owner, leaseExpiresAt });
    },

    async listLeaseOwners() {
      flushAll();
      return selectLeaseOwners.all().flatMap((row) => (row.owner === null ? [] : [row.owner]));
    },
  };
  return {
    repository,
    close() {
      writer.close();
      if (mode.kind === 'execution-log') writersByDirectory.get(mode.directory)?.delete(writer);
    },
  };
}

function fromJson(text: string | null): unknown {
  return text === null ? null : JSON.parse(text);
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
