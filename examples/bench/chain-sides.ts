import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqliteStore } from '@svc/engine/sqlite';
import { createPlainChain, startEngineChain } from './chain-workload.js';
import { startDemoServerProcess } from './demo-server-process.js';

/** Both sides of the chain benchmark against one demo server: each runs one chain per call. */
export interface ChainSides {
  /** The engine, as `svc` runs it: full traces, each step committed to a SQLite file first. */
  engine(): Promise<void>;
  /** A plain undici script making the same requests. */
  plain(): Promise<void>;
  close(): Promise<void>;
}

/** Starts a demo server (answers wait `latencyMs` first), a store in a new folder and both sides. */
export async function startChainSides(options: { latencyMs: number }): Promise<ChainSides> {
  const server = await startDemoServerProcess({ latencyMs: options.latencyMs });
  const dir = mkdtempSync(join(tmpdir(), 'svc-bench-'));
  const store = openSqliteStore({ path: join(dir, 'bench.db') });
  const { engine, run } = await startEngineChain(store, server.url);
  const plain = createPlainChain(server.url);
  return {
    engine: run,
    plain: plain.run,
    async close() {
      await plain.close();
      await engine.stop();
      await store.close();
      server.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
