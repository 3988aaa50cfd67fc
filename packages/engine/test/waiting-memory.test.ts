import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * Starts `count` executions that each wait for a webhook callback, in a process of its own (run
 * with `--expose-gc`, so the heap is measured after collection), and answers the JS heap after
 * 10 of them and after all of them.
 */
function measureWaiting(count: number, dir: string): Promise<{ heapAt10: number; heapAtAll: number; waiting: number }> {
  const engine = fileURLToPath(new URL('../dist/index.js', import.meta.url));
  const sqlite = fileURLToPath(new URL('../dist/store/sqlite/index.js', import.meta.url));
  const script = `
    const { createEngine } = await import(${JSON.stringify(engine)});
    const { openSqliteStore } = await import(${JSON.stringify(sqlite)});
    const store = openSqliteStore({ path: ${JSON.stringify(join(dir, 'svc.db'))} });
    const engine = await createEngine({ store, releaseWaitsLongerThanMs: 1000 });
    engine.startWorker();
    const flow = await engine.flows.create('t', {
      name: 'waits',
      nodes: [{ id: 'w', name: 'Wait', type: 'component-webhook', config: { mode: 'wait', timeoutMinutes: 60 } }],
      connections: [],
    });
    const start = async (n) => {
      for (let done = 0; done < n; done += 200) {
        const batch = Math.min(200, n - done);
        await Promise.all(Array.from({ length: batch }, () => engine.startExecution({ tenantId: 't', flowId: flow.id })));
        await engine.drain();
      }
    };
    const heap = () => { for (let i = 0; i < 4; i++) globalThis.gc(); return process.memoryUsage().heapUsed; };
    await start(10);
    const heapAt10 = heap();
    await start(${count} - 10);
    const heapAtAll = heap();
    let waiting = 0;
    let cursor;
    do {
      const page = await engine.listExecutions('t', { status: 'Waiting', limit: 200, ...(cursor ? { cursor } : {}) });
      waiting += page.items.length;
      cursor = page.nextCursor;
    } while (cursor);
    process.stdout.write(JSON.stringify({ heapAt10, heapAtAll, waiting }));
    await engine.stop();
    await store.close();
  `;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--expose-gc', '--input-type=module', '-e', script], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('close', (code) => {
      if (code === 0) resolve(JSON.parse(stdout) as { heapAt10: number; heapAtAll: number; waiting: number });
      else reject(new Error(`exit ${code}: ${stderr}`));
    });
  });
}

describe('executions waiting for a callback', () => {
  it('cost the process no more memory at 10,000 than at 10: each wait is a stored row', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-waiting-memory-'));
    try {
      const { heapAt10, heapAtAll, waiting } = await measureWaiting(10_000, dir);
      expect(waiting).toBe(10_000);
      // Held in memory, 10,000 runs (frames, states, steps, timers) would take tens of MB.
      expect(heapAtAll - heapAt10).toBeLessThan(4 * 1024 * 1024);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
