import { DEBUG_SYNC, newQuickJSWASMModule } from 'quickjs-emscripten';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SvcError } from '../errors.js';
import { createQuickJsSandbox, createQuickJsSandboxWithModule, type QuickJsSandbox } from './quickjs-sandbox.js';

let sandbox: QuickJsSandbox;

beforeAll(async () => {
  sandbox = await createQuickJsSandbox();
  // Started before the tests, so that their timings measure the limits, not a worker starting.
  await sandbox.evaluateBoolean('true', {});
});

afterAll(() => sandbox.dispose());

async function failure(promise: Promise<unknown>): Promise<SvcError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof SvcError) return error;
    throw error;
  }
  throw new Error('expected the evaluation to fail');
}

const globals = {
  ResponseBinding: { CreateOrder: { statusCode: 201, body: { total: 120, lines: [{ sku: 'A' }] } } },
  flowVars: { region: 'eu' },
  CreateOrder: { statusCode: 201 },
};

describe('createQuickJsSandbox', () => {
  describe('evaluating', () => {
    it('answers a boolean expression over the globals', async () => {
      await expect(
        sandbox.evaluateBoolean("ResponseBinding.CreateOrder.body.total > 100 && flowVars.region === 'eu'", globals),
      ).resolves.toBe(true);
      await expect(sandbox.evaluateBoolean('CreateOrder.statusCode !== 201', globals)).resolves.toBe(false);
      await expect(
        sandbox.evaluateBoolean("ResponseBinding.CreateOrder.body.lines.some((l) => l.sku === 'A')", globals),
      ).resolves.toBe(true);
    });

    it('treats strings in the globals as data, never as code', async () => {
      const hostile = { s: "'); globalThis.hacked = true; ('", t: '"}); throw 1; ({"' };
      await expect(
        sandbox.evaluateBoolean(
          `s === ${JSON.stringify(hostile.s)} && t.length === ${hostile.t.length} && typeof hacked === 'undefined'`,
          hostile,
        ),
      ).resolves.toBe(true);
    });

    it('makes a "__proto__" key of the globals a plain global', async () => {
      const data = JSON.parse('{"__proto__": {"x": 1}}') as Record<string, unknown>;
      await expect(
        sandbox.evaluateBoolean("globalThis['__proto__'].x === 1 && typeof Object.prototype.x === 'undefined'", data),
      ).resolves.toBe(true);
    });

    it('copies the globals in: the host objects do not change and nothing carries to the next evaluation', async () => {
      const data = { flowVars: { region: 'eu' } };
      await expect(
        sandbox.evaluateBoolean(
          "flowVars.region = 'us'; globalThis.leftOver = 1; Object.prototype.polluted = 1; true",
          data,
        ),
      ).resolves.toBe(true);
      expect(data.flowVars.region).toBe('eu');
      await expect(
        sandbox.evaluateBoolean(
          "typeof leftOver === 'undefined' && ({}).polluted === undefined && flowVars.region === 'eu'",
          data,
        ),
      ).resolves.toBe(true);
    });

    it('lets a global named like a built-in hide it, without breaking the sandbox', async () => {
      await expect(sandbox.evaluateBoolean('Array.statusCode === 201', { Array: { statusCode: 201 } })).resolves.toBe(
        true,
      );
      expect((await failure(sandbox.evaluateBoolean('[1]', { Array: {} }))).details).toEqual({ type: 'array' });
    });

    it('refuses globals that are not JSON data', async () => {
      const error = await failure(sandbox.evaluateBoolean('true', { big: 1n }));
      expect(error.code).toBe('SANDBOX_ERROR');
      expect(error.message).toMatch(/not JSON/);
    });
  });

  describe('no host objects', () => {
    it('finds no process through the Function constructor', async () => {
      const error = await failure(sandbox.evaluateBoolean("this.constructor.constructor('return process')()", {}));
      expect(error.code).toBe('SANDBOX_ERROR');
      expect(error.message).toBe("ReferenceError: 'process' is not defined");
      await expect(
        sandbox.evaluateBoolean("this.constructor.constructor('return typeof process')() === 'undefined'", {}),
      ).resolves.toBe(true);
    });

    it('finds no process, require, fetch or timers on the global object', async () => {
      await expect(
        sandbox.evaluateBoolean(
          "['process', 'require', 'module', 'fetch', 'Buffer', 'setTimeout', 'setInterval', 'console', 'WebAssembly'].every((name) => !(name in globalThis)) && typeof globalThis.process === 'undefined'",
          {},
        ),
      ).resolves.toBe(true);
    });

    it("finds only the sandbox's own global through Function('return this')()", async () => {
      await expect(
        sandbox.evaluateBoolean(
          "Function('return this')() === globalThis && typeof Function('return this')().process === 'undefined'",
          {},
        ),
      ).resolves.toBe(true);
    });

    it('has require throw a ReferenceError', async () => {
      const error = await failure(sandbox.evaluateBoolean("require('fs') !== null", {}));
      expect(error.message).toBe("ReferenceError: 'require' is not defined");
    });

    it('answers import() with a promise that is not a result, never a host module', async () => {
      // The runtime has no module loader and the sandbox never runs pending jobs, so the promise cannot settle with anything.
      const error = await failure(sandbox.evaluateBoolean("import('node:fs')", {}));
      expect(error.code).toBe('EXPRESSION_NOT_BOOLEAN');
      expect(error.details).toEqual({ type: 'object' });
    });
  });

  describe('time limit', () => {
    it('stops an endless loop at the time limit, and the next evaluation works', async () => {
      const started = performance.now();
      const error = await failure(sandbox.evaluateBoolean('while (true) {}', {}));
      const elapsed = performance.now() - started;
      expect(error.code).toBe('SANDBOX_TIMEOUT');
      expect(error.message).toBe('the expression ran longer than 100 ms and was stopped');
      expect(elapsed).toBeGreaterThanOrEqual(95);
      expect(elapsed).toBeLessThan(1000);
      await expect(sandbox.evaluateBoolean('1 < 2', {})).resolves.toBe(true);
    });

    it('cannot catch its way past the time limit', async () => {
      const error = await failure(sandbox.evaluateBoolean('for (;;) { try { while (true) {} } catch (e) {} } ', {}));
      expect(error.code).toBe('SANDBOX_TIMEOUT');
    });

    it('honours a configured limit', async () => {
      const quick = await createQuickJsSandbox({ timeoutMs: 30 });
      await quick.evaluateBoolean('true', {}); // the worker has started: the time measured is the limit's
      const started = performance.now();
      expect((await failure(quick.evaluateBoolean('while (true) {}', {}))).message).toMatch(/longer than 30 ms/);
      expect(performance.now() - started).toBeLessThan(500);
      await quick.dispose();
    });

    it('bounds the time spent reading a thrown value that fights back', async () => {
      const started = performance.now();
      const error = await failure(sandbox.evaluateBoolean('throw { get message() { while (true) {} } }', {}));
      expect(error.code).toBe('SANDBOX_TIMEOUT');
      expect(performance.now() - started).toBeLessThan(1000);
      await expect(sandbox.evaluateBoolean('true', {})).resolves.toBe(true);
    });
  });

  describe('memory limit', () => {
    it('stops a huge array with SANDBOX_MEMORY, and the next evaluation works', async () => {
      // Filling grows the array step by step: on a busy machine that can take longer than 100 ms.
      const patient = await createQuickJsSandbox({ timeoutMs: 5000 });
      const error = await failure(patient.evaluateBoolean('new Array(1e8).fill(0).length > 0', {}));
      expect(error.code).toBe('SANDBOX_MEMORY');
      expect(error.message).toBe("the expression used more than the sandbox's 16 MiB of memory and was stopped");
      await expect(patient.evaluateBoolean('[1, 2].length === 2', {})).resolves.toBe(true);
      await patient.dispose();
    });

    it('stops a huge string with SANDBOX_MEMORY', async () => {
      expect((await failure(sandbox.evaluateBoolean("'x'.repeat(1e9).length > 0", {}))).code).toBe('SANDBOX_MEMORY');
    });

    it('stops memory that grows step by step before the time limit', async () => {
      const small = await createQuickJsSandbox({ memoryBytes: 2 * 1024 * 1024, timeoutMs: 5000 });
      const error = await failure(
        small.evaluateBoolean('const kept = []; while (true) kept.push({ n: kept.length }); true', {}),
      );
      expect(error.code).toBe('SANDBOX_MEMORY');
      expect(error.message).toMatch(/more than the sandbox's 2 MiB/);
      await small.dispose();
    });

    it('reports globals too large for the limit as SANDBOX_MEMORY', async () => {
      const small = await createQuickJsSandbox({ memoryBytes: 1024 * 1024 });
      const error = await failure(small.evaluateBoolean('true', { blob: 'x'.repeat(2 * 1024 * 1024) }));
      expect(error.code).toBe('SANDBOX_MEMORY');
      expect(error.message).toMatch(/^the data given to the expression \(\d+ characters of JSON\) does not fit/);
      await small.dispose();
    });
  });

  describe('errors and results', () => {
    it('reports a thrown error with its message', async () => {
      const error = await failure(sandbox.evaluateBoolean("throw new TypeError('bad total')", {}));
      expect(error.code).toBe('SANDBOX_ERROR');
      expect(error.message).toBe('TypeError: bad total');
    });

    it('reports a thrown string or number', async () => {
      expect((await failure(sandbox.evaluateBoolean("throw 'plain'", {}))).message).toBe('plain');
      expect((await failure(sandbox.evaluateBoolean('throw 42', {}))).message).toBe('42');
    });

    it('reports a runtime error of the expression', async () => {
      const error = await failure(
        sandbox.evaluateBoolean('ResponseBinding.Missing.body.total > 1', { ResponseBinding: {} }),
      );
      expect(error.code).toBe('SANDBOX_ERROR');
      expect(error.message).toMatch(/^TypeError: cannot read property 'body' of undefined/);
    });

    it('reports a syntax error', async () => {
      const error = await failure(sandbox.evaluateBoolean('1 +', {}));
      expect(error.code).toBe('SANDBOX_ERROR');
      expect(error.message).toMatch(/^SyntaxError: /);
    });

    it('reports endless recursion as an error, and the next evaluation works', async () => {
      const error = await failure(sandbox.evaluateBoolean('(function f() { return f() })()', {}));
      expect(error.code).toBe('SANDBOX_ERROR');
      expect(error.message).toBe('InternalError: stack overflow');
      await expect(sandbox.evaluateBoolean('true', {})).resolves.toBe(true);
    });

    it('keeps deep recursion inside native functions within the sandbox', async () => {
      // Building the object takes a few hundred milliseconds on a busy machine: the limit is time enough.
      const patient = await createQuickJsSandbox({ timeoutMs: 5000 });
      const error = await failure(
        patient.evaluateBoolean(
          'let o = {}; for (let i = 0; i < 100000; i++) o = { o }; JSON.stringify(o).length > 0',
          {},
        ),
      );
      expect(error.code).toBe('SANDBOX_ERROR');
      expect(error.message).toMatch(/stack overflow/);
      await expect(patient.evaluateBoolean('true', {})).resolves.toBe(true);
      await patient.dispose();
    });

    it.each([
      ['1', 'number', 'the number 1'],
      ["'yes'", 'string', 'the string "yes"'],
      ['null', 'null', 'null'],
      ['void 0', 'undefined', 'undefined'],
      ['[true]', 'array', 'an array'],
      ['({ ok: true })', 'object', 'an object'],
      ['(() => true)', 'function', 'a function'],
      ['Array.isArray = () => false; [true]', 'array', 'an array'],
    ])('refuses the non-boolean result of %s', async (code, type, said) => {
      const error = await failure(sandbox.evaluateBoolean(code, {}));
      expect(error.code).toBe('EXPRESSION_NOT_BOOLEAN');
      expect(error.message).toBe(`the expression must answer true or false, but it gave ${said}`);
      expect(error.details).toEqual({ type });
    });
  });

  it('refuses to evaluate once disposed', async () => {
    const short = await createQuickJsSandbox();
    await short.dispose();
    expect((await failure(short.evaluateBoolean('true', {}))).message).toMatch(/disposed/);
  });
});

describe('handles', () => {
  it('frees every QuickJS handle on every outcome (the debug build aborts on a leak)', async () => {
    const debug = createQuickJsSandboxWithModule(await newQuickJSWASMModule(DEBUG_SYNC), { timeoutMs: 300 });
    const outcomes: string[] = [];
    for (const code of [
      'flowVars.region === "eu"',
      'false',
      '[1]',
      '({})',
      'null',
      "throw new Error('x')",
      "throw { get message() { return 'getter' } }",
      'throw { get message() { while (true) {} } }',
      '1 +',
      'while (true) {}',
      "'x'.repeat(1e9)",
      '(function f() { return f() })()',
    ]) {
      try {
        outcomes.push(String(await debug.evaluateBoolean(code, { flowVars: { region: 'eu' } })));
      } catch (error) {
        outcomes.push(error instanceof SvcError ? error.code : `host: ${String(error)}`);
      }
    }
    expect(outcomes).toEqual([
      'true',
      'false',
      'EXPRESSION_NOT_BOOLEAN',
      'EXPRESSION_NOT_BOOLEAN',
      'EXPRESSION_NOT_BOOLEAN',
      'SANDBOX_ERROR',
      'SANDBOX_ERROR',
      'SANDBOX_TIMEOUT',
      'SANDBOX_ERROR',
      'SANDBOX_TIMEOUT',
      'SANDBOX_MEMORY',
      'SANDBOX_ERROR',
    ]);
  });
});
