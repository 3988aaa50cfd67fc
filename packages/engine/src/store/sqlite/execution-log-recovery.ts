import { readdirSync, renameSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { openLogIds, THIS_PROCESS, logFileName, parseLogFileName, readExecutionLogHeader, type LogOwner } from './execution-log.js';
import type { LogPositions } from './execution-log-positions.js';
import type { LogFold } from './execution-log-fold.js';
import type { BoundWrite } from './execution-writes.js';

export interface RecoveryOptions {
  fold: LogFold;
  positions: LogPositions;
  directory: string;
  /** A log whose owner has not marked it for this long is taken over even if its pid runs. */
  staleAfterMs: number;
  now: number;
  onError(error: unknown, write: BoundWrite): void;
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
    const result = options.fold({ id: parsed.id, path: taken });
    for (const { error, write } of result.refused) options.onError(error, write);
    applied += result.applied;
    unlinkSync(taken);
    options.positions.delete(parsed.id);
  }
  return applied;
}

function ownerIsGone(owner: LogOwner, path: string, options: RecoveryOptions): boolean {
  if (owner.host === THIS_PROCESS.host && owner.pid !== process.pid && !processRuns(owner.pid)) return true;
  // With this process's token, a log no store here has open is a takeover this process began
  // and could not finish.
  if (owner.host === THIS_PROCESS.host && owner.pid === process.pid && owner.token === THIS_PROCESS.token) return true;
  // Another thread of this process, an earlier process with the same pid (a restarted
  // container), a pid now used by another program, another machine: the heartbeat tells.
  const heartbeatAt = readExecutionLogHeader(path)?.heartbeatAt;
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
