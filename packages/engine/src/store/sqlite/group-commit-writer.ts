import type { Database } from 'better-sqlite3';
import type { ExecutionWrite, ExecutionWriteApplier, ExecutionWriter } from './execution-writes.js';

interface PendingWrite {
  write: ExecutionWrite;
  resolve: () => void;
  reject: (error: unknown) => void;
  error?: unknown;
}

/**
 * Group commit straight into the tables: writes made during one turn of the event loop
 * (concurrent executions whose requests answered together) share one transaction, each in a
 * savepoint of its own so that one failing write rolls back alone. Each caller's promise settles
 * only after that transaction is committed, so a step is still stored before anything after it
 * starts; the cost of a commit is paid once for the group instead of once per write. Writes
 * apply in the order they were made.
 */
export function createGroupCommitWriter(sqlite: Database, applier: ExecutionWriteApplier): ExecutionWriter {
  let pending: PendingWrite[] = [];
  const inSavepoint = sqlite.transaction((write: ExecutionWrite) => applier.apply(write));
  const commitGroup = sqlite.transaction((group: PendingWrite[]) => {
    // A write alone in its group needs no savepoint: its failure rolls back the transaction.
    if (group.length === 1) {
      applier.apply(group[0]!.write);
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
    if (group.length === 0) return;
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
  return {
    write(write) {
      return new Promise<void>((resolve, reject) => {
        if (pending.length === 0) setImmediate(flushGroup);
        pending.push({ write, resolve, reject });
      });
    },
    flush: flushGroup,
    close: flushGroup,
  };
}
