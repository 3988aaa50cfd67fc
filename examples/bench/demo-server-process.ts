import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/**
 * The demo API in a process of its own, so that its CPU time is not counted as the measured
 * side's and it runs beside the measured process as a remote API would.
 */
export async function startDemoServerProcess(
  options: { latencyMs?: number } = {},
): Promise<{ url: string; stop(): void }> {
  const main = fileURLToPath(new URL('../demo-api/main.js', import.meta.url));
  const args = [main, '--port', '0', '--latency-ms', String(options.latencyMs ?? 0)];
  // The IPC channel closes when this process ends however it ends, and the server stops then.
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit', 'ipc'] });
  const url = await new Promise<string>((resolve, reject) => {
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /http:\/\/[\d.:]+/.exec(output);
      if (match) resolve(match[0]);
    });
    child.on('exit', (code) => reject(new Error(`demo API exited with ${code}`)));
  });
  // The channel carries no messages: it does not keep this process running.
  child.channel?.unref();
  return { url, stop: () => child.kill('SIGTERM') };
}
