/**
 * Where the engine's time goes on the chain workload (`BENCH_BREAKDOWN=1`): the same engine and
 * flow on stores that do less, measured in alternating rounds against the plain script, against
 * the demo server with `latencyMs` of latency per request (2 in `npm run bench`, what users
 * meet). The SQLite file is what the engine runs on; with `synchronous=FULL` each group
 * commit is also an fsync; SQLite in memory keeps the same writes without the file (no
 * durability); the last keeps no trace at all (executions and steps are not written), which is
 * the engine alone.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Store } from '@svc/engine';
import { openSqliteStore } from '@svc/engine/sqlite';
import { createPlainChain, startEngineChain, STEPS } from './chain-workload.js';
import { startDemoServerProcess } from './demo-server-process.js';
import { measure, median } from './measure.js';

/** The store's reads and everything else stay; its execution writes answer without writing. */
function withoutTrace(store: Store): Store {
  const skip = async () => {};
  return { ...store, executions: { ...store.executions, create: skip, update: skip, commitStep: skip } };
}

export async function benchStoreBreakdown(options: {
  runs: number;
  rounds: number;
  concurrencies: number[];
  latencyMs: number;
}): Promise<string> {
  const server = await startDemoServerProcess({ latencyMs: options.latencyMs });
  const plain = createPlainChain(server.url);
  const dir = mkdtempSync(join(tmpdir(), 'svc-bench-breakdown-'));
  const sides = [
    { label: 'SQLite file (as shipped)', store: openSqliteStore({ path: join(dir, 'normal.db') }) },
    {
      label: 'SQLite file, synchronous=FULL',
      store: openSqliteStore({ path: join(dir, 'full.db'), synchronous: 'full' }),
    },
    { label: 'SQLite in memory', store: openSqliteStore({ path: ':memory:' }) },
    { label: 'no trace written', store: withoutTrace(openSqliteStore({ path: ':memory:' })) },
  ];
  const engines = [];
  try {
    const runners: (() => Promise<void>)[] = [];
    for (const side of sides) {
      const { engine, run } = await startEngineChain(side.store, server.url);
      engines.push(engine);
      runners.push(run);
    }
    for (const run of [plain.run, ...runners]) await measure(500, 16, run);
    const columns = options.concurrencies.map((concurrency) =>
      concurrency === 1 ? 'sequential' : `${concurrency} concurrent`,
    );
    const lines = [`${''.padEnd(34)}${columns.map((column) => `${column}: ratio, CPU/step`.padStart(32)).join('')}`];
    const ratios: number[][][] = sides.map(() => options.concurrencies.map(() => []));
    const cpu: number[][][] = [plain.run, ...runners].map(() => options.concurrencies.map(() => []));
    for (const [column, concurrency] of options.concurrencies.entries()) {
      for (let round = 0; round < options.rounds; round += 1) {
        const plainMeasurement = await measure(options.runs, concurrency, plain.run);
        cpu[0]![column]!.push(plainMeasurement.cpuMicrosPerRun / STEPS);
        for (const [index, run] of runners.entries()) {
          const measurement = await measure(options.runs, concurrency, run);
          ratios[index]![column]!.push(measurement.rate / plainMeasurement.rate);
          cpu[index + 1]![column]!.push(measurement.cpuMicrosPerRun / STEPS);
        }
      }
    }
    const cell = (ratio: string, micros: number[]) => `${ratio}, ${median(micros).toFixed(0)} µs`.padStart(32);
    lines.push(`${'plain script'.padEnd(34)}${cpu[0]!.map((micros) => cell('1.00×', micros)).join('')}`);
    for (const [index, side] of sides.entries()) {
      lines.push(
        `${side.label.padEnd(34)}${ratios[index]!.map((each, column) => cell(`${median(each).toFixed(2)}×`, cpu[index + 1]![column]!)).join('')}`,
      );
    }
    return lines.join('\n');
  } finally {
    for (const engine of engines) await engine.stop();
    for (const side of sides) await side.store.close();
    await plain.close();
    server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
