import type { QuickJSContext, QuickJSHandle, QuickJSWASMModule } from 'quickjs-emscripten';

/** The codes an evaluation can end with, besides its boolean answer. */
export type SandboxFailureCode = 'SANDBOX_TIMEOUT' | 'SANDBOX_MEMORY' | 'SANDBOX_ERROR' | 'EXPRESSION_NOT_BOOLEAN';

/** What one evaluation answers: plain data, so that it crosses a worker thread's boundary as it is. */
export type SandboxAnswer =
  | { ok: true; value: boolean }
  | { ok: false; code: SandboxFailureCode; message: string; details?: Record<string, unknown> };

export interface EvaluationLimits {
  /** Wall-clock limit, checked by QuickJS between bytecode steps. */
  timeoutMs: number;
  /** Heap limit of the evaluation's QuickJS runtime, in bytes. */
  memoryBytes: number;
}

/**
 * Evaluates one boolean expression in a runtime and context of its own, created for it and
 * destroyed after it, so nothing one expression does is visible to the next. Globals go in as
 * one JSON string parsed by the sandbox's own `JSON.parse`; the sandbox holds no host function
 * or object. A failure of the expression is an answer; only a host-level fault (a WebAssembly
 * trap) throws, and it leaves the module in an unknown state.
 *
 * The function is self-contained: no import is read at run time and every helper is declared
 * inside it, because the worker threads of the sandbox pool run its source text
 * (`evaluateInQuickJs.toString()`), built and under test alike.
 */
export function evaluateInQuickJs(
  module: QuickJSWASMModule,
  code: string,
  globalsJson: string,
  limits: EvaluationLimits,
): SandboxAnswer {
  /**
   * QuickJS checks recursion against this many bytes of its own (WebAssembly) stack. The host's
   * native stack also holds every WebAssembly frame, and 64 KiB measured well inside Node's
   * default native stack (about 370 nested calls, enough for any condition). Deeper limits let
   * deep recursion in JSON.stringify exhaust the host stack before QuickJS notices.
   */
  const MAX_STACK_BYTES = 64 * 1024;
  const MAX_MESSAGE_LENGTH = 500;
  const REFUSAL = Symbol('refusal');
  type Refusal = { [REFUSAL]: Extract<SandboxAnswer, { ok: false }> };

  const refuse = (failure: SandboxFailureCode, message: string, details?: Record<string, unknown>): Refusal => ({
    [REFUSAL]:
      details === undefined ? { ok: false, code: failure, message } : { ok: false, code: failure, message, details },
  });

  function run(): SandboxAnswer {
    const runtime = module.newRuntime();
    let context: QuickJSContext | undefined;
    try {
      runtime.setMemoryLimit(limits.memoryBytes);
      runtime.setMaxStackSize(MAX_STACK_BYTES);
      context = runtime.newContext();
      // Taken before the globals (a node may be named `Array`) and the code (which may replace
      // Array.isArray) touch the context; used only to name the type of a wrong result.
      const isArray = unwrapOwn(
        context,
        context.evalCode('(() => { const isArray = Array.isArray; return (v) => isArray(v) })()', 'probe.js', {
          type: 'global',
        }),
      );
      try {
        installGlobals(context);
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
          const failure = describeFailure(context, result.error, () => interrupted);
          result.error.dispose();
          throw failure;
        }
        const value = result.value;
        try {
          const type = context.typeof(value);
          if (type === 'boolean') return { ok: true, value: context.dump(value) as boolean };
          const name = nameType(context, isArray, value, type);
          throw refuse(
            'EXPRESSION_NOT_BOOLEAN',
            `the expression must answer true or false, but it gave ${describeValue(context, value, name)}`,
            { type: name },
          );
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

  function installGlobals(context: QuickJSContext): void {
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
        throw refuse(
          'SANDBOX_MEMORY',
          `the data given to the expression (${globalsJson.length} characters of JSON) does not fit in the sandbox's ${formatBytes(limits.memoryBytes)}`,
        );
      }
      throw refuse('SANDBOX_ERROR', `the data given to the expression could not be read: ${message}`);
    }
    const data = parsed.value;
    try {
      const keys = context.getOwnPropertyNames(data, { strings: true, onlyEnumerable: true });
      if (keys.error) {
        const message = errorMessage(context, keys.error);
        keys.error.dispose();
        throw refuse('SANDBOX_ERROR', `the data given to the expression could not be read: ${message}`);
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

  function describeFailure(context: QuickJSContext, error: QuickJSHandle, interrupted: () => boolean): Refusal {
    // Read first: a thrown object's getters run under the same deadline and may be what exhausts it.
    const message = errorMessage(context, error);
    if (interrupted()) {
      return refuse('SANDBOX_TIMEOUT', `the expression ran longer than ${limits.timeoutMs} ms and was stopped`, {
        timeoutMs: limits.timeoutMs,
      });
    }
    if (message === 'InternalError: out of memory') {
      return refuse(
        'SANDBOX_MEMORY',
        `the expression used more than the sandbox's ${formatBytes(limits.memoryBytes)} of memory and was stopped`,
        {
          memoryBytes: limits.memoryBytes,
        },
      );
    }
    return refuse('SANDBOX_ERROR', message);
  }

  /** `Name: message` of a thrown value, read field by field: dumping would serialize the whole object, however large. */
  function errorMessage(context: QuickJSContext, error: QuickJSHandle): string {
    try {
      const type = context.typeof(error);
      if (type === 'string') return truncate(context.getString(error));
      if (type === 'number') return String(context.getNumber(error));
      if (type !== 'object' || context.sameValue(error, context.null))
        return `a thrown ${type === 'object' ? 'null' : type}`;
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
      throw refuse('SANDBOX_ERROR', `the sandbox could not be prepared: ${message}`);
    }
    return result.value;
  }

  function truncate(text: string, length = MAX_MESSAGE_LENGTH): string {
    return text.length > length ? `${text.slice(0, length)}…` : text;
  }

  function formatBytes(bytes: number): string {
    return bytes % (1024 * 1024) === 0 ? `${bytes / (1024 * 1024)} MiB` : `${bytes} bytes`;
  }

  try {
    return run();
  } catch (error) {
    if (typeof error === 'object' && error !== null && REFUSAL in error) return (error as Refusal)[REFUSAL];
    throw error;
  }
}
