/**
 * One side of the chain benchmark alone, for a profiler: the engine (as `npm run bench` runs it:
 * full traces committed to a SQLite file) or the plain script, against the demo server.
 *
 *   node --cpu-prof --cpu-prof-dir=prof examples/dist/bench/profile-chain.js
 *
 * `PROFILE_SIDE=engine|plain` (engine), `PROFILE_CONCURRENCY` (1), `PROFILE_LATENCY_MS` (0),
 * `PROFILE_CHAINS` (2000, after a warm-up of 1500 at 16 concurrent). Prints the rate and the
 * process's CPU time per step.
 */
import { startChainSides } from './chain-sides.js';
import { STEPS } from './chain-workload.js';
import { measure } from './measure.js';

const side = process.env.PROFILE_SIDE ?? 'engine';
if (side !== 'engine' && side !== 'plain') throw new Error(`PROFILE_SIDE must be engine or plain, not "${side}"`);
const concurrency = Number(process.env.PROFILE_CONCURRENCY ?? 1);
const latencyMs = Number(process.env.PROFILE_LATENCY_MS ?? 0);
const chains = Number(process.env.PROFILE_CHAINS ?? 2_000);

const sides = await startChainSides({ latencyMs });
try {
  const chain = side === 'engine' ? sides.engine : sides.plain;
  await measure(1_500, 16, chain);
  const measured = await measure(chains, concurrency, chain);
  process.stdout.write(
    `${side}, ${concurrency} at a time, ${latencyMs} ms latency: ${measured.rate.toFixed(1)} chains/s, ` +
      `${(measured.cpuMicrosPerRun / STEPS).toFixed(0)} µs CPU per step\n`,
  );
} finally {
  await sides.close();
}
