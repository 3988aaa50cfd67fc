/**
 * The PostgreSQL section of `npm run bench` alone (`node examples/dist/bench/postgres-alone.js`):
 * `BENCH_POSTGRES_URL` names the server, `BENCH_ROUNDS` and `BENCH_WARMUP` as for the whole bench.
 */
import { loadavg } from 'node:os';
import { benchPostgres } from './postgres-bench.js';

process.stdout.write(`PostgreSQL store, load average ${loadavg()[0]!.toFixed(1)} at the start\n`);
process.stdout.write(
  `${await benchPostgres({
    rounds: Number(process.env.BENCH_ROUNDS ?? 5),
    warmup: Number(process.env.BENCH_WARMUP ?? 1_500),
    sequentialRuns: 40,
    concurrentRuns: 400,
    endpointRuns: 1_000,
  })}\n`,
);
