import type { Database } from 'better-sqlite3';
import { isSvcError, type SvcError } from '../../errors.js';
import { readExecutionLogFile, type LogContents } from './execution-log.js';
import type { LogPosition, LogPositions } from './execution-log-positions.js';
import { decodeRecord } from './execution-log-records.js';
import { coalesceWrites, type BoundWrite, type CoalescedWrite, type ExecutionWriteApplier } from './execution-writes.js';

/** A write the tables refused when its record was folded (it was checked when made). */
export interface RefusedWrite {
  write: BoundWrite;
  error: SvcError;
}

export interface FoldResult {
  /** Writes applied. */
  applied: number;
  refused: RefusedWrite[];
}

/** Folds a log file into the tables, from the position they record for it up to `until`. */
export type LogFold = (log: { id: string; path: string }, until?: LogPosition) => FoldResult;

/**
 * Folding, the same wherever it runs (the store's fold thread, the event loop, a takeover): the
 * log's records after the position the tables hold for it are applied in one IMMEDIATE
 * transaction together with the new position, so a fold is all or nothing and a record is never
 * applied twice, whoever folds it and whenever. A write the tables refuse (its execution deleted
 * by another process since it was checked) is set aside, and the others still apply.
 */
export function createLogFold(sqlite: Database, applier: ExecutionWriteApplier, positions: LogPositions): LogFold {
  // Nested in the fold's transaction, each of these is a savepoint.
  const applyAll = sqlite.transaction((batch: CoalescedWrite[]) => {
    for (const { write } of batch) applier.applyBound(write);
  });
  const applyOne = sqlite.transaction((write: BoundWrite) => applier.applyBound(write));

  const fold = sqlite.transaction((log: { id: string; path: string }, until: LogPosition | undefined): FoldResult => {
    const contents = readExecutionLogFile(log.path, positions.get(log.id), until);
    // A file that is not a log (cut short, another magic) has nothing to apply.
    if (contents === undefined) return { applied: 0, refused: [] };
    const { writes, end } = parseRecords(contents);
    const batch = coalesceWrites(writes);
    const refused: RefusedWrite[] = [];
    let applied = writes.length;
    try {
      applyAll(batch);
    } catch (error) {
      if (!isSvcError(error)) throw error;
      // Rare: the batch is applied again one write at a time, to find the ones refused.
      for (const { write, writes: made } of batch) {
        try {
          applyOne(write);
        } catch (refusal) {
          if (!isSvcError(refusal)) throw refusal;
          refused.push({ write, error: refusal });
          applied -= made;
        }
      }
    }
    if (writes.length > 0) positions.set(log.id, { epoch: contents.epoch, offset: end });
    return { applied, refused };
  });
  return (log, until) => fold.immediate(log, until);
}

/** The writes of a log's records, up to a torn one, and where the last of them ends. */
function parseRecords(contents: LogContents): { writes: BoundWrite[]; end: number } {
  const writes: BoundWrite[] = [];
  let end = 0;
  for (const record of contents.records) {
    const write = decodeRecord(record.text, contents.epoch);
    if (write === undefined) break;
    writes.push(write);
    end = record.end;
  }
  return { writes, end };
}
