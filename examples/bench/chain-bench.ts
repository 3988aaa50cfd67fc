import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEgressPolicy, createEngine } from '@svc/engine';
import { openSqliteStore } from '@svc/engine/sqlite';
import { chainFlow, createPlainChain, STEPS } from './chain-workload.js';
import { startDemoServerProcess } from './demo-server-process.js';
import { measure, median, type Measurement } from './measure.js';

export interface ChainPhase {
  label: string;
  concurrency: number;
  /** Chains per measurement: enough for a measurement to last about a second. */
  runs: number;
  /** The least ratio (engine ÷ plain script) this phase must reach, when it has a target. */
  target?: number;
}

export interface ChainBenchOptions {
  /** What each answer of the demo server waits first. */
  latencyMs: number;
  phases: ChainPhase[];
  /** Measurements per side and phase; the rows are their medians. */
  rounds: number;
  /** Chains each side runs, 16 at a time, before anything is measured. */
  warmup: number;
}

interface PhaseResult {
  phase: ChainPhase;
  plain: Measurement;
  engine: Measurement;
  ratio: number;
}

/**
 * The 10-step chain on the engine (full traces, each step committed to a SQLite file before the
 * next starts) against a plain undici script making the same requests to the same demo server,
 * in rounds that alternate the two sides so that drift on the machine hits both alike. Answers
 * the section's text: rates, their ratio against the target, and CPU time per step of each side.
 */
export async function benchChain(options: ChainBenchOptions): Promise<string> {
  const server = await startDemoServerProcess({ latencyMs: options.latencyMs });
  const dir = mkdtempSync(join(tmpdir(), 'svc-bench-'));
  const store = openSqliteStore({ path: join(dir, 'bench.db') });
  const engine = await createEngine({
    store,
    maxConcurrentExecutions: 64,
    egress: createEgressPolicy({ mode: 'local' }),
  });
  const plain = createPlainChain(server.url);
  try {
    const flow = await engine.flows.create('bench', chainFlow());
    const engineChain = async () => {
      const execution = await engine.runFlow({
        tenantId: 'bench',
        flowId: flow.id,
        env: { baseUrl: server.url },
        waitMs: 60_000,
      });
      if (execution.status !== 'Completed' || execution.steps?.length !== STEPS) {
        throw new Error(`engine run ended ${execution.status}: ${JSON.stringify(execution.error)}`);
      }
    };
    // Steady state, as a long-running service runs: V8 keeps optimising the engine's larger code
    // path for the first thousand or so chains, on helper threads beside the measurement.
    await measure(options.warmup, 16, plain.run);
    await measure(options.warmup, 16, engineChain);

    const results: PhaseResult[] = [];
    for (const phase of options.phases) {
      // One untimed round per side at the phase's concurrency opens the sockets it needs.
      await measure(Math.ceil(phase.runs / 4), phase.concurrency, plain.run);
      await measure(Math.ceil(phase.runs / 4), phase.concurrency, engineChain);
      const plainRounds: Measurement[] = [];
      const engineRounds: Measurement[] = [];
      for (let round = 0; round < options.rounds; round += 1) {
        plainRounds.push(await measure(phase.runs, phase.concurrency, plain.run));
        engineRounds.push(await measure(phase.runs, phase.concurrency, engineChain));
      }
      if (process.env.BENCH_VERBOSE) {
        const rates = (rounds: Measurement[]) => rounds.map((each) => each.rate.toFixed(0)).join(' ');
        process.stderr.write(`${phase.label}: plain ${rates(plainRounds)} / engine ${rates(engineRounds)}\n`);
      }
      results.push({
        phase,
        plain: medianOf(plainRounds),
        engine: medianOf(engineRounds),
        ratio: median(engineRounds.map((each, round) => each.rate / plainRounds[round]!.rate)),
      });
    }
    return formatResults(results);
  } finally {
    await plain.close();
    await engine.stop();
    await store.close();
    server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

function medianOf(rounds: Measurement[]): Measurement {
  return {
    rate: median(rounds.map((each) => each.rate)),
    cpuMicrosPerRun: median(rounds.map((each) => each.cpuMicrosPerRun)),
  };
}

function formatResults(results: PhaseResult[]): string {
  const widths = [16, 12, 12, 9, 16, 16, 16];
  const line = (cells: string[]) =>
    cells.map((cell, index) => (index === 0 ? cell.padEnd(widths[index]!) : cell.padStart(widths[index]!))).join('');
  const rows = [line(['', 'plain/s', 'svc/s', 'ratio', 'target', 'plain CPU/step', 'svc CPU/step'])];
  for (const { phase, plain, engine, ratio } of results) {
    const target =
      phase.target === undefined ? '—' : `≥ ${phase.target.toFixed(2)}× ${ratio >= phase.target ? 'met' : 'MISSED'}`;
    const perStep = (measurement: Measurement) => `${(measurement.cpuMicrosPerRun / STEPS).toFixed(0)} µs`;
    rows.push(
      line([
        phase.label,
        plain.rate.toFixed(1),
        engine.rate.toFixed(1),
        `${ratio.toFixed(2)}×`,
        target,
        perStep(plain),
        perStep(engine),
      ]),
    );
  }
  return rows.join('\n');
}
