/**
 * Where a sequential chain's time goes beyond the demo server's: for each side, the median time
 * from a response's headers arriving to the next request's headers being written (what the
 * client does between two steps, the step's commit included on the engine), from the call to the
 * first request, and from the last response to the chain's end. undici reports both moments on
 * its diagnostics channels, for the plain script and for the engine alike.
 *
 *   node examples/dist/bench/critical-path.js
 *
 * `PROFILE_LATENCY_MS` (2), `PROFILE_CHAINS` (40 per round), `BENCH_ROUNDS` (7 rounds that
 * alternate the two sides, after a warm-up of 1500 chains each at 16 concurrent).
 */
import { subscribe } from 'node:diagnostics_channel';
import { loadavg } from 'node:os';
import { startChainSides } from './chain-sides.js';
import { measure, median } from './measure.js';

const latencyMs = Number(process.env.PROFILE_LATENCY_MS ?? 2);
const chains = Number(process.env.PROFILE_CHAINS ?? 40);
const rounds = Number(process.env.BENCH_ROUNDS ?? 7);

/** Milliseconds from a response to the next request, from the call to the first, from the last to the end. */
interface Gaps {
  between: number[];
  start: number[];
  end: number[];
}
const noGaps = (): Gaps => ({ between: [], start: [], end: [] });

// When the chain under way started and its last response's headers arrived.
let chainStart = 0;
let lastResponse: number | undefined;
let gaps = noGaps();
subscribe('undici:request:headers', () => {
  lastResponse = performance.now();
});
subscribe('undici:client:sendHeaders', () => {
  const now = performance.now();
  if (lastResponse === undefined) gaps.start.push(now - chainStart);
  else gaps.between.push(now - lastResponse);
  lastResponse = undefined;
});

const sides = await startChainSides({ latencyMs });
try {
  // Each round's medians, per side.
  const results = { plain: noGaps(), engine: noGaps() };
  await measure(1_500, 16, sides.plain);
  await measure(1_500, 16, sides.engine);
  for (let round = 0; round < rounds; round += 1) {
    for (const side of round % 2 === 0 ? (['plain', 'engine'] as const) : (['engine', 'plain'] as const)) {
      gaps = noGaps();
      for (let chain = 0; chain < chains; chain += 1) {
        lastResponse = undefined;
        chainStart = performance.now();
        await sides[side]();
        gaps.end.push(performance.now() - lastResponse!);
      }
      for (const key of ['between', 'start', 'end'] as const) results[side][key].push(median(gaps[key]));
    }
  }
  const micros = (values: number[]) => `${(median(values) * 1000).toFixed(0).padStart(5)} µs`;
  process.stdout.write(
    `sequential chain, ${latencyMs} ms latency, load average ${loadavg()[0]!.toFixed(1)}; medians of ${rounds} rounds\n` +
      `${''.padEnd(8)}${'response → next request'.padStart(26)}${'call → first request'.padStart(24)}${'last response → end'.padStart(23)}\n`,
  );
  for (const side of ['plain', 'engine'] as const) {
    const { between, start, end } = results[side];
    process.stdout.write(
      `${side.padEnd(8)}${micros(between).padStart(26)}${micros(start).padStart(24)}${micros(end).padStart(23)}\n`,
    );
  }
} finally {
  await sides.close();
}
