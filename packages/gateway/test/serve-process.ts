import type { ChildProcess } from 'node:child_process';
import { spawnSvc, type CliResult } from './cli.js';

/** Starts the built `svc serve` on a free port and resolves once it says where it listens. */
export function startServe(
  env: Record<string, string>,
): Promise<{ child: ChildProcess; url: string; stderr: () => string; done: Promise<CliResult> }> {
  return startServeWithArgs([], env);
}

/** `startServe` with more arguments after `serve --port 0`. */
export async function startServeWithArgs(
  args: string[],
  env: Record<string, string>,
): Promise<{ child: ChildProcess; url: string; stderr: () => string; done: Promise<CliResult> }> {
  const { child, done } = spawnSvc(['serve', '--port', '0', ...args], env);
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`svc serve did not start: ${stderr}`)), 15_000);
    child.stderr!.on('data', () => {
      const match = /serving on (http:\/\/\S+)/.exec(stderr);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    });
    void done.then((result) => reject(new Error(`svc serve exited: ${result.code} ${result.stderr}`)));
  });
  return { child, url, stderr: () => stderr, done };
}
