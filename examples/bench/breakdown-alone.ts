/**
 * The `BENCH_BREAKDOWN=1` section of `npm run bench` alone (`node examples/dist/bench/breakdown-alone.js`):
 * the engine on stores that do less, against the demo server with 2 ms of latency per request.
 * `BENCH_ROUNDS` as for the whole bench.
 */
import { loadavg } from 'node:os';
import { benchStoreBreakdown } from './store-breakdown.js';

process.stdout.write(
  `Engine by store, against the demo server with 2 ms of latency, load average ${loadavg()[0]!.toFixed(1)} at the start\n`,
);
process.stdout.write(
  `${await benchStoreBreakdown({ runs: 100, rounds: Number(process.env.BENCH_ROUNDS ?? 5), concurrencies: [1, 16], latencyMs: 2 })}\n`,
);
