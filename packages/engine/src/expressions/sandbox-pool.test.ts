import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { SvcError } from '../errors.js';
import { createSandboxPool, type SandboxPoolOptions } from './sandbox-pool.js';

const MiB = 1024 * 1024;

function pool(options: Partial<SandboxPoolOptions> = {}) {
  return createSandboxPool({
    timeoutMs: 2000,
    memoryBytes: 16 * MiB,
    workers: 1,
    recycleAboveBytes: 48 * MiB,
    maxWasmBytes: 80 * MiB,
    resolveFrom: import.meta.url,
    ...options,
  });
}

async function failure(promise: Promise<unknown>): Promise<SvcError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof SvcError) return error;
    throw error;
  }
  throw new Error('expected the evaluation to fail');
}

describe('createSandboxPool', () => {
  it('answers evaluations queued behind a busy worker, each with its own result', async () => {
    const sandbox = pool();
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, index) => sandbox.evaluate(`${index} % 2 === 0`, '{}')),
    );
    expect(answers).toEqual(Array.from({ length: 20 }, (_, index) => index % 2 === 0));
    await sandbox.close();
  });

  it('terminates a worker stuck in one long built-in and answers the next evaluation with a new one', async () => {
    const sandbox = pool({ timeoutMs: 50, workers: 2 });
    await sandbox.evaluate('true', '{}');
    const [stuck, meanwhile] = await Promise.allSettled([
      sandbox.evaluate('Array(2**32-1).join("").length >= 0', '{}'),
      sandbox.evaluate('1 < 2', '{}'),
    ]);
    expect(stuck.status === 'rejected' && (stuck.reason as SvcError).code).toBe('SANDBOX_TIMEOUT');
    expect(stuck.status === 'rejected' && (stuck.reason as SvcError).message).toBe(
      'the expression ran longer than 50 ms and was stopped',
    );
    expect(meanwhile).toEqual({ status: 'fulfilled', value: true });
    await expect(sandbox.evaluate('[1].length === 1', '{}')).resolves.toBe(true);
    await sandbox.close();
  });

  it('bounds the WebAssembly memory of a worker, and recycles a worker whose memory grew', async () => {
    // A 64 MiB runtime limit that the 24 MiB WebAssembly maximum reaches first: QuickJS's allocator fails.
    const sandbox = pool({
      memoryBytes: 64 * MiB,
      maxWasmBytes: 24 * MiB,
      recycleAboveBytes: 17 * MiB,
      timeoutMs: 10_000,
    });
    const error = await failure(
      sandbox.evaluate("'x'.repeat(12 * 1024 * 1024) + 'y'.repeat(12 * 1024 * 1024) !== ''", '{}'),
    );
    expect(error.code).toBe('SANDBOX_MEMORY');
    await expect(sandbox.evaluate("'x'.repeat(1024).length === 1024", '{}')).resolves.toBe(true);
    await sandbox.close();
  });

  it('fails evaluations under way and later ones once closed', async () => {
    const sandbox = pool({ timeoutMs: 5000 });
    const running = failure(sandbox.evaluate('while (true) {}', '{}'));
    await new Promise((resolve) => setTimeout(resolve, 300));
    await sandbox.close();
    expect((await running).message).toBe('the JavaScript sandbox has been disposed');
    expect((await failure(sandbox.evaluate('true', '{}'))).code).toBe('SANDBOX_ERROR');
  });

  it('fails clearly, without a loop of restarts, when the sandbox cannot start', async () => {
    const sandbox = pool({ resolveFrom: 'file:///nowhere/module.js' });
    for (let attempt = 0; attempt < 2; attempt += 1) {
      const error = await failure(sandbox.evaluate('true', '{}'));
      expect(error.code).toBe('SANDBOX_ERROR');
      expect(error.message).toMatch(/^the JavaScript sandbox could not start: Cannot find module 'quickjs-emscripten'/);
    }
    await sandbox.close();
  });

  it('does not keep the process alive once idle', async () => {
    // A process that evaluates once and never closes its pool must still exit by itself.
    const module = fileURLToPath(new URL('./sandbox-pool.ts', import.meta.url));
    const script = `
      const { createSandboxPool } = await import(${JSON.stringify(module)});
      const sandbox = createSandboxPool({ timeoutMs: 2000, memoryBytes: 16777216, workers: 1, recycleAboveBytes: 50331648, maxWasmBytes: 83886080, resolveFrom: ${JSON.stringify(import.meta.url)} });
      console.log(await sandbox.evaluate('1 + 1 === 2', '{}'));
    `;
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      cwd: fileURLToPath(new URL('../../../..', import.meta.url)),
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => {
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        resolve(-1);
      }, 15_000);
      child.on('exit', (exitCode) => {
        clearTimeout(timer);
        resolve(exitCode);
      });
    });
    expect(output.trim()).toBe('true');
    expect(code).toBe(0);
  });
});
