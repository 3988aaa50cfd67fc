import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

/*
 * The README's quick start, run as a newcomer types it: every line of every `sh` block above
 * "## Documentation", in order, from the repository root, on a fresh store. Ports the README
 * names (4010 for the demo API, 8080 for `svc serve`) become free ones, so the test runs beside
 * anything else on the machine; nothing else about a line changes.
 */

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const README = readFileSync(join(ROOT, 'README.md'), 'utf8');

/** Lines of the `sh` blocks of the quick start, comments dropped, `a && b` split into commands. */
export function quickStartCommands(markdown: string): string[] {
  const quickStart = markdown.split(/^## Documentation$/m)[0]!;
  const commands: string[] = [];
  for (const block of quickStart.matchAll(/^```sh\n([\s\S]*?)^```$/gm)) {
    for (const line of block[1]!.split('\n')) {
      const command = line.replace(/\s+#\s.*$/, '').trim();
      if (command !== '' && !command.startsWith('#')) commands.push(...command.split(/\s+&&\s+/));
    }
  }
  return commands;
}

/**
 * A run whose only failures are latency assertions (the health-check example asserts < 250 ms):
 * on a loaded machine a local request can take longer, which says nothing about the command.
 */
function onlyTooSlow(stderr: string): boolean {
  const failed = stderr.split('\n').filter((line) => /^\s+\d+ .+? {2}Failed\b/.test(line));
  return (
    failed.length > 0 &&
    failed.every((line) => /ASSERTION_FAILED: latencyMs </.test(line) && !/statusCode|body\./.test(line))
  );
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

const dir = mkdtempSync(join(tmpdir(), 'svc-readme-'));
// Never a download: `npx svc` must find the command this checkout's install linked.
const env = {
  ...process.env,
  SVC_DB: join(dir, 'svc.db'),
  npm_config_offline: 'true',
  npm_config_update_notifier: 'false',
};
const servers: ChildProcess[] = [];

function run(command: string): Promise<Ran> {
  return new Promise((resolve) => {
    const child = spawn('sh', ['-c', command], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** Starts a server the README leaves running and waits until its output says where it listens. */
function startServer(command: string, ready: RegExp): Promise<string> {
  const child = spawn('sh', ['-c', `exec ${command}`], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  servers.push(child);
  return new Promise((resolve, reject) => {
    let output = '';
    const listen = (chunk: Buffer) => {
      output += chunk.toString();
      if (ready.test(output)) resolve(output);
    };
    child.stdout!.on('data', listen);
    child.stderr!.on('data', listen);
    child.on('exit', (code) => reject(new Error(`${command} exited with ${code}:\n${output}`)));
  });
}

afterAll(async () => {
  for (const server of servers) {
    // The whole group: `npm start` runs the server as a child of npm and sh.
    try {
      process.kill(-server.pid!, 'SIGTERM');
    } catch {
      // already gone
    }
  }
  rmSync(dir, { recursive: true, force: true });
});

describe('README quick start', () => {
  const commands = quickStartCommands(README);

  it('has the commands a newcomer starts with', () => {
    expect(commands).toContain('npm start');
    expect(commands.some((command) => command.startsWith('npx svc run flow'))).toBe(true);
  });

  it('runs every command as written, on a fresh store', { timeout: 600_000 }, async () => {
    const demoPort = await freePort();
    const servePort = await freePort();
    const ran: string[] = [];
    for (const written of commands) {
      const command = written.replaceAll('4010', String(demoPort)).replaceAll('8080', String(servePort));
      if (/^npm (install|i|ci)\b/.test(command)) continue; // this checkout is installed; a fresh clone's CI runs it
      if (/^npm test\b/.test(command)) continue; // this test is part of it
      ran.push(written);
      if (command === 'npm start') {
        const output = await startServer(`npm start -- --port ${servePort}`, /serving on http:\/\/\S+/);
        expect(output).toMatch(new RegExp(`serving on http://127\\.0\\.0\\.1:${servePort}`));
        const health = await fetch(`http://127.0.0.1:${servePort}/health`);
        expect(await health.json()).toEqual({ status: 'ok', store: 'ok' });
        continue;
      }
      if (command.endsWith('&')) {
        await startServer(command.slice(0, -1).trim(), /listening on http:\/\/\S+/);
        continue;
      }
      const result = await run(command);
      const code = result.code === 1 && onlyTooSlow(result.stderr) ? 0 : result.code;
      expect({ command: written, code, stderr: code === 0 ? '' : result.stderr }).toEqual({
        command: written,
        code: 0,
        stderr: '',
      });
      if (/ --json\b/.test(command))
        expect(() => JSON.parse(result.stdout), `${written} prints one JSON object`).not.toThrow();
    }
    expect(ran.length).toBeGreaterThan(3);
  });
});
