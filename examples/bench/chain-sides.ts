import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEgressPolicy, createEngine } from '@svc/engine';
import { openSqliteStore } from '@svc/engine/sqlite';
import { chainFlow, createPlainChain, STEPS } from './chain-workload.js';
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
  const engine = await createEngine({
    store,
    maxConcurrentExecutions: 64,
    egress: createEgressPolicy({ mode: 'local' }),
  });
  const plain = createPlainChain(server.url);
  const flow = await engine.flows.create('bench', chainFlow());
  return {
    async engine() {
      const execution = await engine.runFlow({
        tenantId: 'bench',
        flowId: flow.id,
        env: { baseUrl: server.url },
        waitMs: 60_000,
      });
      if (execution.status !== 'Completed' || execution.steps?.length !== STEPS) {
        throw new Error(`engine run ended ${execution.status}: ${JSON.stringify(execution.error)}`);
      }
    },
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
