/**
 * How long the `svc` command line takes as a whole process, cold each time: `svc --help` and a
 * one-step `svc run flow`, each against `node -e 0` (Node starting and exiting) timed in the same
 * rounds, so a loaded machine slows all three alike. Median of 10.
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

/** Milliseconds from spawn to exit; a non-zero exit is an error, since a failed run is no measure. */
function timeProcess(args: string[], env: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, args, { env: { PATH: process.env.PATH ?? '', ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(performance.now() - started) : reject(new Error(`node ${args.join(' ')} exited ${code}: ${stderr}`))));
  });
}

export interface CliStartResult {
  nodeMs: number;
  helpMs: number;
  runMs: number;
}

export async function benchCliStart(demoUrl: string): Promise<CliStartResult> {
  const dir = mkdtempSync(join(tmpdir(), 'svc-cli-start-'));
  try {
    const flow = join(dir, 'one-step.yaml');
    writeFileSync(flow, 'name: one-step\nnodes:\n  - { id: health, name: Health, type: endpoint, config: { url: "{{env.baseUrl}}/health" } }\nconnections: []\n');
    const env = { SVC_DB: join(dir, 'svc.db') };
    const run = ['run', 'flow', flow, '--env', `baseUrl=${demoUrl}`, '--quiet'];
    // Untimed: the first run creates the store and saves the flow; later runs find both.
    await timeProcess([SVC, ...run], env);
    const times = { node: [] as number[], help: [] as number[], run: [] as number[] };
    for (let round = 0; round < ROUNDS; round += 1) {
      times.node.push(await timeProcess(['-e', '0'], env));
      times.help.push(await timeProcess([SVC, '--help'], env));
      times.run.push(await timeProcess([SVC, ...run], env));
    }
    return { nodeMs: median(times.node), helpMs: median(times.help), runMs: median(times.run) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The report's lines. */
export async function reportCliStart(demoUrl: string): Promise<string> {
  const result = await benchCliStart(demoUrl);
  const row = (label: string, ms: number, target?: number) =>
    `  ${label.padEnd(30)}${ms.toFixed(0).padStart(6)} ms  (node itself + ${(ms - result.nodeMs).toFixed(0)} ms)` +
    (target === undefined ? '' : `  target < ${target} ms: ${ms < target ? 'met' : 'MISSED'}`);
  return (
    `\nsvc command line, whole process, cold each time (median of ${ROUNDS}):\n` +
    `  ${'node -e 0'.padEnd(30)}${result.nodeMs.toFixed(0).padStart(6)} ms  (the floor: Node starting and exiting)\n` +
    `${row('svc --help', result.helpMs, TARGETS.help)}\n` +
    `${row('svc run flow (one step)', result.runMs, TARGETS.run)}\n`
  );
}
