import type { Pool } from 'pg';
import { getTableColumns, type Table } from 'drizzle-orm';
import type { SecretCipher } from '../../environments/secret-cipher.js';
import type { ErrorInfo, ExecutionPatch } from '../types.js';
import { EXECUTION_PATCH_FIELDS, TERMINAL_STATUSES } from '../types.js';
import { errorJson, executionRowValues, stepRowValues, toJson } from '../sqlite/execution-rows.js';
import { executionConflict, executionNotFound, type ExecutionWrite } from '../sqlite/execution-writes.js';
import { executions, steps } from './schema.js';
import { columnList, columnName, recordType, tableName } from './table-sql.js';

/** How the execution repository makes its writes durable on PostgreSQL. */
export interface BatchWriter {
  /** Settles once the write is committed; rejects with the contract's errors. */
  write(write: ExecutionWrite): Promise<void>;
  /** Settles once every write made so far has settled (for a read that follows). */
  flush(): Promise<void>;
}

interface PendingWrite {
  write: ExecutionWrite;
  resolve: () => void;
  reject: (error: unknown) => void;
}

const quote = (identifier: string): string => `"${identifier.replaceAll('"', '""')}"`;

/** A row as a JSON object keyed by column name, from its values in column order. */
function rowObject(table: Table, values: unknown[]): Record<string, unknown> {
  const row: Record<string, unknown> = {};
  Object.values(getTableColumns(table)).forEach((column, i) => {
    row[column.name] = values[i];
  });
  return row;
}

const key = (tenantId: string, id: string): string => `${tenantId}\u0000${id}`;

/*
 * One statement applies a whole segment of writes: new executions (one multi-row INSERT), the
 * segment's patches merged per execution (one UPDATE … FROM), and its steps (one multi-row
 * upsert, only for executions that exist). Writable CTEs run in one snapshot, so an INSERT of a
 * step does not see an execution inserted by the same statement: a write that touches an
 * execution created earlier in the segment starts the next segment.
 */
const STEP_COLUMNS = Object.values(getTableColumns(steps)).map((column) => quote(column.name));
const STEP_KEY = ['tenant_id', 'execution_id', 'seq'].map(quote);
const INSERT_EXECUTIONS =
  `INSERT INTO ${tableName(executions)} (${columnList(executions)}) ` +
  `SELECT ${columnList(executions)} FROM jsonb_to_recordset(:creates::jsonb) AS x(${recordType(executions)}) ` +
  `ON CONFLICT DO NOTHING RETURNING tenant_id, id`;
const PATCH_EXECUTIONS = (() => {
  const columns = getTableColumns(executions);
  const sets = EXECUTION_PATCH_FIELDS.map((field) => {
    const column = columns[field]!;
    const name = columnName(executions, field);
    return `${name} = CASE WHEN x.f ? '${field}' THEN (x.f->>'${field}')::${column.getSQLType()} ELSE e.${name} END`;
  });
  return (
    `UPDATE ${tableName(executions)} AS e SET ${sets.join(', ')}, updated_at = x.u ` +
    `FROM (SELECT r->>'t' AS t, r->>'i' AS i, r->'f' AS f, (r->>'u')::bigint AS u ` +
    `FROM jsonb_array_elements(:patches::jsonb) AS r) AS x ` +
    `WHERE e.tenant_id = x.t AND e.id = x.i RETURNING e.tenant_id, e.id`
  );
})();
const UPSERT_STEPS =
  `INSERT INTO ${tableName(steps)} (${STEP_COLUMNS.join(', ')}) ` +
  `SELECT ${STEP_COLUMNS.map((c) => `x.${c}`).join(', ')} FROM jsonb_to_recordset(:steps::jsonb) AS x(${recordType(steps)}) ` +
  `WHERE EXISTS (SELECT 1 FROM ${tableName(executions)} AS e WHERE e.tenant_id = x.tenant_id AND e.id = x.execution_id) ` +
  `ON CONFLICT (${STEP_KEY.join(', ')}) DO UPDATE SET ` +
  STEP_COLUMNS.filter((c) => !STEP_KEY.includes(c))
    .map((c) => `${c} = excluded.${c}`)
    .join(', ') +
  ` RETURNING tenant_id, execution_id || ':' || seq AS id`;

/** True when a write makes work claimable now by any process: a queued run, or a run let go. */
function announcesWork(write: ExecutionWrite): boolean {
  const { leaseOwner, status, wakeAt } = write.kind === 'create' ? write.record : write.patch;
  const at = write.kind === 'create' ? write.record.createdAt : write.updatedAt;
  if (leaseOwner !== null) return false;
  if (status !== undefined && TERMINAL_STATUSES.has(status)) return false;
  // A wait due later is found by the poll when it is due.
  return wakeAt === undefined || wakeAt === null || wakeAt <= at;
}

interface Segment {
  creates: Record<string, unknown>[];
  patches: Map<string, { t: string; i: string; f: Record<string, unknown>; u: number }>;
  steps: Map<string, Record<string, unknown>>;
  notify: boolean;
}

function patchFields(patch: ExecutionPatch): Record<string, unknown> | undefined {
  let fields: Record<string, unknown> | undefined;
  for (const field of EXECUTION_PATCH_FIELDS) {
    const value = patch[field];
    if (value === undefined) continue;
    fields ??= {};
    fields[field] =
      field === 'error' ? errorJson(value as ErrorInfo | null) : field === 'outputs' ? toJson(value) : value;
  }
  return fields;
}

/** The execution a write changes. */
function targetOf(write: ExecutionWrite): string {
  return write.kind === 'create'
    ? key(write.record.tenantId, write.record.id)
    : write.kind === 'update'
      ? key(write.tenantId, write.id)
      : key(write.step.tenantId, write.step.executionId);
}

/** Splits writes, in order, into segments one statement each can apply. */
function segmentsOf(group: PendingWrite[]): PendingWrite[][] {
  const segments: PendingWrite[][] = [];
  let current: PendingWrite[] = [];
  let created = new Set<string>();
  for (const entry of group) {
    const target = targetOf(entry.write);
    if (created.has(target)) {
      segments.push(current);
      current = [];
      created = new Set();
    }
    if (entry.write.kind === 'create') created.add(target);
    current.push(entry);
  }
  if (current.length > 0) segments.push(current);
  return segments;
}

/** Groups committing at once: more overlap the round trips of busy processes; each holds a connection. */
const GROUPS_IN_FLIGHT = 4;

/**
 * Group commit on PostgreSQL: the writes made during one turn of the event loop (and while
 * earlier groups commit) are applied together by one statement, committed on its own; each
 * caller's promise settles only after that commit, so a step is durable before anything that
 * depends on it starts. Up to `GROUPS_IN_FLIGHT` groups commit at once on connections of their
 * own; the writes of one execution stay in the order they were made (a write waits while a group
 * in flight holds its execution), and writes of different executions have no order between them
 * that anything could observe, since whatever depends on a write waits for its promise. A
 * statement that fails is retried write by write, so that only the failing write is refused.
 */
export function createBatchWriter(options: { pool: Pool; cipher?: SecretCipher; workChannel: string }): BatchWriter {
  const { pool, cipher, workChannel } = options;
  let pending: PendingWrite[] = [];
  let scheduled = false;
  let inFlight = 0;
  /** Executions with a write in a group in flight, with how many such groups. */
  const held = new Map<string, number>();
  /** Writes not settled yet (what a flush waits for). */
  const unsettled = new Set<Promise<void>>();

  async function applySegment(segment: PendingWrite[]): Promise<void> {
    const batch: Segment = { creates: [], patches: new Map(), steps: new Map(), notify: false };
    const settleNow: PendingWrite[] = [];
    for (const entry of segment) {
      const { write } = entry;
      if (write.kind === 'create') {
        batch.creates.push(rowObject(executions, executionRowValues(write.record, cipher)));
      } else {
        const tenantId = write.kind === 'update' ? write.tenantId : write.step.tenantId;
        const id = write.kind === 'update' ? write.id : write.step.executionId;
        const fields = patchFields(write.patch);
        if (fields !== undefined) {
          const target = key(tenantId, id);
          const merged = batch.patches.get(target);
          if (merged === undefined) batch.patches.set(target, { t: tenantId, i: id, f: fields, u: write.updatedAt });
          else {
            Object.assign(merged.f, fields);
            merged.u = write.updatedAt;
          }
        } else if (write.kind === 'update') settleNow.push(entry);
        if (write.kind === 'step') {
          const { step } = write;
          batch.steps.set(key(step.tenantId, `${step.executionId}:${step.seq}`), rowObject(steps, stepRowValues(step)));
        }
      }
      if (announcesWork(write)) batch.notify = true;
    }
    const parts: string[] = [];
    const selects: string[] = [];
    const values: string[] = [];
    /** Binds a value and answers its placeholder (only the values a statement uses are bound). */
    const bind = (value: string): string => `$${values.push(value)}`;
    if (batch.creates.length > 0) {
      parts.push(`c AS (${INSERT_EXECUTIONS.replace(':creates', bind(JSON.stringify(batch.creates)))})`);
      selects.push(`SELECT 'c' AS k, tenant_id AS t, id AS i FROM c`);
    }
    if (batch.patches.size > 0) {
      parts.push(`p AS (${PATCH_EXECUTIONS.replace(':patches', bind(JSON.stringify([...batch.patches.values()])))})`);
      selects.push(`SELECT 'p' AS k, tenant_id AS t, id AS i FROM p`);
    }
    if (batch.steps.size > 0) {
      parts.push(`s AS (${UPSERT_STEPS.replace(':steps', bind(JSON.stringify([...batch.steps.values()])))})`);
      selects.push(`SELECT 's' AS k, tenant_id AS t, id AS i FROM s`);
    }
    const done = new Set<string>();
    if (parts.length > 0) {
      if (batch.notify) selects.push(`SELECT 'n' AS k, pg_notify(${bind(workChannel)}, 'work')::text AS t, NULL AS i`);
      // Named, so each connection parses and plans each of the few shapes once.
      const result = await pool.query<{ k: string; t: string; i: string }>({
        name: `svc_batch_${selects.map((select) => select.slice(8, 9)).join('')}`,
        text: `WITH ${parts.join(', ')} ${selects.join(' UNION ALL ')}`,
        values,
      });
      for (const row of result.rows) done.add(`${row.k}\u0000${key(row.t, row.i)}`);
    }
    for (const entry of segment) {
      const { write } = entry;
      if (settleNow.includes(entry)) entry.resolve();
      else if (write.kind === 'create') {
        if (done.has(`c\u0000${key(write.record.tenantId, write.record.id)}`)) entry.resolve();
        else entry.reject(executionConflict(write.record.id));
      } else if (write.kind === 'update') {
        if (done.has(`p\u0000${key(write.tenantId, write.id)}`)) entry.resolve();
        else entry.reject(executionNotFound(write.id));
      } else {
        const { step } = write;
        if (done.has(`s\u0000${key(step.tenantId, `${step.executionId}:${step.seq}`)}`)) entry.resolve();
        else entry.reject(executionNotFound(step.executionId));
      }
    }
  }

  async function applyGroup(group: PendingWrite[]): Promise<void> {
    for (const segment of segmentsOf(group)) {
      try {
        await applySegment(segment);
      } catch (error) {
        if (segment.length === 1) {
          segment[0]!.reject(error);
          continue;
        }
        // One write of the segment failed the statement: each again alone, so only it fails.
        for (const entry of segment) {
          try {
            await applySegment([entry]);
          } catch (alone) {
            entry.reject(alone);
          }
        }
      }
    }
  }

  /** Starts groups while there is room, each of the pending writes whose execution no group holds. */
  function pump(): void {
    scheduled = false;
    while (inFlight < GROUPS_IN_FLIGHT && pending.length > 0) {
      const group: PendingWrite[] = [];
      const waiting: PendingWrite[] = [];
      const blocked = new Set<string>();
      for (const entry of pending) {
        const target = targetOf(entry.write);
        if (held.has(target) || blocked.has(target)) {
          blocked.add(target);
          waiting.push(entry);
        } else group.push(entry);
      }
      if (group.length === 0) return;
      pending = waiting;
      const targets = [...new Set(group.map((entry) => targetOf(entry.write)))];
      for (const target of targets) held.set(target, (held.get(target) ?? 0) + 1);
      inFlight += 1;
      void applyGroup(group).finally(() => {
        inFlight -= 1;
        for (const target of targets) {
          const left = held.get(target)! - 1;
          if (left === 0) held.delete(target);
          else held.set(target, left);
        }
        pump();
      });
    }
  }

  return {
    write(write) {
      const settled = new Promise<void>((resolve, reject) => {
        pending.push({ write, resolve, reject });
        // The writes of this turn of the event loop go together.
        if (!scheduled) {
          scheduled = true;
          setImmediate(pump);
        }
      });
      const done = settled.then(
        () => undefined,
        () => undefined,
      );
      unsettled.add(done);
      void done.then(() => unsettled.delete(done));
      return settled;
    },
    async flush() {
      await Promise.all(unsettled);
    },
  };
}
