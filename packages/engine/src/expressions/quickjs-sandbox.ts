import type { QuickJSWASMModule } from 'quickjs-emscripten';
import { SvcError } from '../errors.js';
import type { JsSandbox } from '../nodes/types.js';
import { evaluateInQuickJs, type SandboxAnswer } from './quickjs-evaluate.js';
import { createSandboxPool } from './sandbox-pool.js';

export interface QuickJsSandboxOptions {
  /** Wall-clock limit of one evaluation, in milliseconds. Default 100. */
  timeoutMs?: number;
  /** Heap limit of one evaluation's runtime, in bytes. Default 16 MiB. */
  memoryBytes?: number;
  /** Worker threads evaluating at once (default 2); more evaluations wait their turn. */
  workers?: number;
  /**
   * A worker whose WebAssembly memory grew past this many bytes is replaced after its answer, which
   * gives the memory back (it never shrinks otherwise). Default 16 MiB more than the module's
   * initial 16 MiB and `memoryBytes`.
   */
  recycleAboveBytes?: number;
}

export type QuickJsSandbox = JsSandbox & {
  /** Refuses later evaluations and terminates the sandbox's worker threads. */
  dispose(): Promise<void>;
};

const DEFAULT_TIMEOUT_MS = 100;
const DEFAULT_MEMORY_BYTES = 16 * 1024 * 1024;
const DEFAULT_WORKERS = 2;
/** The QuickJS module's own initial WebAssembly memory. */
const MODULE_BASE_BYTES = 16 * 1024 * 1024;

/**
 * A QuickJS (WebAssembly) sandbox for Switch expressions and loop conditions. Evaluations run on
 * a small pool of worker threads, never on the event loop: the time limit is enforced from
 * outside (a worker that overruns is terminated and replaced, even inside one long built-in), a
 * worker's WebAssembly memory has a maximum, and a worker whose memory grew is replaced. Each
 * evaluation runs in its own QuickJS runtime and context, so nothing one expression does is
 * visible to the next. Workers start on first use and are kept; they do not keep the process
 * alive when idle.
 *
 * @example
 * const sandbox = await createQuickJsSandbox({ timeoutMs: 100 });
 * await sandbox.evaluateBoolean('flowVars.region === "eu"', { flowVars: { region: 'eu' } }); // true
 * await sandbox.dispose();
 */
export async function createQuickJsSandbox(options: QuickJsSandboxOptions = {}): Promise<QuickJsSandbox> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const memoryBytes = options.memoryBytes ?? DEFAULT_MEMORY_BYTES;
  const workers = options.workers ?? DEFAULT_WORKERS;
  if (!Number.isInteger(workers) || workers < 1)
    throw new SvcError('VALIDATION_ERROR', `the sandbox needs at least one worker, not ${workers}`);
  const pool = createSandboxPool({
    timeoutMs,
    memoryBytes,
    workers,
    recycleAboveBytes: options.recycleAboveBytes ?? MODULE_BASE_BYTES + memoryBytes + 16 * 1024 * 1024,
    // Room for fragmentation above the runtime's own limit; past it QuickJS answers out of memory.
    maxWasmBytes: MODULE_BASE_BYTES + 4 * memoryBytes,
    resolveFrom: import.meta.url,
  });
  return {
    async evaluateBoolean(code, globals) {
      const json = serializeGlobals(globals);
      // Parsed JSON takes at least its text's size: refused here, it never crosses to a worker.
      if (json.length > memoryBytes) throw tooLarge(json, memoryBytes);
      return pool.evaluate(code, json);
    },
    dispose: () => pool.close(),
  };
}

/**
 * The same evaluation on the calling thread, over a module of the caller's choosing: it holds
 * the event loop for up to `timeoutMs`, and a long built-in for as long as it runs. For tests
 * (the debug build catches leaked handles) and for measuring what the worker threads cost.
 */
export function createQuickJsSandboxWithModule(
  module: QuickJSWASMModule,
  options: Pick<QuickJsSandboxOptions, 'timeoutMs' | 'memoryBytes'> = {},
): QuickJsSandbox {
  const limits = {
    timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    memoryBytes: options.memoryBytes ?? DEFAULT_MEMORY_BYTES,
  };
  let disposed = false;
  return {
    async evaluateBoolean(code, globals) {
      if (disposed) throw new SvcError('SANDBOX_ERROR', 'the JavaScript sandbox has been disposed');
      const json = serializeGlobals(globals);
      let answer: SandboxAnswer;
      try {
        answer = evaluateInQuickJs(module, code, json, limits);
      } catch (error) {
        throw new SvcError('SANDBOX_ERROR', `the expression stopped the sandbox: ${errorText(error)}`, {
          cause: error,
        });
      }
      if (answer.ok) return answer.value;
      throw new SvcError(answer.code, answer.message, answer.details === undefined ? {} : { details: answer.details });
    },
    async dispose() {
      disposed = true;
    },
  };
}

/**
 * The in-thread evaluation over QuickJS's release build, to measure the worker threads against
 * (`npm run bench`). It holds the event loop while it evaluates: never for untrusted code.
 *
 * @example
 * const inThread = await createInThreadQuickJsSandbox();
 * await inThread.evaluateBoolean('1 < 2', {}); // true
 */
export async function createInThreadQuickJsSandbox(
  options: Pick<QuickJsSandboxOptions, 'timeoutMs' | 'memoryBytes'> = {},
): Promise<QuickJsSandbox> {
  // Imported here, not at the top: QuickJS's loader is only needed on the calling thread when an
  // in-thread sandbox is made (the pool's workers load it themselves), so importing the engine
  // does not load it.
  const { newQuickJSWASMModule, RELEASE_SYNC } = await import('quickjs-emscripten');
  return createQuickJsSandboxWithModule(await newQuickJSWASMModule(RELEASE_SYNC), options);
}

function serializeGlobals(globals: Record<string, unknown>): string {
  try {
    return JSON.stringify(globals);
  } catch (error) {
    throw new SvcError('SANDBOX_ERROR', `the data given to the expression is not JSON: ${errorText(error)}`, {
      cause: error,
    });
  }
}

function tooLarge(json: string, memoryBytes: number): SvcError {
  const limit = memoryBytes % (1024 * 1024) === 0 ? `${memoryBytes / (1024 * 1024)} MiB` : `${memoryBytes} bytes`;
  return new SvcError(
    'SANDBOX_MEMORY',
    `the data given to the expression (${json.length} characters of JSON) does not fit in the sandbox's ${limit}`,
    {
      details: { memoryBytes },
    },
  );
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
