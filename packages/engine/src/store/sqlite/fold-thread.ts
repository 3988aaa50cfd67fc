import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from 'node:worker_threads';
import { SvcError } from '../../errors.js';
import type { BoundWrite } from './execution-writes.js';
import type { LogPosition } from './execution-log-positions.js';
import type { FoldOutcome, FoldRequest, LogFolder } from './log-folder.js';

/*
 * The fold thread: one worker thread per process that folds the execution logs of its SQLite
 * stores into their tables, each database through a connection of its own. The event loop only
 * appends records to a log and says how far to fold; reading the records back, turning them into
 * rows and committing happen beside it. A read that must see every write waits for the folds it
 * needs on a shared counter (Atomics.wait), then takes their replies off the port at once.
 */

/** What the event loop asks of the fold thread. */
export type FoldThreadRequest =
  | { kind: 'attach'; seq: number; database: string }
  | { kind: 'fold'; seq: number; database: string; log: { id: string; path: string }; until: LogPosition }
  | { kind: 'detach'; seq: number; database: string };

/** A refusal or failure as it crosses threads: errors lose their class on the way. */
export interface ErrorDescription {
  code: string | undefined;
  message: string;
}

export type FoldThreadReply =
  | { seq: number; ok: true; applied: number; refused: { write: BoundWrite; error: ErrorDescription }[] }
  | { seq: number; ok: false; error: ErrorDescription };

/** Slots of the shared counters: the seq of the last request answered; 1 once the thread failed to start. */
export const ANSWERED = 0;
export const FAILED = 1;

/** How long a fold may keep the event loop waiting: past SQLite's busy timeout, with room. */
const WAIT_LIMIT_MS = 60_000;

export class FoldThread {
  private static shared: FoldThread | null | undefined;

  /** This process's fold thread, started on first use; null where its script is not at hand or it stopped. */
  static get(): FoldThread | null {
    if (FoldThread.shared === undefined) FoldThread.shared = FoldThread.start();
    return FoldThread.shared?.stopped === undefined ? FoldThread.shared : null;
  }

  private nextSeq = 0;
  private readonly replies = new Map<number, (reply: FoldThreadReply) => void>();
  private stopped: Error | undefined;

  private constructor(
    private readonly worker: Worker,
    private readonly port: MessagePort,
    private readonly answered: Int32Array,
  ) {
    port.on('message', (reply: FoldThreadReply) => this.settle(reply));
    // Folds not yet done are safe in their logs: the thread is no reason to keep a process alive.
    port.unref();
    worker.unref();
    worker.on('error', (error) => this.stop(error));
    worker.on('exit', (code) => this.stop(new Error(`the fold thread exited with code ${code}`)));
  }

  /** Answers every request still open with `error`; the stores of this process fold on the event loop from now on. */
  private stop(error: Error): void {
    if (this.stopped === undefined) {
      this.stopped = error;
      process.stderr.write(`svc store: ${error.message}; execution logs are folded on the event loop from now on\n`);
    }
    for (const [seq] of this.replies) this.settle({ seq, ok: false, error: describeError(error) });
  }

  private static start(): FoldThread | null {
    const entry = workerEntry();
    if (entry === undefined) return null;
    const { port1, port2 } = new MessageChannel();
    const answered = new Int32Array(new SharedArrayBuffer(8));
    const worker = new Worker(entry.url, { workerData: { ...entry.data, port: port2, answered }, transferList: [port2] });
    return new FoldThread(worker, port1, answered);
  }

  /** A folder for a store on `database` (its file path). */
  folderFor(database: string, fallback: LogFolder): LogFolder {
    // A database the thread could not open is folded on the event loop.
    let attached = true;
    this.send({ kind: 'attach', database }, (reply) => {
      if (reply.ok) return;
      attached = false;
      process.stderr.write(`svc store: the fold thread could not open ${database} (${reply.error.message}); its execution log is folded on the event loop\n`);
    });
    const onThread = (): boolean => attached && this.stopped === undefined;
    return {
      fold: (request, done) => {
        if (!onThread()) return fallback.fold(request, done);
        this.send({ kind: 'fold', database, ...request }, (reply) => done(toOutcome(reply)));
      },
      foldNow: (request, done) => {
        if (!onThread()) return fallback.foldNow(request, done);
        let outcome: FoldOutcome | undefined;
        const seq = this.send({ kind: 'fold', database, ...request }, (reply) => done((outcome = toOutcome(reply))));
        this.waitFor(seq);
        return outcome ?? { ok: false, error: this.stopped ?? new Error('the fold thread did not answer') };
      },
      release: () => {
        if (!onThread()) return;
        this.waitFor(this.send({ kind: 'detach', database }, () => {}));
      },
    };
  }

  private send(request: DistributiveOmit<FoldThreadRequest, 'seq'>, onReply: (reply: FoldThreadReply) => void): number {
    const seq = (this.nextSeq = (this.nextSeq + 1) | 0);
    this.replies.set(seq, onReply);
    this.port.postMessage({ ...request, seq });
    return seq;
  }

  private settle(reply: FoldThreadReply): void {
    const onReply = this.replies.get(reply.seq);
    if (onReply === undefined) return;
    this.replies.delete(reply.seq);
    onReply(reply);
  }

  /** Blocks until request `seq` is answered, then settles every reply that has come in. */
  private waitFor(seq: number): void {
    const deadline = Date.now() + WAIT_LIMIT_MS;
    while (this.stopped === undefined && ((Atomics.load(this.answered, ANSWERED) - seq) | 0) < 0) {
      if (Atomics.load(this.answered, FAILED) === 1) {
        // The thread's own error event would come on the event loop, which is waiting here.
        this.stop(new Error('the fold thread could not load its script'));
        return;
      }
      const left = deadline - Date.now();
      if (left <= 0) {
        throw new SvcError('STORE_UNAVAILABLE', `the execution log's fold thread did not answer within ${WAIT_LIMIT_MS / 1000} s`, {
          status: 503,
          retryable: true,
        });
      }
      Atomics.wait(this.answered, ANSWERED, Atomics.load(this.answered, ANSWERED), Math.min(left, 1_000));
    }
    for (let message = receiveMessageOnPort(this.port); message !== undefined; message = receiveMessageOnPort(this.port)) {
      this.settle(message.message as FoldThreadReply);
    }
  }
}

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

export function describeError(error: unknown): ErrorDescription {
  const code = typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string' ? error.code : undefined;
  return { code, message: error instanceof Error ? error.message : String(error) };
}

function toOutcome(reply: FoldThreadReply): FoldOutcome {
  if (!reply.ok) return { ok: false, error: Object.assign(new Error(reply.error.message), { code: reply.error.code }) };
  const refused = reply.refused.map(({ write, error }) => ({ write, error: new SvcError(error.code ?? 'INTERNAL_ERROR', error.message) }));
  return { ok: true, result: { applied: reply.applied, refused } };
}

/**
 * Loads the fold thread's script, and marks the thread failed (`FAILED`) when it cannot, so that a
 * wait for it ends at once.
 */
const BOOT = `
import { workerData } from 'node:worker_threads';
try {
  if (workerData.tsx) await (await import(workerData.tsx)).tsImport(workerData.script, workerData.script);
  else await import(workerData.script);
} catch (error) {
  Atomics.store(workerData.answered, ${FAILED}, 1);
  Atomics.notify(workerData.answered, ${ANSWERED});
  throw error;
}
`;

/**
 * The fold thread's script: beside this module when built; from the TypeScript sources (under
 * tests) it is loaded through tsx. Bundled into a single file, the store has no such script, and
 * its logs are folded on the event loop.
 */
function workerEntry(): { url: URL; data: { script: string; tsx?: string } } | undefined {
  const here = typeof import.meta.url === 'string' ? import.meta.url : undefined;
  if (here === undefined) return undefined;
  const url = new URL(`data:text/javascript,${encodeURIComponent(BOOT)}`);
  if (here.endsWith('.ts')) {
    try {
      const tsx = pathToFileURL(createRequire(here).resolve('tsx/esm/api')).href.replace(/\.cjs$/, '.mjs');
      return { url, data: { script: new URL('./fold-worker.ts', here).href, tsx } };
    } catch {
      return undefined;
    }
  }
  const script = new URL('./fold-worker.js', here);
  return existsSync(fileURLToPath(script)) ? { url, data: { script: script.href } } : undefined;
}
