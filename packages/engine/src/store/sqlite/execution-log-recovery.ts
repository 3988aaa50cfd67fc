import { closeSync, openSync, readdirSync, readFileSync, readSync, renameSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import type { Database } from 'better-sqlite3';
import { isSvcError } from '../../errors.js';
import {
  LOG_HEADER_BYTES,
  openLogIds,
  THIS_PROCESS,
  logFileName,
  parseLogFileName,
  readExecutionLog,
  type LogOwner,
} from './execution-log.js';
import type { LogPositions } from './execution-log-positions.js';
import { parseWrite } from './execution-log-records.js';
import type { ExecutionWrite, ExecutionWriteApplier } from './execution-writes.js';

export interface RecoveryOptions {
  sqlite: Database;
  applier: ExecutionWriteApplier;
  positions: LogPositions;
  directory: string;
  /** A log whose owner has not marked it for this long is taken over even if its pid runs. */
  staleAfterMs: number;
  now: number;
  onError(error: unknown, write: ExecutionWrite): void;
}

/**
 * Folds the execution logs that processes no longer own into the tables: a process that was
 * killed (or lost power) before folding leaves its log behind, and its writes are not lost.
 * A log is taken over by renaming it to this process's name, which only one process can do;
 * its writes are applied from the position the tables record for it, in one transaction with
 * the new position, so a takeover interrupted in its turn is finished by the next without
 * applying anything twice. Answers how many writes were applied.
 */
export function recoverExecutionLogs(options: RecoveryOptions): number {
  let names: string[];
  try {
    names = readdirSync(options.directory);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 0;
    throw error;
  }
  let applied = 0;
  for (const name of names) {
    const parsed = parseLogFileName(name);
    if (parsed === undefined || openLogIds.has(parsed.id)) continue;
    const path = join(options.directory, name);
    if (!ownerIsGone(parsed.owner, path, options)) continue;
    const taken = join(options.directory, logFileName(parsed.id, THIS_PROCESS));
    try {
      if (taken !== path) renameSync(path, taken);
    } catch (error) {
      // Another process took it first.
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue;
      throw error;
    }
    applied += foldLogFile(taken, parsed.id, options);
    unlinkSync(taken);
    options.positions.delete(parsed.id);
  }
  return applied;
}

function foldLogFile(path: string, logId: string, options: RecoveryOptions): number {
  const bytes = readFileSync(path);
  const { sqlite, applier, positions } = options;
  const inSavepoint = sqlite.transaction((write: ExecutionWrite) => applier.apply(write));
  const fold = sqlite.transaction((): number => {
    const contents = readExecutionLog(bytes, positions.get(logId));
    // A file that is not a log (cut short, another magic) has nothing to apply.
    if (contents === undefined) return 0;
    let count = 0;
    let offset: number | undefined;
    for (const record of contents.records) {
      const write = parseWrite(record.text, contents.epoch);
      // A torn record ends what the log holds.
      if (write === undefined) break;
      try {
        inSavepoint(write);
        count += 1;
      } catch (error) {
        if (!isSvcError(error)) throw error;
        options.onError(error, write);
      }
      offset = record.end;
    }
    if (offset !== undefined) positions.set(logId, { epoch: contents.epoch, offset });
    return count;
  });
  return fold.immediate();
}

function ownerIsGone(owner: LogOwner, path: string, options: RecoveryOptions): boolean {
  if (owner.host === THIS_PROCESS.host && owner.pid !== process.pid && !processRuns(owner.pid)) return true;
  // With this process's token, a log no store here has open is a takeover this process began
  // and could not finish.
  if (owner.host === THIS_PROCESS.host && owner.pid === process.pid && owner.token === THIS_PROCESS.token) return true;
  // Another thread of this process, an earlier process with the same pid (a restarted
  // container), a pid now used by another program, another machine: the heartbeat tells.
  const heartbeatAt = readHeartbeat(path);
  return heartbeatAt !== undefined && options.now - heartbeatAt > options.staleAfterMs;
}

function processRuns(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}

function readHeartbeat(path: string): number | undefined {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return undefined;
  }
  try {
    const header = Buffer.alloc(LOG_HEADER_BYTES);
    if (readSync(fd, header, 0, LOG_HEADER_BYTES, 0) < LOG_HEADER_BYTES) return undefined;
    return readExecutionLog(header)?.heartbeatAt;
  } finally {
    closeSync(fd);
  }
}
