/**
 * How long the `svc` command line takes as a whole process, cold each time: `svc --help` and a
 * one-step `svc run flow`, each against `node -e 0` (Node starting and exiting) timed in the same
 * rounds, so a loaded machine slows all three alike. Median of 10, wall time and CPU time.
 * `npm run bench` runs it as a section; alone (after a build):
 * `node examples/dist/bench/cli-start.js`.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { median } from './measure.js';

const ROUNDS = 10;
const TARGETS = { help: 80, run: 250 };
const SVC = fileURLToPath(new URL('../../../packages/gateway/bin/svc.js', import.meta.url));

/**
 * Loaded before the measured program (into `node -e 0` as well): as the process exits, it writes
 * the user + system CPU time of all its threads to file descriptor 3. That is after the event loop
 * has ended and Node has waited for V8's background tasks, so their CPU counts too.
 */
const REPORT_CPU = `data:text/javascript,${encodeURIComponent(
  "import { writeSync } from 'node:fs'; process.on('exit', () => { const { user, system } = process.cpuUsage(); writeSync(3, String((user + system) / 1000)); });",
)}`;

interface ProcessTime {
  wallMs: number;
  cpuMs: number;
}

/** Wall time from spawn to exit, and CPU time; a non-zero exit is an error, since a failed run is no measure. */
function timeProcess(args: string[], env: Record<string, string>): Promise<ProcessTime> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, ['--import', REPORT_CPU, ...args], {
      env: { PATH: process.env.PATH ?? '', ...env },
      stdio: ['ignore', 'ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    let cpu = '';
    child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.stdio[3]!.on('data', (chunk: Buffer) => (cpu += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0
        ? resolve({ wallMs: performance.now() - started, cpuMs: Number(cpu) })
        : reject(new Error(`node ${args.join(' ')} exited ${code}: ${stderr}`)),
    );
  });
}

export interface CliStartResult {
  node: ProcessTime;
  help: ProcessTime;
  run: ProcessTime;
}

export async function benchCliStart(demoUrl: string): Promise<CliStartResult> {
  const dir = mkdtempSync(join(tmpdir(), 'svc-cli-start-'));
  try {
    const flow = join(dir, 'one-step.yaml');
    writeFileSync(
      flow,
      'name: one-step\nnodes:\n  - { id: health, name: Health, type: endpoint, config: { url: "{{env.baseUrl}}/health" } }\nconnections: []\n',
    );
    const env = { SVC_DB: join(dir, 'svc.db') };
    const run = ['run', 'flow', flow, '--env', `baseUrl=${demoUrl}`, '--quiet'];
    // Untimed: the first run creates the store and saves the flow; later runs find both.
    await timeProcess([SVC, ...run], env);
    const times = { node: [] as ProcessTime[], help: [] as ProcessTime[], run: [] as ProcessTime[] };
    for (let round = 0; round < ROUNDS; round += 1) {
      times.node.push(await timeProcess(['-e', '0'], env));
      times.help.push(await timeProcess([SVC, '--help'], env));
      times.run.push(await timeProcess([SVC, ...run], env));
    }
    const medians = (list: ProcessTime[]): ProcessTime => ({
      wallMs: median(list.map((t) => t.wallMs)),
      cpuMs: median(list.map((t) => t.cpuMs)),
    });
    return { node: medians(times.node), help: medians(times.help), run: medians(times.run) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The report's lines. */
export async function reportCliStart(demoUrl: string): Promise<string> {
  const result = await benchCliStart(demoUrl);
  const ms = (value: number) => `${value.toFixed(0).padStart(5)} ms`;
  const row = (label: string, time: ProcessTime, target?: number) =>
    `  ${label.padEnd(26)}${ms(time.wallMs)} (node + ${(time.wallMs - result.node.wallMs).toFixed(0)})` +
    `  CPU ${ms(time.cpuMs)} (node + ${(time.cpuMs - result.node.cpuMs).toFixed(0)})` +
    (target === undefined ? '' : `  target < ${target} ms: ${time.wallMs < target ? 'met' : 'MISSED'}`);
  return (
    `\nsvc command line, whole process, cold each time (median of ${ROUNDS}; CPU: user + system, all threads):\n` +
    `  ${'node -e 0'.padEnd(26)}${ms(result.node.wallMs)}             CPU ${ms(result.node.cpuMs)}  (the floor: Node starting and exiting)\n` +
    `${row('svc --help', result.help, TARGETS.help)}\n` +
    `${row('svc run flow (one step)', result.run, TARGETS.run)}\n`
  );
}

// Run as a program (not imported by run-bench.ts): start the demo API, print the report.
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { startDemoServerProcess } = await import('./demo-server-process.js');
  const server = await startDemoServerProcess();
  try {
    process.stdout.write(await reportCliStart(server.url));
  } finally {
    server.stop();
  }
}
