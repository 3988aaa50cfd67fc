import type { Database } from 'better-sqlite3';
import { ExecutionLog } from './execution-log.js';
import { serializeWrite } from './execution-log-records.js';
import type { LogPositions } from './execution-log-positions.js';
import { isSvcError } from '../../errors.js';
import {
  executionConflict,
  executionNotFound,
  writeTarget,
  type ExecutionWrite,
  type ExecutionWriteApplier,
} from './execution-writes.js';
import type { ExecutionWriter } from './group-commit-writer.js';

export interface LoggedWriterOptions {
  sqlite: Database;
  applier: ExecutionWriteApplier;
  positions: LogPositions;
  log: ExecutionLog;
  /** How long a write may wait in the log before it is folded into the tables. */
  foldDelayMs: number;
  /** Writes waiting past which a fold happens at once. */
  maxPendingWrites: number;
  /** Where a write the tables refused at fold time is reported (it was checked when made). */
  onFoldError(error: unknown, write: ExecutionWrite | undefined): void;
}

/** Executions this writer knows to exist, so that most writes need no look-up. */
const KNOWN_LIMIT = 20_000;

/**
 * Makes a write durable by appending it to the execution log, and folds the log into the
 * tables in batches: one transaction (and one commit) for every write of the last few
 * milliseconds instead of one per turn of the event loop. A write settles as soon as its
 * record is in the log, which a killed process leaves behind for the next one to fold.
 *
 * The contract's errors are found when the write is made: an execution this writer created or
 * saw is known; any other is looked up. Reads flush first, so they see every write made here.
 */
export function createLoggedWriter(options: LoggedWriterOptions): ExecutionWriter {
  const { sqlite, applier, positions, log } = options;
  const exists = sqlite.prepare<[string, string], 1>('SELECT 1 FROM executions WHERE tenant_id = ? AND id = ?').pluck();
  const known = new Set<string>();
  let pending: ExecutionWrite[] = [];
  let timer: NodeJS.Timeout | undefined;
  let closed = false;

  function remember(key: string): void {
    if (known.size >= KNOWN_LIMIT) known.delete(known.values().next().value!);
    known.add(key);
  }

  /** Throws the error the tables would give, before anything is written. */
  function check(write: ExecutionWrite): void {
    const key = writeTarget(write);
    if (write.kind === 'create') {
      if (known.has(key) || exists.get(write.record.tenantId, write.record.id) !== undefined) throw executionConflict(write.record.id);
      remember(key);
      return;
    }
    if (known.has(key)) return;
    const [tenantId, id] = write.kind === 'update' ? [write.tenantId, write.id] : [write.step.tenantId, write.step.executionId];
    if (exists.get(tenantId, id) === undefined) throw executionNotFound(id);
    remember(key);
  }

  const foldBatch = sqlite.transaction((batch: ExecutionWrite[], position: { epoch: number; offset: number }) => {
    for (const write of batch) applier.apply(write);
    positions.set(log.id, position);
  });
  const foldOne = sqlite.transaction((write: ExecutionWrite) => applier.apply(write));

  /**
   * Folds every write the log holds into the tables, then starts the log over. When the tables
   * cannot be written (busy past the timeout, a full disk), the writes stay in memory and in the
   * log, and the error goes to the caller.
   */
  function fold(): void {
    if (timer !== undefined) {
      clearTimeout(timer);
      timer = undefined;
    }
    if (pending.length === 0) return;
    const batch = pending;
    const position = { epoch: log.epoch, offset: log.offset };
    try {
      foldBatch.immediate(batch, position);
    } catch (error) {
      if (!isSvcError(error)) throw error;
      // A write the checks let through and the tables refused (another process deleted its
      // execution, say): the others are folded one by one, and the refused one is reported.
      foldEachAlone(batch, position);
    }
    pending = [];
    log.restart();
  }

  function foldEachAlone(batch: ExecutionWrite[], position: { epoch: number; offset: number }): void {
    for (const write of batch) {
      try {
        foldOne.immediate(write);
      } catch (error) {
        if (!isSvcError(error)) throw error;
        options.onFoldError(error, write);
      }
    }
    positions.set(log.id, position);
  }

  /** A fold outside a caller: an error is reported, and the fold tried again later. */
  function foldLater(): void {
    timer = undefined;
    try {
      fold();
    } catch (error) {
      options.onFoldError(error, undefined);
      startTimer();
    }
  }

  function startTimer(): void {
    timer ??= setTimeout(foldLater, options.foldDelayMs);
    // Unfolded writes are safe in the log: they are no reason to keep a process alive.
    timer.unref();
  }

  function schedule(): void {
    if (pending.length >= options.maxPendingWrites) foldLater();
    else startTimer();
  }

  const heartbeat = setInterval(() => log.beat(Date.now()), 1_000);
  heartbeat.unref();

  return {
    write(write) {
      if (closed) return Promise.reject(new Error('the store is closed'));
      try {
        check(write);
        if (!log.append(serializeWrite(write, log.epoch))) {
          fold();
          if (!log.append(serializeWrite(write, log.epoch))) {
            // Larger than the whole log: committed straight into the tables.
            foldOne.immediate(write);
            return Promise.resolve();
          }
        }
      } catch (error) {
        return Promise.reject(error);
      }
      pending.push(write);
      schedule();
      return Promise.resolve();
    },
    flush: fold,
    close() {
      if (closed) return;
      fold();
      closed = true;
      clearInterval(heartbeat);
      log.remove();
      positions.delete(log.id);
    },
  };
}

