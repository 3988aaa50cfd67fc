import type { Database } from 'better-sqlite3';
import { BoundedMap } from '../../bounded-map.js';
import { LOG_HEADER_BYTES, type ExecutionLog } from './execution-log.js';
import type { LogPositions } from './execution-log-positions.js';
import { encodeRecord } from './execution-log-records.js';
import {
  executionConflict,
  executionNotFound,
  bindWrite,
  type BoundWrite,
  type ExecutionWrite,
  type ExecutionWriteApplier,
  type ExecutionWriter,
} from './execution-writes.js';
import type { FoldOutcome, FoldRequest, LogFolder } from './log-folder.js';

export interface LoggedWriterOptions {
  sqlite: Database;
  applier: ExecutionWriteApplier;
  log: ExecutionLog;
  positions: LogPositions;
  folder: LogFolder;
  /** How long a write may wait in the log before a fold of it is asked for. */
  foldDelayMs: number;
  /** Writes waiting past which a fold is asked for at once. */
  maxPendingWrites: number;
  /** Where a write the tables refused at fold time, or a fold that failed, is reported. */
  onFoldError(error: unknown, write: BoundWrite | undefined): void;
}

/** Executions this writer knows to exist, so that most writes need no look-up. */
const KNOWN_LIMIT = 20_000;

/**
 * Makes a write durable by appending it to the execution log, and has the log folded into the
 * tables in batches (see log-folder.ts): one transaction for every write of the last few
 * milliseconds. A write settles as soon as its record is in the log, which a killed process
 * leaves behind for the next one to fold.
 *
 * The contract's errors are found when the write is made: an execution this writer created or
 * saw is known; any other is looked up. Reads flush first, so they see every write made here.
 *
 * The log starts over once everything in it is folded. Should writes come so steadily that this
 * moment does not come before the log is full, the append that finds it full waits for the
 * folds, and the log starts over then.
 */
export function createLoggedWriter(options: LoggedWriterOptions): ExecutionWriter {
  const { sqlite, applier, log, folder } = options;
  const exists = sqlite.prepare<[string, string], 1>('SELECT 1 FROM executions WHERE tenant_id = ? AND id = ?').pluck();
  /** Execution id → its tenant, for executions known to exist. */
  const known = new BoundedMap<string, string>(KNOWN_LIMIT);
  /** Folded up to here, in the log's current epoch. */
  let folded = LOG_HEADER_BYTES;
  /** Asked to fold up to here. */
  let requested = LOG_HEADER_BYTES;
  /** Writes appended since the last fold was asked for. */
  let unrequested = 0;
  let timer: NodeJS.Timeout | undefined;
  let closed = false;

  function remember(tenantId: string, id: string): void {
    known.set(id, tenantId);
  }

  function mustExist(tenantId: string, id: string): void {
    if (known.get(id) === tenantId) return;
    if (exists.get(tenantId, id) === undefined) throw executionNotFound(id);
    remember(tenantId, id);
  }

  /** Throws the error the tables would give, before anything is written. */
  function check(write: ExecutionWrite): void {
    switch (write.kind) {
      case 'create': {
        const { tenantId, id } = write.record;
        if (known.get(id) === tenantId || exists.get(tenantId, id) !== undefined) throw executionConflict(id);
        remember(tenantId, id);
        return;
      }
      case 'update':
        return mustExist(write.tenantId, write.id);
      case 'step':
        return mustExist(write.step.tenantId, write.step.executionId);
    }
  }

  function nextRequest(): FoldRequest {
    if (timer !== undefined) {
      clearTimeout(timer);
      timer = undefined;
    }
    unrequested = 0;
    requested = log.offset;
    return { log: { id: log.id, path: log.path }, until: { epoch: log.epoch, offset: log.offset } };
  }

  /** The end of a fold: refused writes reported; the log started over when all of it is folded. */
  function onFolded(request: FoldRequest) {
    return (outcome: FoldOutcome): void => {
      if (request.until.epoch !== log.epoch) return;
      if (!outcome.ok) {
        options.onFoldError(outcome.error, undefined);
        // Asked for again later: a fold goes from where the tables stand, so nothing applies twice.
        requested = folded;
        if (!closed) startTimer();
        return;
      }
      for (const { error, write } of outcome.result.refused) options.onFoldError(error, write);
      folded = Math.max(folded, request.until.offset);
      if (folded === log.offset && !closed) {
        log.restart();
        folded = requested = LOG_HEADER_BYTES;
      }
    };
  }

  /** Asks for a fold of what the log holds beyond the last one asked for. */
  function requestFold(): void {
    timer = undefined;
    if (log.offset <= requested) return;
    const request = nextRequest();
    folder.fold(request, onFolded(request));
  }

  /** Folds everything the log holds before returning; throws when that fails. */
  function flush(): void {
    if (log.offset <= folded) return;
    const request = nextRequest();
    const outcome = folder.foldNow(request, onFolded(request));
    if (!outcome.ok) throw outcome.error;
  }

  function startTimer(): void {
    timer ??= setTimeout(requestFold, options.foldDelayMs);
    // Unfolded writes are safe in the log: they are no reason to keep a process alive.
    timer.unref();
  }

  const heartbeat = setInterval(() => log.beat(Date.now()), 1_000);
  heartbeat.unref();

  return {
    write(write) {
      if (closed) return Promise.reject(new Error('the store is closed'));
      try {
        check(write);
        const bound = bindWrite(write);
        if (!log.append(encodeRecord(bound, log.epoch))) {
          flush();
          if (!log.append(encodeRecord(bound, log.epoch))) {
            // Larger than the whole log: committed straight into the tables, after all before it.
            sqlite.transaction(() => applier.applyBound(bound)).immediate();
            return Promise.resolve();
          }
        }
      } catch (error) {
        return Promise.reject(error);
      }
      unrequested += 1;
      if (unrequested >= options.maxPendingWrites) requestFold();
      else startTimer();
      return Promise.resolve();
    },
    flush,
    close() {
      if (closed) return;
      flush();
      closed = true;
      clearInterval(heartbeat);
      if (timer !== undefined) clearTimeout(timer);
      folder.release();
      log.remove();
      options.positions.delete(log.id);
    },
  };
}
