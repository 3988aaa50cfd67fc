import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** What `svc` runs: the committed launcher, which starts the bundle in dist/bundle/. */
export const SVC_BIN = fileURLToPath(new URL('../bin/svc.js', import.meta.url));
/** The same command line as tsc built it, one ES module per source file (what the bundle is made of). */
export const SVC_MODULES_BIN = fileURLToPath(new URL('../dist/cli/main.js', import.meta.url));

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Spawns the built `svc` through its launcher; `done` settles when it exits. */
export function spawnSvc(
  args: string[],
  env: Record<string, string>,
): { child: ChildProcess; done: Promise<CliResult> } {
  const child = spawn(process.execPath, [SVC_BIN, ...args], {
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const done = new Promise<CliResult>((resolve) =>
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr })),
  );
  return { child, done };
}
