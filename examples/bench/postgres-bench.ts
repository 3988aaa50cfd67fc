/**
 * The PostgreSQL store under the chain benchmark and the run endpoint:
 *
 * - the 10-step chain against the demo server (2 ms of latency per request) on the engine with a
 *   SQLite file and with PostgreSQL, beside the plain undici script, in rounds that alternate the
 *   three sides (ratio = svc chains/s ÷ plain chains/s of the same round);
 * - runs per second of `POST /api/gateway/flows/{id}/run` on one `svc serve` on PostgreSQL, then
 *   on two sharing the database, the same clients spread over them.
 *
 * The database: `BENCH_POSTGRES_URL`, else the local test server (127.0.0.1:5432, database `test`);
 * everything happens in a schema of its own, dropped at the end. Without a server the section
 * says so and measures nothing.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { Agent, request } from 'undici';
import type { Engine, Store } from '@svc/engine';
import { openSqliteStore } from '@svc/engine/sqlite';
import { openPostgresStore } from '@svc/engine/postgres';
import { createPlainChain, startEngineChain } from './chain-workload.js';
import { startDemoServerProcess } from './demo-server-process.js';
import { measure, median, type Measurement } from './measure.js';
import { startServeProcess, type ServeProcess } from './serve-process.js';

const CANDIDATES = process.env.BENCH_POSTGRES_URL
  ? [process.env.BENCH_POSTGRES_URL]
  : ['postgres://postgres@127.0.0.1:5432/test', 'postgres://root@127.0.0.1:5432/test'];

/** A server that answers, or why there is none. */
async function findServer(): Promise<{ url: string } | { reason: string }> {
  const problems: string[] = [];
  for (const url of CANDIDATES) {
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2_000 });
    try {
      await client.connect();
      return { url };
    } catch (error) {
      problems.push((error as Error).message);
    } finally {
      await client.end().catch(() => undefined);
    }
  }
  return { reason: `no PostgreSQL server answers (${problems.join('; ')}); set BENCH_POSTGRES_URL` };
}

async function admin(url: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** The URL of `schema` on the server: how an operator's SVC_DB names it. */
function schemaUrl(url: string, schema: string): string {
  const target = new URL(url);
  target.searchParams.set('options', `-c search_path=${schema}`);
  return target.toString();
}

export interface PostgresBenchOptions {
  rounds: number;
  warmup: number;
  /** Chains per measurement, sequential. */
  sequentialRuns: number;
  /** Chains per measurement, 16 at a time. */
  concurrentRuns: number;
  /** Runs per measurement of the run endpoint. */
  endpointRuns: number;
}

export async function benchPostgres(options: PostgresBenchOptions): Promise<string> {
  const server = await findServer();
  if ('reason' in server) return `  skipped: ${server.reason}`;
  const schema = `svc_bench_${randomBytes(4).toString('hex')}`;
  await admin(server.url, `CREATE SCHEMA "${schema}"`);
  try {
    const chain = await benchChainOnBothStores(server.url, schema, options);
    const endpoint = await benchEndpointProcesses(server.url, options);
    return `${chain}\n${endpoint}`;
  } finally {
    await admin(server.url, `DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  }
}

async function benchChainOnBothStores(url: string, schema: string, options: PostgresBenchOptions): Promise<string> {
  const demo = await startDemoServerProcess({ latencyMs: 2 });
  const dir = mkdtempSync(join(tmpdir(), 'svc-bench-pg-'));
  const plain = createPlainChain(demo.url);
  const stores: Store[] = [];
  const engines: Engine[] = [];
  try {
    stores.push(openSqliteStore({ path: join(dir, 'bench.db') }));
    stores.push(await openPostgresStore({ url, schema, secretKey: randomBytes(32) }));
    const runners: (() => Promise<void>)[] = [];
    for (const store of stores) {
      const { engine, run } = await startEngineChain(store, demo.url);
      engines.push(engine);
      runners.push(run);
    }
    const sides = [plain.run, ...runners];
    for (const side of sides) await measure(options.warmup, 16, side);
    const phases = [
      { label: 'sequential', concurrency: 1, runs: options.sequentialRuns, target: 0.5 },
      { label: '16 concurrent', concurrency: 16, runs: options.concurrentRuns, target: undefined },
    ];
    const widths = [16, 10, 12, 9, 14, 9, 22];
    const line = (cells: string[]) =>
      cells.map((cell, index) => (index === 0 ? cell.padEnd(widths[index]!) : cell.padStart(widths[index]!))).join('');
    const rows = [line(['', 'plain/s', 'SQLite/s', 'ratio', 'PostgreSQL/s', 'ratio', 'PostgreSQL target'])];
    for (const phase of phases) {
      for (const side of sides) await measure(Math.ceil(phase.runs / 4), phase.concurrency, side);
      const rounds: Measurement[][] = sides.map(() => []);
      for (let round = 0; round < options.rounds; round += 1) {
        for (const [index, side] of sides.entries())
          rounds[index]!.push(await measure(phase.runs, phase.concurrency, side));
      }
      const rate = (index: number) => median(rounds[index]!.map((each) => each.rate));
      const ratio = (index: number) => median(rounds[index]!.map((each, round) => each.rate / rounds[0]![round]!.rate));
      const target =
        phase.target === undefined
          ? '—'
          : `≥ ${phase.target.toFixed(2)}× ${ratio(2) >= phase.target ? 'met' : 'MISSED'}`;
      rows.push(
        line([
          phase.label,
          rate(0).toFixed(1),
          rate(1).toFixed(1),
          `${ratio(1).toFixed(2)}×`,
          rate(2).toFixed(1),
          `${ratio(2).toFixed(2)}×`,
          target,
        ]),
      );
    }
    return rows.join('\n');
  } finally {
    for (const engine of engines) await engine.stop();
    for (const store of stores) await store.close();
    await plain.close();
    demo.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** One `svc serve` on PostgreSQL, then two on one database, under the same 16 clients. */
async function benchEndpointProcesses(url: string, options: PostgresBenchOptions): Promise<string> {
  const demo = await startDemoServerProcess();
  const lines: string[] = [];
  try {
    for (const count of [1, 2]) {
      const schema = `svc_bench_serve_${randomBytes(4).toString('hex')}`;
      await admin(url, `CREATE SCHEMA "${schema}"`);
      const apiKey = `svc_sk_${randomBytes(32).toString('base64url')}`;
      const env = {
        SVC_DB: schemaUrl(url, schema),
        SVC_SECRET_KEY: randomBytes(32).toString('base64'),
        SVC_BOOTSTRAP_CLIENT_SECRET: apiKey,
      };
      const processes: ServeProcess[] = [];
      try {
        // One after the other: the first makes the schema and the bootstrap client.
        for (let i = 0; i < count; i += 1) processes.push(await startServeProcess(env));
        const rate = await measureRunEndpoint(processes, apiKey, demo.url, options.endpointRuns, options.rounds);
        lines.push(rate);
      } finally {
        for (const serve of processes) await serve.stop();
        await admin(url, `DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      }
    }
  } finally {
    demo.stop();
  }
  const [one, two] = lines.map(Number);
  return (
    `  POST /api/gateway/flows/{id}/run, one-step flow, 16 concurrent clients, median of ${options.rounds} rounds:\n` +
    `    1 svc serve on PostgreSQL              ${one!.toFixed(0)} runs/s\n` +
    `    2 svc serve on the same database       ${two!.toFixed(0)} runs/s (${(two! / one!).toFixed(2)}× one process)`
  );
}

async function measureRunEndpoint(
  processes: ServeProcess[],
  apiKey: string,
  demoUrl: string,
  runs: number,
  rounds: number,
): Promise<string> {
  const agent = new Agent({ keepAliveTimeout: 10_000, connections: 16 });
  const headers = { 'content-type': 'application/json', 'x-api-key': apiKey };
  try {
    const created = await request(`${processes[0]!.url}/api/gateway/flows`, {
      method: 'POST',
      headers,
      dispatcher: agent,
      body: JSON.stringify({
        name: 'bench-health',
        nodes: [
          {
            id: 'h',
            name: 'Health',
            type: 'endpoint',
            config: {
              url: '{{env.baseUrl}}/health',
              assertions: [{ target: 'statusCode', operator: '==', value: 200 }],
            },
          },
        ],
        connections: [],
      }),
    });
    const flow = (await created.body.json()) as { success: boolean; data: { id: string }; error?: unknown };
    if (!flow.success) throw new Error(`creating the benchmark flow failed: ${JSON.stringify(flow.error)}`);
    const body = JSON.stringify({ env: { baseUrl: demoUrl } });
    let turn = 0;
    const run = async () => {
      // Round robin over the processes, as a load balancer in front of them would.
      const serve = processes[(turn += 1) % processes.length]!;
      const response = await request(`${serve.url}/api/gateway/flows/${flow.data.id}/run`, {
        method: 'POST',
        headers,
        body,
        dispatcher: agent,
      });
      const answer = (await response.body.json()) as { data?: { status: string }; error?: unknown };
      if (response.statusCode !== 200 || answer.data?.status !== 'Completed')
        throw new Error(`run answered ${response.statusCode}: ${JSON.stringify(answer.error ?? answer.data)}`);
    };
    await measure(200, 16, run);
    const rates: number[] = [];
    for (let round = 0; round < rounds; round += 1) rates.push((await measure(runs, 16, run)).rate);
    return String(median(rates));
  } finally {
    await agent.close();
  }
}
