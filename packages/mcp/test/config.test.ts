import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const MAIN = fileURLToPath(new URL('../dist/main.js', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'svc-mcp-config-'));

afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs the built `svc-mcp` with only `env`, closes its input at once, and collects what it wrote. */
function runMcp(env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [MAIN, '--transport', 'stdio'], {
    env: { PATH: process.env.PATH ?? '', SVC_DB: join(dir, 'svc.db'), ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  child.stdin.end();
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

describe('svc-mcp configuration', () => {
  it.each([
    ['SVC_LEASE_MS', 'soon', 'SVC_LEASE_MS must be a whole number of milliseconds (1 or more), not "soon"'],
    ['SVC_DB_SYNC', 'fast', 'SVC_DB_SYNC must be "normal" or "full", not "fast"'],
    ['SVC_LOG_LEVEL', 'verbose', 'SVC_LOG_LEVEL must be one of "error", "warn", "info" or "debug", not "verbose"'],
    ['SVC_API_URL', 'svc.example.com', 'SVC_API_URL must be an http or https address'],
  ])('refuses a bad %s at start with exit 2, naming the variable', async (name, value, message) => {
    const { code, stdout, stderr } = await runMcp({ [name]: value });
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toContain(`svc-mcp: cannot start: ${message}`);
  });

  it('logs one JSON object per line with SVC_LOG_FORMAT=json', async () => {
    const { code, stderr } = await runMcp({ SVC_LOG_LEVEL: 'debug', SVC_LOG_FORMAT: 'json' });
    expect(code).toBe(0);
    const lines = stderr.trim().split('\n');
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines)
      expect(JSON.parse(line)).toMatchObject({
        time: expect.any(String),
        level: expect.any(String),
        msg: expect.any(String),
      });
    expect(lines.map((line) => JSON.parse(line) as { msg: string })).toContainEqual(
      expect.objectContaining({ level: 'debug', msg: 'svc-mcp serving on stdio', mode: 'local' }),
    );
  });
});
