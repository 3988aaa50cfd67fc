import { evaluateInQuickJs, type SandboxAnswer } from './quickjs-evaluate.js';

/** A message from the pool to a worker: one evaluation. */
export interface EvaluationRequest {
  id: number;
  code: string;
  globalsJson: string;
  timeoutMs: number;
  memoryBytes: number;
}

/** A worker's messages: ready once its module is loaded, then one answer per request. */
export type WorkerMessage =
  | { kind: 'ready' }
  | { kind: 'failed-to-start'; message: string }
  | {
      kind: 'answer';
      id: number;
      answer: SandboxAnswer;
      /** True when the module faulted (a WebAssembly trap): the worker must not be used again. */
      broken: boolean;
      /** Size of the worker's WebAssembly memory after the evaluation, which never shrinks. */
      wasmBytes: number;
    };

/**
 * A compiled `WebAssembly.Module`: the compiler's lib (no DOM) does not declare WebAssembly's
 * types, and the host only passes the module on to its workers.
 */
export type CompiledWasmModule = object;

/** What the pool hands a new worker. */
export interface WorkerSetup {
  /** A file URL from which `quickjs-emscripten` resolves. */
  resolveFrom: string;
  /** QuickJS's release build, compiled once by the pool and shared by its workers. */
  wasmModule: CompiledWasmModule;
  /** Most pages (64 KiB each) the worker's WebAssembly memory may grow to. */
  maxWasmPages: number;
}

/**
 * The worker's program, as an ES module's source text. It is plain JavaScript built from
 * `evaluateInQuickJs`'s own (compiled or transpiled) text, so the same worker runs from the built
 * package and from the TypeScript sources under test, with no loader and no file beside the module.
 * The WebAssembly memory is created here with a maximum, so a runaway expression cannot grow the
 * worker past it (the module's own maximum is 2 GiB).
 */
export function sandboxWorkerSource(): string {
  return `
import { parentPort, workerData } from 'node:worker_threads';
import { createRequire } from 'node:module';

// A transpiler that keeps function names (esbuild's keepNames, as some test runners set it) wraps them in __name().
const __name = (target, value) => Object.defineProperty(target, 'name', { value, configurable: true });
const evaluateInQuickJs = ${evaluateInQuickJs.toString()};

let module;
let memory;
try {
  const { newQuickJSWASMModule, newVariant, RELEASE_SYNC } = createRequire(workerData.resolveFrom)('quickjs-emscripten');
  // 256 pages (16 MiB) is the module's own initial size, which an imported memory must match.
  memory = new WebAssembly.Memory({ initial: 256, maximum: Math.max(256, workerData.maxWasmPages) });
  module = await newQuickJSWASMModule(newVariant(RELEASE_SYNC, { wasmModule: workerData.wasmModule, wasmMemory: memory }));
} catch (error) {
  parentPort.postMessage({ kind: 'failed-to-start', message: error instanceof Error ? error.message : String(error) });
}

if (module) {
  parentPort.on('message', (request) => {
    let answer;
    let broken = false;
    try {
      answer = evaluateInQuickJs(module, request.code, request.globalsJson, { timeoutMs: request.timeoutMs, memoryBytes: request.memoryBytes });
    } catch (error) {
      broken = true;
      const text = error instanceof Error ? error.message : String(error);
      answer = { ok: false, code: 'SANDBOX_ERROR', message: 'the expression stopped the sandbox: ' + text };
    }
    parentPort.postMessage({ kind: 'answer', id: request.id, answer, broken, wasmBytes: memory.buffer.byteLength });
  });
  parentPort.postMessage({ kind: 'ready' });
}
`;
}
