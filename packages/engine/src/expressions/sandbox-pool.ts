import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { SvcError } from '../errors.js';
import type { SandboxAnswer } from './quickjs-evaluate.js';
import {
  sandboxWorkerSource,
  type EvaluationRequest,
  type WorkerMessage,
  type WorkerSetup,
  type CompiledWasmModule,
} from './sandbox-worker-source.js';

export interface SandboxPoolOptions {
  /** Wall-clock limit of one evaluation, in milliseconds. */
  timeoutMs: number;
  /** Heap limit of one evaluation's QuickJS runtime, in bytes. */
  memoryBytes: number;
  /** Worker threads evaluating at once; more evaluations wait their turn. */
  workers: number;
  /** A worker whose WebAssembly memory grew past this is replaced after its answer. */
  recycleAboveBytes: number;
  /** Most a worker's WebAssembly memory may grow to. */
  maxWasmBytes: number;
  /** A file URL from which `quickjs-emscripten` resolves (the module creating the pool). */
  resolveFrom: string;
}

export interface SandboxPool {
  evaluate(code: string, globalsJson: string): Promise<boolean>;
  /** Terminates the workers; evaluations under way or waiting fail with `SANDBOX_ERROR`. */
  close(): Promise<void>;
}

/**
 * Past the time limit, QuickJS's own check (between bytecode steps) answers a clean timeout;
 * a worker still busy after this grace is inside one long built-in (`Array(4e9).join()`) and is
 * terminated instead.
 */
const TERMINATE_GRACE_MS = 100;
/** The worker's JavaScript heap holds only the request's JSON and the QuickJS glue. */
const WORKER_RESOURCE_LIMITS = {
  maxOldGenerationSizeMb: 64,
  maxYoungGenerationSizeMb: 16,
  codeRangeSizeMb: 16,
  stackSizeMb: 4,
};
const WASM_PAGE_BYTES = 64 * 1024;

interface Job {
  code: string;
  globalsJson: string;
  resolve(value: boolean): void;
  reject(error: SvcError): void;
}

interface Slot {
  worker: Worker;
  ready: boolean;
  job: Job | undefined;
  timer: NodeJS.Timeout | undefined;
  /** Set once the slot leaves the pool, so that late events from its worker are ignored. */
  gone: boolean;
}

/**
 * Evaluations on a few worker threads, each with its own QuickJS module, so that no expression
 * runs on the event loop. A worker holds one evaluation at a time and is terminated when it
 * overruns the time limit, whatever it is doing; one whose memory grew is replaced. Workers start
 * on first use and are then kept, and they never keep the process alive by themselves.
 */
export function createSandboxPool(options: SandboxPoolOptions): SandboxPool {
  const slots: Slot[] = [];
  const queue: Job[] = [];
  let setup: WorkerSetup | undefined;
  let compiling: Promise<void> | undefined;
  let source: string | undefined;
  let nextId = 0;
  let closed = false;

  /**
   * A worker (or the module) that could not start fails the evaluations waiting for it, and no
   * replacement is started for them: the next evaluation tries again, so a broken setup costs one
   * attempt per evaluation, never a loop of restarts.
   */
  const failStart = (cause: unknown): void => {
    const error = new SvcError(
      'SANDBOX_ERROR',
      `the JavaScript sandbox could not start: ${cause instanceof Error ? cause.message : String(cause)}`,
      { cause },
    );
    for (const job of queue.splice(0)) job.reject(error);
  };

  /**
   * The WebAssembly module is compiled once, off the event loop, and shared by every worker
   * (a compiled module crosses threads): a replaced worker only instantiates it.
   */
  const prepared = (): boolean => {
    if (setup !== undefined) return true;
    compiling ??= compileQuickJs(options.resolveFrom).then(
      (wasmModule) => {
        setup = {
          resolveFrom: options.resolveFrom,
          wasmModule,
          maxWasmPages: Math.ceil(options.maxWasmBytes / WASM_PAGE_BYTES),
        };
        dispatch();
      },
      (error: unknown) => {
        compiling = undefined;
        failStart(error);
      },
    );
    return false;
  };

  const spawn = (setup: WorkerSetup): Slot => {
    source ??= sandboxWorkerSource();
    const worker = new Worker(new URL(`data:text/javascript,${encodeURIComponent(source)}`), {
      workerData: setup,
      resourceLimits: WORKER_RESOURCE_LIMITS,
    });
    worker.unref();
    const slot: Slot = { worker, ready: false, job: undefined, timer: undefined, gone: false };
    worker.on('message', (message: WorkerMessage) => onMessage(slot, message));
    worker.on('error', (error: Error & { code?: string }) => {
      const memory = error.code === 'ERR_WORKER_OUT_OF_MEMORY';
      lose(
        slot,
        memory
          ? new SvcError('SANDBOX_MEMORY', `the expression used more memory than the sandbox allows and was stopped`, {
              details: { memoryBytes: options.memoryBytes },
            })
          : new SvcError('SANDBOX_ERROR', `the sandbox's worker failed: ${error.message}`, { cause: error }),
      );
    });
    worker.on('exit', () => lose(slot, new SvcError('SANDBOX_ERROR', "the sandbox's worker stopped")));
    slots.push(slot);
    return slot;
  };

  /** Takes a slot out of the pool, failing its evaluation; a worker that had started is replaced. */
  const lose = (slot: Slot, error: SvcError): void => {
    if (slot.gone) return;
    slot.gone = true;
    if (slot.timer) clearTimeout(slot.timer);
    slots.splice(slots.indexOf(slot), 1);
    void slot.worker.terminate();
    const job = slot.job;
    slot.job = undefined;
    job?.reject(error);
    if (slot.ready) replace();
    else failStart(error);
  };

  /** Keeps the pool warm: a worker that left is replaced at once, not when the next evaluation needs it. */
  const replace = (): void => {
    if (!closed && setup !== undefined && slots.length < options.workers) {
      try {
        spawn(setup);
      } catch {
        // Nothing waits for this one: the next evaluation starts a worker and reports the failure.
      }
    }
    dispatch();
  };

  const onMessage = (slot: Slot, message: WorkerMessage): void => {
    if (slot.gone) return;
    if (message.kind === 'failed-to-start') {
      lose(slot, new SvcError('SANDBOX_ERROR', message.message));
      return;
    }
    if (message.kind === 'ready') {
      slot.ready = true;
      dispatch();
      return;
    }
    const job = slot.job;
    if (job === undefined) return;
    clearTimeout(slot.timer);
    slot.timer = undefined;
    slot.job = undefined;
    settle(job, message.answer);
    // WebAssembly memory never shrinks: a worker that grew (or faulted) is replaced, which gives it back.
    if (
      message.broken ||
      message.wasmBytes > options.recycleAboveBytes ||
      (!message.answer.ok && message.answer.code === 'SANDBOX_MEMORY')
    ) {
      retire(slot);
      return;
    }
    slot.worker.unref();
    dispatch();
  };

  /** Replaces a worker that did nothing wrong but must go (it grew); its job is already answered. */
  const retire = (slot: Slot): void => {
    slot.gone = true;
    slots.splice(slots.indexOf(slot), 1);
    void slot.worker.terminate();
    replace();
  };

  const dispatch = (): void => {
    if (closed) return;
    while (queue.length > 0) {
      const idle = slots.find((slot) => slot.ready && slot.job === undefined);
      if (idle === undefined) {
        // A worker still starting will take the next job when it is ready.
        const starting = slots.filter((slot) => !slot.ready).length;
        if (starting < queue.length && slots.length < options.workers) {
          if (!prepared()) return;
          try {
            spawn(setup!).worker.ref();
          } catch (error) {
            failStart(error);
            return;
          }
          continue;
        }
        return;
      }
      run(idle, queue.shift()!);
    }
  };

  const run = (slot: Slot, job: Job): void => {
    const id = (nextId += 1);
    slot.job = job;
    // Referenced while it works, so that a process waiting for the answer stays alive for it.
    slot.worker.ref();
    slot.timer = setTimeout(() => {
      lose(
        slot,
        new SvcError('SANDBOX_TIMEOUT', `the expression ran longer than ${options.timeoutMs} ms and was stopped`, {
          details: { timeoutMs: options.timeoutMs },
        }),
      );
    }, options.timeoutMs + TERMINATE_GRACE_MS);
    const request: EvaluationRequest = {
      id,
      code: job.code,
      globalsJson: job.globalsJson,
      timeoutMs: options.timeoutMs,
      memoryBytes: options.memoryBytes,
    };
    slot.worker.postMessage(request);
  };

  return {
    evaluate(code, globalsJson) {
      if (closed) return Promise.reject(new SvcError('SANDBOX_ERROR', 'the JavaScript sandbox has been disposed'));
      return new Promise<boolean>((resolve, reject) => {
        queue.push({ code, globalsJson, resolve, reject });
        dispatch();
      });
    },
    async close() {
      if (closed) return;
      closed = true;
      const error = new SvcError('SANDBOX_ERROR', 'the JavaScript sandbox has been disposed');
      for (const job of queue.splice(0)) job.reject(error);
      const closing = [...slots];
      for (const slot of closing) {
        slot.gone = true;
        if (slot.timer) clearTimeout(slot.timer);
        slot.job?.reject(error);
      }
      slots.length = 0;
      await Promise.all(closing.map((slot) => slot.worker.terminate()));
    },
  };
}

async function compileQuickJs(resolveFrom: string): Promise<CompiledWasmModule> {
  const quickjs = createRequire(resolveFrom).resolve('quickjs-emscripten');
  const wasm = createRequire(quickjs).resolve('@jitl/quickjs-wasmfile-release-sync/wasm');
  // The global exists in Node; the compiler's lib (no DOM) declares only its types.
  const { compile } = (
    globalThis as unknown as { WebAssembly: { compile(bytes: Uint8Array): Promise<CompiledWasmModule> } }
  ).WebAssembly;
  return compile(await readFile(wasm));
}

function settle(job: Job, answer: SandboxAnswer): void {
  if (answer.ok) job.resolve(answer.value);
  else
    job.reject(
      new SvcError(answer.code, answer.message, answer.details === undefined ? {} : { details: answer.details }),
    );
}
