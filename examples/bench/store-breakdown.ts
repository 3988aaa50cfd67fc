/**
 * Where the engine's time goes on the chain workload: the same engine and flow on four stores,
 * measured in alternating rounds against the plain script. A SQLite file with its execution log
 * is what the engine runs on; the same file without the log commits each group of writes
 * straight into the tables; SQLite in memory keeps the same writes without the file (no
 * durability); the last keeps no trace at all (executions and steps are not written), which is
 * the engine alone.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEgressPolicy, createEngine, type Store } from '@svc/engine';
import { openSqliteStore } from '@svc/engine/sqlite';
import { chainFlow } from './chain-workload.js';
import { measure, median } from './measure.js';

export interface BreakdownRow {
  label: string;
  ratio: number;
}

/** The store's reads and everything else stay; its execution writes answer without writing. */
function withoutTrace(store: Store): Store {
  const skip = async () => {};
  return { ...store, executions: { ...store.executions, create: skip, update: skip, commitStep: skip } };
}

export async function benchStoreBreakdown(options: {
  baseUrl: string;
  plain: () => Promise<void>;
  runs: number;
  rounds: number;
  concurrency: number;
}): Promise<BreakdownRow[]> {
  const dir = mkdtempSync(join(tmpdir(), 'svc-bench-breakdown-'));
  const sides = [
    { label: 'SQLite file (as shipped)', store: openSqliteStore({ path: join(dir, 'breakdown.db') }) },
    { label: 'SQLite file, log folded on the event loop', store: openSqliteStore({ path: join(dir, 'event-loop.db'), executionLog: { foldOn: 'event-loop' } }) },
    { label: 'SQLite file, no log', store: openSqliteStore({ path: join(dir, 'no-log.db'), executionLog: false }) },
    { label: 'SQLite in memory', store: openSqliteStore({ path: ':memory:' }) },
    { label: 'no trace written', store: withoutTrace(openSqliteStore({ path: ':memory:' })) },
  ];
  const engines = [];
  try {
    const runners: (() => Promise<void>)[] = [];
    for (const side of sides) {
      const engine = await createEngine({ store: side.store, maxConcurrentExecutions: 64, egress: createEgressPolicy({ mode: 'local' }) });
      engines.push(engine);
      const flow = await engine.flows.create('bench', chainFlow());
      runners.push(async () => {
        const execution = await engine.runFlow({ tenantId: 'bench', flowId: flow.id, env: { baseUrl: options.baseUrl }, waitMs: 60_000 });
        if (execution.status !== 'Completed') throw new Error(`engine run ended ${execution.status}: ${JSON.stringify(execution.error)}`);
      });
    }
    for (const run of runners) await measure(30, options.concurrency, run);
    const ratios: number[][] = sides.map(() => []);
    for (let round = 0; round < options.rounds; round += 1) {
      const plainRate = await measure(options.runs, options.concurrency, options.plain);
      for (const [index, run] of runners.entries()) ratios[index]!.push((await measure(options.runs, options.concurrency, run)) / plainRate);
    }
    return sides.map((side, index) => ({ label: side.label, ratio: median(ratios[index]!) }));
  } finally {
    for (const engine of engines) await engine.stop();
    for (const side of sides) await side.store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
