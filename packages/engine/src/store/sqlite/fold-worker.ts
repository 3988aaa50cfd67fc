import { workerData, type MessagePort } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { createLogFold, type LogFold } from './execution-log-fold.js';
import { createLogPositions } from './execution-log-positions.js';
import { createExecutionWriteApplier } from './execution-writes.js';
import { ANSWERED, describeError, type FoldThreadReply, type FoldThreadRequest } from './fold-thread.js';
import { lowerThisThreadPriority } from './thread-priority.js';

/*
 * The fold thread's script (see fold-thread.ts): one connection per database that stores of the
 * process have open, kept while any of them is attached; each request answered in the order sent.
 */

const { port, answered } = workerData as { port: MessagePort; answered: Int32Array };

// Folding is background work: the writes are durable in the log already.
lowerThisThreadPriority();

interface Attached {
  sqlite: Database.Database;
  fold: LogFold;
  stores: number;
}

const databases = new Map<string, Attached>();

function attach(path: string): void {
  const attached = databases.get(path);
  if (attached !== undefined) {
    attached.stores += 1;
    return;
  }
  // The store that attaches has made the file and brought its schema up to date.
  const sqlite = new Database(path);
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  databases.set(path, { sqlite, fold: createLogFold(sqlite, createExecutionWriteApplier(sqlite), createLogPositions(sqlite)), stores: 1 });
}

function detach(path: string): void {
  const attached = databases.get(path);
  if (attached === undefined || --attached.stores > 0) return;
  databases.delete(path);
  attached.sqlite.close();
}

function answer(request: FoldThreadRequest): FoldThreadReply {
  const { seq } = request;
  try {
    switch (request.kind) {
      case 'attach':
        attach(request.database);
        return { seq, ok: true, applied: 0, refused: [] };
      case 'detach':
        detach(request.database);
        return { seq, ok: true, applied: 0, refused: [] };
      case 'fold': {
        const attached = databases.get(request.database);
        if (attached === undefined) throw new Error(`the fold thread has no connection to ${request.database}`);
        const { applied, refused } = attached.fold(request.log, request.until);
        return { seq, ok: true, applied, refused: refused.map(({ write, error }) => ({ write, error: describeError(error) })) };
      }
    }
  } catch (error) {
    return { seq, ok: false, error: describeError(error) };
  }
}

port.on('message', (request: FoldThreadRequest) => {
  port.postMessage(answer(request));
  // The reply is on the port before the counter says so: a thread waiting on it finds it there.
  Atomics.store(answered, ANSWERED, request.seq);
  Atomics.notify(answered, ANSWERED);
});
