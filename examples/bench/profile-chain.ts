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
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEgressPolicy, createEngine } from '@svc/engine';
import { openSqliteStore } from '@svc/engine/sqlite';
import { chainFlow, createPlainChain, STEPS } from './chain-workload.js';
import { startDemoServerProcess } from './demo-server-process.js';
import { measure } from './measure.js';

const side = process.env.PROFILE_SIDE ?? 'engine';
if (side !== 'engine' && side !== 'plain') throw new Error(`PROFILE_SIDE must be engine or plain, not "${side}"`);
const concurrency = Number(process.env.PROFILE_CONCURRENCY ?? 1);
const latencyMs = Number(process.env.PROFILE_LATENCY_MS ?? 0);
const chains = Number(process.env.PROFILE_CHAINS ?? 2_000);

const server = await startDemoServerProcess({ latencyMs });
const dir = mkdtempSync(join(tmpdir(), 'svc-profile-'));
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
    if (execution.status !== 'Completed')
      throw new Error(`engine run ended ${execution.status}: ${JSON.stringify(execution.error)}`);
  };
  const chain = side === 'engine' ? engineChain : plain.run;
  await measure(1_500, 16, chain);
  const measured = await measure(chains, concurrency, chain);
  process.stdout.write(
    `${side}, ${concurrency} at a time, ${latencyMs} ms latency: ${measured.rate.toFixed(1)} chains/s, ` +
      `${(measured.cpuMicrosPerRun / STEPS).toFixed(0)} µs CPU per step\n`,
  );
} finally {
  await plain.close();
  await engine.stop();
  await store.close();
  server.stop();
  rmSync(dir, { recursive: true, force: true });
}
