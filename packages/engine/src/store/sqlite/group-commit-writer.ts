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
 * (concurrent executions whose requests answered together) share one transaction, in which one
 * failing write rolls back alone. Each caller's promise settles only after that transaction is
 * committed, so a step is still stored before anything after it starts; the cost of a commit is
 * paid once for the group instead of once per write. Writes apply in the order they were made.
 */
export function createGroupCommitWriter(sqlite: Database, applier: ExecutionWriteApplier): ExecutionWriter {
  let pending: PendingWrite[] = [];
  // Set when a write of the group threw, as opposed to BEGIN or COMMIT.
  let writeFailed = false;
  // Almost every group applies cleanly: its writes go in without a savepoint each, which spares
  // two statements per write. A group where one write fails is rolled back whole and applied
  // again by `commitEach`, so that only the failing write is left out, as if it had been alone.
  const commitAll = sqlite.transaction((group: PendingWrite[]) => {
    for (const entry of group) {
      try {
        applier.apply(entry.write);
      } catch (error) {
        writeFailed = true;
        throw error;
      }
    }
  });
  const inSavepoint = sqlite.transaction((write: ExecutionWrite) => applier.apply(write));
  const commitEach = sqlite.transaction((group: PendingWrite[]) => {
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
    writeFailed = false;
    try {
      // A write alone in its turn that is one statement needs no BEGIN and COMMIT of its own
      // (two statements and a lock taken twice): SQLite commits the statement by itself. This is
      // the common case of a sequential run, where every step is its own group.
      if (group.length === 1 && applier.isOneStatement(group[0]!.write)) applier.apply(group[0]!.write);
      else commitAll.immediate(group);
    } catch (error) {
      // A write alone in its group, or a failure to begin or commit, fails the whole group.
      if (group.length === 1 || !writeFailed) {
        for (const entry of group) entry.error = error;
      } else {
        try {
          commitEach.immediate(group);
        } catch (retryError) {
          for (const entry of group) entry.error ??= retryError;
        }
      }
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
