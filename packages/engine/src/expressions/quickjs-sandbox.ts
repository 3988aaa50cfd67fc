import { newQuickJSWASMModule, RELEASE_SYNC, type QuickJSContext, type QuickJSHandle, type QuickJSWASMModule } from 'quickjs-emscripten';
import { SvcError } from '../errors.js';
import type { JsSandbox } from '../nodes/types.js';

export interface QuickJsSandboxOptions {
  /** Wall-clock limit of one evaluation, in milliseconds. Default 100. */
  timeoutMs?: number;
  /** Heap limit of one evaluation's runtime, in bytes. Default 16 MiB. */
  memoryBytes?: number;
}

export type QuickJsSandbox = JsSandbox & {
  /** Refuses later evaluations. The WebAssembly module is shared by the process and stays loaded. */
  dispose(): void;
};

const DEFAULT_TIMEOUT_MS = 100;
const DEFAULT_MEMORY_BYTES = 16 * 1024 * 1024;
/**
 * QuickJS checks recursion against this many bytes of its own (WebAssembly) stack. The host's
 * native stack also holds every WebAssembly frame, and 64 KiB measured well inside Node's
 * default native stack (about 370 nested calls, enough for any condition). Deeper limits let
 * deep recursion in JSON.stringify exhaust the host stack before QuickJS notices.
 */
const MAX_STACK_BYTES = 64 * 1024;
const MAX_MESSAGE_LENGTH = 500;

let sharedModule: Promise<QuickJSWASMModule> | undefined;

/** Compiling the WebAssembly module takes tens of milliseconds, so one instance serves the process. */
function loadSharedModule(): Promise<QuickJSWASMModule> {
  sharedModule ??= newQuickJSWASMModule(RELEASE_SYNC).catch((error: unknown) => {
    sharedModule = undefined;
    throw error;
  });
  return sharedModule;
}

/**
 * A host-level fault (a WebAssembly trap, the host stack overflowing mid-call) leaves the module's
 * memory in an unknown state; the next evaluation gets a freshly instantiated module.
 */
function discardSharedModule(broken: Promise<QuickJSWASMModule>): void {
  if (sharedModule === broken) sharedModule = undefined;
}

/**
 * A QuickJS (WebAssembly) sandbox for Switch expressions. Each evaluation runs in its own
 * runtime and context, created for it and destroyed after it, so nothing one expression does
 * is visible to the next. Globals go in as one JSON string parsed by the sandbox's own
 * `JSON.parse`; the sandbox holds no host function or object.
 *
 * Evaluation is synchronous WebAssembly on the calling thread: it holds the event loop for up
 * to `timeoutMs`.
 *
 * @example
 * const sandbox = await createQuickJsSandbox({ timeoutMs: 100 });
 * await sandbox.evaluateBoolean('flowVars.region === "eu"', { flowVars: { region: 'eu' } }); // true
 * sandbox.dispose();
 */
export async function createQuickJsSandbox(options: QuickJsSandboxOptions = {}): Promise<QuickJsSandbox> {
  await loadSharedModule();
  return createSandbox(loadSharedModule, options);
}

/** The sandbox over a module of the caller's choosing (tests use the debug build to catch leaked handles). */
export function createQuickJsSandboxWithModule(module: QuickJSWASMModule, options: QuickJsSandboxOptions = {}): QuickJsSandbox {
  const loaded = Promise.resolve(module);
  return createSandbox(() => loaded, options);
}

function createSandbox(load: () => Promise<QuickJSWASMModule>, options: QuickJsSandboxOptions): QuickJsSandbox {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const memoryBytes = options.memoryBytes ?? DEFAULT_MEMORY_BYTES;
  let disposed = false;

  return {
    async evaluateBoolean(code: string, globals: Record<string, unknown>): Promise<boolean> {
      if (disposed) throw new SvcError('SANDBOX_ERROR', 'the JavaScript sandbox has been disposed');
      const json = serializeGlobals(globals);
      const modulePromise = load();
      // Always awaited, even when loaded: the evaluation then starts on a near-empty host stack,
      // which is what the stack margin of MAX_STACK_BYTES was measured against.
      const module = await modulePromise;
      try {
        return evaluate(module, code, json, { timeoutMs, memoryBytes });
      } catch (error) {
        if (error instanceof SvcError) throw error;
        discardSharedModule(modulePromise);
        throw new SvcError('SANDBOX_ERROR', `the expression stopped the sandbox: ${errorText(error)}`, { cause: error });
      }
    },
    dispose() {
      disposed = true;
    },
  };
}

function serializeGlobals(globals: Record<string, unknown>): string {
  try {
    return JSON.stringify(globals);
  } catch (error) {
    throw new SvcError('SANDBOX_ERROR', `the data given to the expression is not JSON: ${errorText(error)}`, { cause: error });
  }
}

interface Limits {
  timeoutMs: number;
  memoryBytes: number;
}

function evaluate(module: QuickJSWASMModule, code: string, globalsJson: string, limits: Limits): boolean {
  const runtime = module.newRuntime();
  let context: QuickJSContext | undefined;
  try {
    runtime.setMemoryLimit(limits.memoryBytes);
    runtime.setMaxStackSize(MAX_STACK_BYTES);
    context = runtime.newContext();
    // Taken before the globals (a node may be named `Array`) and the code (which may replace
    // Array.isArray) touch the context; used only to name the type of a wrong result.
    const isArray = unwrapOwn(context, context.evalCode('(() => { const isArray = Array.isArray; return (v) => isArray(v) })()', 'probe.js', { type: 'global' }));
    try {
      installGlobals(context, globalsJson, limits);
    } catch (error) {
      isArray.dispose();
      throw error;
    }

    let interrupted = false;
    const deadline = performance.now() + limits.timeoutMs;
    // Stays installed while the result is read: reading it may run the code's own getters.
    runtime.setInterruptHandler(() => {
      if (performance.now() < deadline) return false;
      interrupted = true;
      return true;
    });
    try {
      const result = context.evalCode(code, 'expression.js', { type: 'global' });
      if (result.error) {
        const failure = describeFailure(context, result.error, () => interrupted, limits);
        result.error.dispose();
        throw failure;
      }
      const value = result.value;
      try {
        const type = context.typeof(value);
        if (type === 'boolean') return context.dump(value) as boolean;
        const name = nameType(context, isArray, value, type);
        throw new SvcError('EXPRESSION_NOT_BOOLEAN', `the expression must answer true or false, but it gave ${describeValue(context, value, name)}`, {
          details: { type: name },
        });
      } finally {
        value.dispose();
      }
    } finally {
      isArray.dispose();
    }
  } finally {
    context?.dispose();
    runtime.dispose();
  }
}

function installGlobals(context: QuickJSContext, globalsJson: string, limits: Limits): void {
  const jsonObject = context.getProp(context.global, 'JSON');
  const parseFunction = context.getProp(jsonObject, 'parse');
  const text = context.newString(globalsJson);
  const parsed = context.callFunction(parseFunction, jsonObject, text);
  text.dispose();
  parseFunction.dispose();
  jsonObject.dispose();
  if (parsed.error) {
    const message = errorMessage(context, parsed.error);
    parsed.error.dispose();
    if (message.includes('out of memory')) {
      throw new SvcError(
        'SANDBOX_MEMORY',
        `the data given to the expression (${globalsJson.length} characters of JSON) does not fit in the sandbox's ${formatBytes(limits.memoryBytes)}`,
      );
    }
    throw new SvcError('SANDBOX_ERROR', `the data given to the expression could not be read: ${message}`);
  }
  const data = parsed.value;
  try {
    const keys = context.getOwnPropertyNames(data, { strings: true, onlyEnumerable: true });
    if (keys.error) {
      const message = errorMessage(context, keys.error);
      keys.error.dispose();
      throw new SvcError('SANDBOX_ERROR', `the data given to the expression could not be read: ${message}`);
    }
    const names = keys.value;
    try {
      for (const name of names) {
        const value = context.getProp(data, name);
        // defineProp, not setProp: a key such as "__proto__" must become a plain global, not a prototype.
        context.defineProp(context.global, name, { value, configurable: true, enumerable: false });
        value.dispose();
      }
    } finally {
      names.dispose();
    }
  } finally {
    data.dispose();
  }
}

function describeFailure(context: QuickJSContext, error: QuickJSHandle, interrupted: () => boolean, limits: Limits): SvcError {
  // Read first: a thrown object's getters run under the same deadline and may be what exhausts it.
  const message = errorMessage(context, error);
  if (interrupted()) {
    return new SvcError('SANDBOX_TIMEOUT', `the expression ran longer than ${limits.timeoutMs} ms and was stopped`, {
      details: { timeoutMs: limits.timeoutMs },
    });
  }
  if (message === 'InternalError: out of memory') {
    return new SvcError('SANDBOX_MEMORY', `the expression used more than the sandbox's ${formatBytes(limits.memoryBytes)} of memory and was stopped`, {
      details: { memoryBytes: limits.memoryBytes },
    });
  }
  return new SvcError('SANDBOX_ERROR', message);
}

/** `Name: message` of a thrown value, read field by field: dumping would serialize the whole object, however large. */
function errorMessage(context: QuickJSContext, error: QuickJSHandle): string {
  try {
    const type = context.typeof(error);
    if (type === 'string') return truncate(context.getString(error));
    if (type === 'number') return String(context.getNumber(error));
    if (type !== 'object' || context.sameValue(error, context.null)) return `a thrown ${type === 'object' ? 'null' : type}`;
    const name = readString(context, error, 'name');
    const message = readString(context, error, 'message');
    if (name === undefined && message === undefined) return 'a thrown object';
    return truncate(name && message ? `${name}: ${message}` : (message ?? name ?? ''));
  } catch {
    return 'an error that could not be read';
  }
}

function readString(context: QuickJSContext, object: QuickJSHandle, key: string): string | undefined {
  const handle = context.getProp(object, key);
  try {
    return context.typeof(handle) === 'string' ? context.getString(handle) : undefined;
  } finally {
    handle.dispose();
  }
}

function nameType(context: QuickJSContext, isArray: QuickJSHandle, value: QuickJSHandle, type: string): string {
  if (type !== 'object') return type;
  if (context.sameValue(value, context.null)) return 'null';
  const answer = context.callFunction(isArray, context.undefined, value);
  if (answer.error) {
    answer.error.dispose();
    return 'object';
  }
  const array = context.typeof(answer.value) === 'boolean' && (context.dump(answer.value) as boolean);
  answer.value.dispose();
  return array ? 'array' : 'object';
}

function describeValue(context: QuickJSContext, value: QuickJSHandle, name: string): string {
  if (name === 'number') return `the number ${context.getNumber(value)}`;
  if (name === 'string') return `the string ${JSON.stringify(truncate(context.getString(value), 60))}`;
  if (name === 'null' || name === 'undefined') return name;
  return `${/^[aeiou]/.test(name) ? 'an' : 'a'} ${name}`;
}

/** Our own setup code failing means the sandbox itself is broken, not the expression. */
function unwrapOwn(context: QuickJSContext, result: ReturnType<QuickJSContext['evalCode']>): QuickJSHandle {
  if (result.error) {
    const message = errorMessage(context, result.error);
    result.error.dispose();
    throw new SvcError('SANDBOX_ERROR', `the sandbox could not be prepared: ${message}`);
  }
  return result.value;
}

function truncate(text: string, length = MAX_MESSAGE_LENGTH): string {
  return text.length > length ? `${text.slice(0, length)}…` : text;
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function formatBytes(bytes: number): string {
  return bytes % (1024 * 1024) === 0 ? `${bytes / (1024 * 1024)} MiB` : `${bytes} bytes`;
}
