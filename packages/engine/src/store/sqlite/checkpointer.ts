import { statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { Logger } from '../../logger.js';

/**
 * Copies the write-ahead log into the database file from a worker thread, so that the copying
 * and its fsyncs happen beside the event loop instead of inside a commit. The main connection
 * keeps a large auto-checkpoint as well: when it fires, the worker has already copied almost
 * everything, and it is that checkpoint which lets SQLite start the log over (a log that only a
 * passive checkpointer reads would grow without end under steady writes).
 */
export interface Checkpointer {
  stop(): Promise<void>;
}

// CommonJS, evaluated as the worker's source: it runs the same from TypeScript sources under
// tests and from the built package.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.path);
db.pragma('busy_timeout = 1000');
let timer;
const pass = () => {
  try { db.pragma('wal_checkpoint(PASSIVE)'); } catch (error) { /* busy or closing: the next pass retries */ }
  timer = setTimeout(pass, workerData.intervalMs);
};
timer = setTimeout(pass, workerData.intervalMs);
parentPort.on('message', () => { clearTimeout(timer); db.close(); parentPort.postMessage('stopped'); });
`;

/** How often a store looks at its log until the checkpointer thread starts (see `startAtLogBytes`). */
const CHECK_EVERY_MS = 1_000;
/** The log size from which the thread is worth its memory (about 9 MiB: a thread, and the driver in it). */
const START_AT_LOG_BYTES = 1024 * 1024;

export function startCheckpointer(
  path: string,
  options: { intervalMs?: number; startAfterMs?: number; startAtLogBytes?: number; logger?: Logger } = {},
): Checkpointer {
  const intervalMs = options.intervalMs ?? 250;
  const startAtLogBytes = options.startAtLogBytes ?? START_AT_LOG_BYTES;
  let thread: CheckpointerThread | undefined;
  // The thread starts once there is a log worth copying, looked at every `startAfterMs`, not at
  // once: a short-lived process (`svc run flow`, `svc flows list`) closes its store before then,
  // and a service that writes little (idle, or a first start's few pages) never pays for a thread
  // and the driver loaded into it; the connection's own checkpoint at close, and its
  // auto-checkpoint, cover a small log.
  const starting = setInterval(() => {
    if (logBytes(path) < startAtLogBytes) return;
    clearInterval(starting);
    thread = spawnCheckpointer(path, intervalMs, options.logger);
  }, options.startAfterMs ?? CHECK_EVERY_MS);
  starting.unref();
  let stopped: Promise<void> | undefined;
  return {
    stop() {
      clearInterval(starting);
      stopped ??= thread === undefined ? Promise.resolve() : stopThread(thread);
      return stopped;
    },
  };
}

function logBytes(path: string): number {
  try {
    return statSync(`${path}-wal`).size;
  } catch {
    return 0;
  }
}

/** The thread, and a promise that settles when it has exited (for any reason). */
interface CheckpointerThread {
  worker: Worker;
  exited: Promise<void>;
}

function spawnCheckpointer(path: string, intervalMs: number, logger: Logger | undefined): CheckpointerThread {
  // `import.meta.url` is missing when this module is bundled as CommonJS; resolve from the
  // working directory then.
  const base = typeof import.meta.url === 'string' ? import.meta.url : pathToFileURL(`${process.cwd()}/`).href;
  const driver = createRequire(base).resolve('better-sqlite3');
  const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { driver, path, intervalMs } });
  // A checkpointer is no reason to keep a process alive.
  worker.unref();
  // A thread that cannot open the file leaves the copying to the connection's auto-checkpoint.
  worker.on('error', (error) => logger?.warn('the checkpointer thread stopped', { path, error: error.message }));
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  return { worker, exited };
}

/** Asks the thread to close its connection, then ends it; a thread that already exited is done. */
async function stopThread({ worker, exited }: CheckpointerThread): Promise<void> {
  // Held while it stops: an unreferenced thread would let the process end with `close()` unsettled.
  worker.ref();
  const closed = new Promise<void>((resolve) => worker.once('message', () => resolve()));
  worker.postMessage('stop');
  await Promise.race([closed.then(() => worker.terminate()), exited]);
}
