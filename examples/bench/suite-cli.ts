/**
 * A CI gate's whole cost: a 200-chain suite (10 steps each, 2,000 requests against the demo
 * server) through `svc run suite <file.yaml>` as a cold process, from spawn to exit, the way a
 * pipeline runs it (a suite file of 200 flow files, a JUnit report written, progress lines on
 * stderr), on a new store each time as in a pipeline. Median of a few runs. With `BENCH_PEERS=1` it installs Step CI's command line and Newman
 * under `.bench/` (`npm install --prefix .bench`, not project dependencies) and times the same
 * suite with each, written from the same chain definition, in the same rounds.
 * `npm run bench` runs it as a section; alone (after a build): `node examples/dist/bench/suite-cli.js`.
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { median } from './measure.js';
import { STEPS } from './chain-workload.js';
import { writeNewmanCollection, writeStepCiWorkflow, writeSvcSuite } from './suite-chains.js';

const CHAINS = 200;
/** Flows (Step CI: tests) at a time; Newman runs one request at a time and has no such setting. */
const CONCURRENCY = 16;
const TARGET_MS = 900;
const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const SVC = join(ROOT, 'packages/gateway/bin/svc.js');
const PEERS_DIR = join(ROOT, '.bench');
const PEER_PACKAGES = ['stepci', 'newman'];

interface Tool {
  label: string;
  args: string[];
  env: Record<string, string>;
  /** Untimed, before each run. */
  before?: () => void;
}

/** Wall time from spawn to exit; a run that fails is an error, since it measures nothing. */
function timeProcess(tool: Tool): Promise<number> {
  tool.before?.();
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, tool.args, {
      env: { PATH: process.env.PATH ?? '', ...tool.env },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr!.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4000)));
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolve(performance.now() - started) : reject(new Error(`${tool.label} exited ${code}: ${stderr}`)),
    );
  });
}

/** Step CI's and Newman's command lines under .bench/, installed once (npm's ordinary client, into a folder git ignores). */
function installPeers(): { stepci: string; newman: string; versions: Record<string, string> } {
  const bin = (name: string, path: string) => join(PEERS_DIR, 'node_modules', name, path);
  const stepci = bin('stepci', 'dist/index.js');
  const newman = bin('newman', 'bin/newman.js');
  if (!existsSync(stepci) || !existsSync(newman)) {
    process.stderr.write(`installing ${PEER_PACKAGES.join(' and ')} under ${PEERS_DIR} …\n`);
    execFileSync('npm', ['install', '--prefix', PEERS_DIR, '--no-audit', '--no-fund', '--no-save', ...PEER_PACKAGES], {
      stdio: ['ignore', 'ignore', 'inherit'],
    });
  }
  const versions = Object.fromEntries(
    PEER_PACKAGES.map((name) => [
      name,
      (JSON.parse(readFileSync(bin(name, 'package.json'), 'utf8')) as { version: string }).version,
    ]),
  );
  return { stepci, newman, versions };
}

export interface SuiteCliResult {
  rows: { label: string; ms: number; target?: number }[];
  rounds: number;
}

export async function benchSuiteCli(options: {
  demoUrl: string;
  peers: boolean;
  rounds: number;
}): Promise<SuiteCliResult> {
  const dir = mkdtempSync(join(tmpdir(), 'svc-suite-bench-'));
  try {
    const suite = writeSvcSuite(dir, CHAINS, CONCURRENCY);
    const tools: Tool[] = [
      {
        label: `svc run suite (suite file, ${CONCURRENCY} flows at a time)`,
        args: [
          SVC,
          'run',
          'suite',
          suite,
          '--env',
          `baseUrl=${options.demoUrl}`,
          '--reporter',
          'junit',
          '--output',
          join(dir, 'report.xml'),
        ],
        env: { SVC_DB: join(dir, 'svc.db') },
        // A pipeline's store is new each time: the 200 flows and the suite are saved by every run.
        before: () => {
          for (const file of ['svc.db', 'svc.db-wal', 'svc.db-shm', 'svc.db.key'])
            rmSync(join(dir, file), { force: true });
        },
      },
    ];
    if (options.peers) {
      const peers = installPeers();
      const workflow = writeStepCiWorkflow(dir, CHAINS, CONCURRENCY, options.demoUrl);
      const collection = writeNewmanCollection(dir, CHAINS);
      tools.push(
        {
          label: `Step CI ${peers.versions.stepci} (stepci run, ${CONCURRENCY} tests at a time)`,
          args: [peers.stepci, 'run', workflow],
          env: { STEPCI_DISABLE_ANALYTICS: '1', HOME: dir },
        },
        {
          label: `Newman ${peers.versions.newman} (newman run, one request at a time)`,
          args: [peers.newman, 'run', collection, '--env-var', `baseUrl=${options.demoUrl}`],
          env: { HOME: dir },
        },
      );
    }
    // Untimed: every tool's checks pass (a failed run measures nothing), and the files are in the page cache.
    for (const tool of tools) await timeProcess(tool);
    const report = readFileSync(join(dir, 'report.xml'), 'utf8');
    const cases = report.match(/<testcase /g)?.length ?? 0;
    if (cases !== CHAINS || !report.includes('failures="0"'))
      throw new Error(`the svc suite did not pass: ${cases} testcases\n${report.slice(0, 2000)}`);
    const times = tools.map(() => [] as number[]);
    for (let round = 0; round < options.rounds; round += 1) {
      for (const [index, tool] of tools.entries()) times[index]!.push(await timeProcess(tool));
    }
    return {
      rounds: options.rounds,
      rows: tools.map((tool, index) => ({
        label: tool.label,
        ms: median(times[index]!),
        ...(index === 0 ? { target: TARGET_MS } : {}),
      })),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The report's lines. */
export async function reportSuiteCli(options: { demoUrl: string; peers: boolean; rounds: number }): Promise<string> {
  const result = await benchSuiteCli(options);
  const lines = result.rows.map(
    (row) =>
      `  ${row.label.padEnd(58)}${row.ms.toFixed(0).padStart(7)} ms` +
      (row.target === undefined ? '' : `  target < ${row.target} ms: ${row.ms < row.target ? 'met' : 'MISSED'}`),
  );
  const peers = options.peers
    ? ''
    : '\n  (BENCH_PEERS=1 times Step CI and Newman on the same suite in the same rounds)';
  return (
    `${CHAINS} chains of ${STEPS} steps (${CHAINS * STEPS} requests, a status check each) from one suite file, ` +
    `on a new store each run, whole process from spawn to exit, median of ${result.rounds}:\n${lines.join('\n')}${peers}`
  );
}

// Run as a program (not imported by run-bench.ts): start the demo API, print the report.
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { startDemoServerProcess } = await import('./demo-server-process.js');
  const server = await startDemoServerProcess();
  try {
    process.stdout.write(
      `${await reportSuiteCli({
        demoUrl: server.url,
        peers: process.env.BENCH_PEERS === '1',
        rounds: Number(process.env.BENCH_SUITE_ROUNDS ?? 5),
      })}\n`,
    );
  } finally {
    server.stop();
  }
}
