/**
 * `npm run bench`: the engine running a 10-step chain with full traces made durable in the SQLite
 * store's execution log and folded into its file, against a plain undici script doing the same requests against the same local server,
 * sequentially and 16 at a time. Prints both rates, their ratio and peak RSS.
 */
import { benchPlanner } from './planner-bench.js';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createEgressPolicy, createEngine } from '@svc/engine';
import { openSqliteStore } from '@svc/engine/sqlite';
import { chainFlow, createPlainChain } from './chain-workload.js';
import { benchRunEndpoint } from './run-endpoint.js';
import { benchStoreBreakdown } from './store-breakdown.js';
import { measure, median } from './measure.js';

const RUNS = Number(process.env.BENCH_RUNS ?? 200);
const CONCURRENCY = 16;
// Both sides run this many chains (16 at a time) before anything is measured, so that both are
// measured at steady state, as a long-running service runs: V8 keeps optimising the engine's
// larger code path for about the first 1,500 chains (node --trace-opt shows its optimising
// compiles stopping there; until then they run on helper threads beside the measurement).
const WARMUP = Number(process.env.BENCH_WARMUP ?? 1_500);
// Each phase starts with one untimed round per side at its own concurrency: the first round at
// 16 opens the sockets the sequential phase did not need.
const PHASE_WARMUP = 100;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);
const TENANT = 'bench';

async function startServerProcess(): Promise<{ url: string; stop(): void }> {
  const main = fileURLToPath(new URL('../demo-api/main.js', import.meta.url));
  const child = spawn(process.execPath, [main, '--port', '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise<string>((resolve, reject) => {
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /http:\/\/[\d.:]+/.exec(output);
      if (match) resolve(match[0]);
    });
    child.on('exit', (code) => reject(new Error(`demo API exited with ${code}`)));
  });
  return { url, stop: () => child.kill('SIGTERM') };
}

const server = await startServerProcess();
const dir = mkdtempSync(join(tmpdir(), 'svc-bench-'));
const store = openSqliteStore({ path: join(dir, 'bench.db') });
const engine = await createEngine({ store, maxConcurrentExecutions: 64, egress: createEgressPolicy({ mode: 'local' }) });
const plain = createPlainChain(server.url);
try {
  const flow = await engine.flows.create(TENANT, chainFlow());
  const engineChain = async () => {
    const execution = await engine.runFlow({ tenantId: TENANT, flowId: flow.id, env: { baseUrl: server.url }, waitMs: 60_000 });
    if (execution.status !== 'Completed' || execution.steps?.length !== 10) {
      throw new Error(`engine run ended ${execution.status}: ${JSON.stringify(execution.error)}`);
    }
  };

  await measure(WARMUP, CONCURRENCY, plain.run);
  await measure(WARMUP, CONCURRENCY, engineChain);

  const results = [];
  for (const [label, concurrency] of [
    ['sequential', 1],
    [`${CONCURRENCY} concurrent`, CONCURRENCY],
  ] as const) {
    // Rounds alternate the two sides, so drift on the machine hits both alike; the medians are
    // reported, and the ratio is the median of the rounds' ratios.
    await measure(PHASE_WARMUP, concurrency, plain.run);
    await measure(PHASE_WARMUP, concurrency, engineChain);
    const plainRates: number[] = [];
    const engineRates: number[] = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      plainRates.push(await measure(RUNS, concurrency, plain.run));
      engineRates.push(await measure(RUNS, concurrency, engineChain));
    }
    if (process.env.BENCH_VERBOSE) process.stderr.write(`${label}: plain ${plainRates.map((rate) => rate.toFixed(0)).join(" ")} / engine ${engineRates.map((rate) => rate.toFixed(0)).join(" ")}\n`);
    const ratios = engineRates.map((rate, round) => rate / plainRates[round]!);
    results.push({
      label,
      plainRate: median(plainRates),
      engineRate: median(engineRates),
      ratio: median(ratios),
      target: concurrency === 1 ? 0.75 : 0.6,
    });
  }

  const rssMiB = process.resourceUsage().maxRSS / 1024;
  const line = (cells: string[]) => cells.map((cell, index) => (index === 0 ? cell.padEnd(16) : cell.padStart(16))).join('');
  process.stdout.write(`svc benchmark: 10-step chain (${5} × POST /orders → GET /orders/{id}, status assertion per step), ${RUNS} runs per measurement, median of ${ROUNDS} rounds\n`);
  process.stdout.write(`engine: full step traces, each durable (execution log, memory-mapped) before the next step, folded into a SQLite file (WAL, synchronous=NORMAL)\n\n`);
  process.stdout.write(`${line(['', 'plain undici/s', 'svc engine/s', 'ratio', 'target'])}\n`);
  for (const result of results) {
    process.stdout.write(
      `${line([result.label, result.plainRate.toFixed(1), result.engineRate.toFixed(1), `${result.ratio.toFixed(2)}×`, `≥ ${result.target.toFixed(2)}× ${result.ratio >= result.target ? 'met' : 'MISSED'}`])}\n`,
    );
  }
  process.stdout.write(`\npeak RSS of the benchmark process: ${rssMiB.toFixed(1)} MiB\n`);

  if (process.env.BENCH_BREAKDOWN) {
    // Where the time goes: the same engine on stores that do less, each as a ratio to the plain script.
    for (const [label, concurrency] of [['sequential', 1], [`${CONCURRENCY} concurrent`, CONCURRENCY]] as const) {
      const rows = await benchStoreBreakdown({ baseUrl: server.url, plain: plain.run, runs: RUNS, rounds: ROUNDS, concurrency });
      process.stdout.write(`\nengine by store, ${label} (ratio to the plain script, median of ${ROUNDS} rounds):\n`);
      for (const row of rows) process.stdout.write(`  ${row.label.padEnd(42)}${row.ratio.toFixed(2)}×\n`);
    }
  }

  const endpoint = await benchRunEndpoint({ demoUrl: server.url, runs: RUNS * 5, concurrency: CONCURRENCY, rounds: 3 });
  process.stdout.write(
    `\nREST run endpoint (svc serve, one-step flow, ${CONCURRENCY} concurrent clients, median of 3 rounds):\n` +
      `  POST /api/gateway/flows/{id}/run  ${endpoint.serveRate.toFixed(0)} runs/s\n` +
      `  the demo server's /health alone   ${endpoint.plainRate.toFixed(0)} requests/s (same clients, same run)\n`,
  );
  const planner = benchPlanner();
  process.stdout.write(
    `\nDiscovery planner on a catalog of ${planner.operations} operations (median of 21 plans):\n` +
      `  index the catalog             ${planner.indexMs.toFixed(1)} ms\n` +
      `  plan one requirement          ${planner.planMs.toFixed(1)} ms, index included (target < 100 ms: ${planner.planMs < 100 ? 'met' : 'MISSED'})\n`,
  );
} finally {
  await plain.close();
  await engine.stop();
  await store.close();
  server.stop();
  rmSync(dir, { recursive: true, force: true });
}
