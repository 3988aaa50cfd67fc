import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface ServeProcess {
  url: string;
  /** The `svc serve` process itself (its memory is read from /proc/<pid>/status). */
  pid: number;
  /** The bootstrap client's secret, sent as `X-API-Key`. */
  apiKey: string;
  /** SIGTERM, then waits for the exit, and removes the temporary store. */
  stop(): Promise<void>;
}

/**
 * `svc serve` as users start it (`bin/svc.js`, the bundled command line), in a process of its
 * own on a SQLite file in a temporary directory, with a bootstrap client whose API key the caller
 * gets. Loopback egress is allowed, so flows reach the demo server.
 */
export async function startServeProcess(env: Record<string, string> = {}): Promise<ServeProcess> {
  // `BENCH_SVC_ENTRY=path/to/main.js` starts another build (a copy of an earlier dist/bundle), to compare.
  const bin =
    process.env.BENCH_SVC_ENTRY ?? fileURLToPath(new URL('../../../packages/gateway/bin/svc.js', import.meta.url));
  const dir = mkdtempSync(join(tmpdir(), 'svc-bench-serve-'));
  const apiKey = `svc_sk_${randomBytes(32).toString('base64url')}`;
  // `BENCH_SERVE_NODE_ARGS='--cpu-prof --cpu-prof-dir=prof'` profiles the served process.
  const nodeArgs = (process.env.BENCH_SERVE_NODE_ARGS ?? '').split(' ').filter((arg) => arg !== '');
  const child = spawn(process.execPath, [...nodeArgs, bin, 'serve', '--port', '0', '--host', '127.0.0.1'], {
    env: {
      PATH: process.env.PATH ?? '',
      SVC_DB: join(dir, 'svc.db'),
      SVC_BOOTSTRAP_CLIENT_ID: 'bench',
      SVC_BOOTSTRAP_CLIENT_SECRET: apiKey,
      SVC_EGRESS_ALLOW: '127.0.0.1',
      ...env,
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  try {
    const url = await new Promise<string>((resolve, reject) => {
      let output = '';
      child.stderr!.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        const match = /serving on (http:\/\/[\d.:]+)/.exec(output);
        if (match) resolve(match[1]!);
      });
      child.on('exit', (code) => reject(new Error(`svc serve exited with ${code}: ${output}`)));
    });
    return {
      url,
      pid: child.pid!,
      apiKey,
      async stop() {
        child.kill('SIGTERM');
        await exited;
        rmSync(dir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}

/** A memory figure of a process from /proc/<pid>/status (`VmRSS`, `VmHWM`), in MiB; undefined off Linux. */
export function processMemoryMiB(pid: number, field: 'VmRSS' | 'VmHWM'): number | undefined {
  try {
    const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) / 1024 : undefined;
  } catch {
    return undefined;
  }
}

/** User plus system CPU time a process has used, in milliseconds (/proc/<pid>/stat); undefined off Linux. */
export function processCpuMs(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces), from field 3 on: utime is 14, stime 15.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS_PER_SECOND;
  } catch {
    return undefined;
  }
}

/** `getconf CLK_TCK`: 100 on every Linux that Node runs on. */
const CLOCK_TICKS_PER_SECOND = 100;
