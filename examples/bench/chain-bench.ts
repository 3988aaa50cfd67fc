import { startChainSides } from './chain-sides.js';
import { STEPS } from './chain-workload.js';
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
  const sides = await startChainSides({ latencyMs: options.latencyMs });
  try {
    // Steady state, as a long-running service runs: V8 keeps optimising the engine's larger code
    // path for the first thousand or so chains, on helper threads beside the measurement.
    await measure(options.warmup, 16, sides.plain);
    await measure(options.warmup, 16, sides.engine);

    const results: PhaseResult[] = [];
    for (const phase of options.phases) {
      // One untimed round per side at the phase's concurrency opens the sockets it needs.
      await measure(Math.ceil(phase.runs / 4), phase.concurrency, sides.plain);
      await measure(Math.ceil(phase.runs / 4), phase.concurrency, sides.engine);
      const plainRounds: Measurement[] = [];
      const engineRounds: Measurement[] = [];
      for (let round = 0; round < options.rounds; round += 1) {
        plainRounds.push(await measure(phase.runs, phase.concurrency, sides.plain));
        engineRounds.push(await measure(phase.runs, phase.concurrency, sides.engine));
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
    await sides.close();
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
