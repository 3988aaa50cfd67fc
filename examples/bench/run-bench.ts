/**
 * `npm run bench`: each section measures one thing and answers its text, printed under its title.
 * Adding a measurement is one `section(...)` line. `BENCH_ROUNDS` and `BENCH_WARMUP` change the
 * chain sections' rounds and warm-up; `BENCH_BREAKDOWN=1` adds the engine on other stores;
 * `BENCH_VERBOSE=1` prints every round's rates on stderr; `BENCH_POSTGRES_URL` names the PostgreSQL server of
 * its section (default: the local test server, skipped when none answers); `BENCH_PEERS=1` times Step CI and Newman on the
 * suite section's suite too (installed under .bench/), `BENCH_SUITE_ROUNDS` its rounds (default 5). `profile-chain.ts` runs one side of the
 * chain alone, for `node --cpu-prof`.
 */
import { cpus, loadavg } from 'node:os';
import { benchChain } from './chain-bench.js';
import { PAIRS } from './chain-workload.js';
import { startDemoServerProcess } from './demo-server-process.js';
import { benchPlanner } from './planner-bench.js';
import { benchPostgres } from './postgres-bench.js';
import { benchSandbox, formatSandboxBench } from './sandbox-bench.js';
import { benchRunEndpoint } from './run-endpoint.js';
import { benchStoreBreakdown } from './store-breakdown.js';
import { benchWebhookTrigger, formatWebhookTriggerBench } from './webhook-trigger-bench.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 1_500);

async function section(title: string, run: () => Promise<string> | string): Promise<void> {
  process.stdout.write(`\n${title}\n${await run()}\n`);
}

/** For a section that calls the demo server (no latency): one runs for it and stops after. */
async function withDemoServer(run: (demoUrl: string) => Promise<string>): Promise<string> {
  const server = await startDemoServerProcess();
  try {
    return await run(server.url);
  } finally {
    server.stop();
  }
}

process.stdout.write(
  `svc benchmark, ${new Date().toISOString()}, Node ${process.version}, ${cpus().length} cores, load average ${loadavg()[0]!.toFixed(1)} at the start\n` +
    `10-step chain: ${PAIRS} × POST /orders → GET /orders/{id}, a status assertion per step. svc: full step traces, each committed\n` +
    `to a SQLite file (WAL, synchronous=NORMAL) before the next step starts. plain: an undici script making the same requests.\n` +
    `CPU/step: user + system CPU time of the measuring process (event loop and all its threads) per step; the demo server runs\n` +
    `in a process of its own. Median of ${ROUNDS} rounds that alternate the two sides; ratio = svc chains/s ÷ plain chains/s.\n`,
);

await section('Chain against the demo server with 2 ms of latency per request', () =>
  benchChain({
    latencyMs: 2,
    rounds: ROUNDS,
    warmup: WARMUP,
    phases: [
      { label: 'sequential', concurrency: 1, runs: 40, target: 0.97 },
      { label: '16 concurrent', concurrency: 16, runs: 400, target: 0.93 },
    ],
  }),
);
await section('Chain against the demo server on localhost, no latency', () =>
  benchChain({
    latencyMs: 0,
    rounds: ROUNDS,
    warmup: WARMUP,
    phases: [
      { label: 'sequential', concurrency: 1, runs: 200 },
      { label: '16 concurrent', concurrency: 16, runs: 400 },
    ],
  }),
);
if (process.env.BENCH_BREAKDOWN) {
  await section('Engine by store, against the demo server with 2 ms of latency (ratio to the plain script)', () =>
    benchStoreBreakdown({ runs: 100, rounds: ROUNDS, concurrencies: [1, 16], latencyMs: 2 }),
  );
}
await section(
  'PostgreSQL store: the chain with 2 ms of latency on SQLite and PostgreSQL (same run), and svc serve processes sharing one database',
  () => benchPostgres({ rounds: ROUNDS, warmup: WARMUP, sequentialRuns: 40, concurrentRuns: 400, endpointRuns: 1_000 }),
);
await section('REST run endpoint (svc serve, one-step flow, 16 concurrent clients, median of 3 rounds)', () =>
  withDemoServer(async (demoUrl) => {
    const endpoint = await benchRunEndpoint({ demoUrl, runs: 1_000, concurrency: 16, rounds: 3 });
    return (
      `  POST /api/gateway/flows/{id}/run  ${endpoint.serveRate.toFixed(0)} runs/s\n` +
      `  the demo server's /health alone   ${endpoint.plainRate.toFixed(0)} requests/s (same clients, same run)`
    );
  }),
);
const TRIGGER_SECONDS = Number(process.env.BENCH_TRIGGER_SECONDS ?? 20);
await section(
  `Webhook-triggered executions (svc serve, POST /webhooks/trigger/{path} with HMAC-SHA256, then GET /health; 10 senders, ${TRIGGER_SECONDS} s)`,
  () =>
    withDemoServer(async (demoUrl) =>
      formatWebhookTriggerBench(
        await benchWebhookTrigger({
          demoUrl,
          seconds: TRIGGER_SECONDS,
          senders: 10,
          warmupSeconds: 2,
          drainTimeoutSeconds: 120,
        }),
      ),
    ),
);
await section('Discovery planner on a synthetic catalog (median of 21 plans)', () => {
  const planner = benchPlanner();
  return (
    `  operations in the catalog     ${planner.operations}\n` +
    `  index the catalog             ${planner.indexMs.toFixed(1)} ms\n` +
    `  plan one requirement          ${planner.planMs.toFixed(1)} ms, index included (target < 100 ms: ${planner.planMs < 100 ? 'met' : 'MISSED'})`
  );
});
process.stdout.write(formatSandboxBench(await benchSandbox()));
await section('svc command line (cold processes, median of 10)', () =>
  withDemoServer(async (url) => (await (await import('./cli-start.js')).reportCliStart(url)).trim()),
);
await section('A CI gate: a 200-chain suite file through svc run suite, whole process', () =>
  withDemoServer(async (url) =>
    (await import('./suite-cli.js')).reportSuiteCli({
      demoUrl: url,
      peers: process.env.BENCH_PEERS === '1',
      rounds: Number(process.env.BENCH_SUITE_ROUNDS ?? 5),
    }),
  ),
);
process.stdout.write(
  `\npeak RSS of the benchmark process: ${(process.resourceUsage().maxRSS / 1024).toFixed(1)} MiB\n`,
);
