import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
// The launcher npm links as `svc-mcp`; it runs the built server.
const BIN = join(ROOT, 'packages/mcp/bin/svc-mcp.js');
const dir = mkdtempSync(join(tmpdir(), 'svc-mcp-flags-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// A module hook that refuses the MCP SDK, the engine and discovery: --help and --version need none.
const hooks = join(dir, 'refuse-heavy.mjs');
writeFileSync(
  hooks,
  `export async function resolve(specifier, context, next) {
    if (/^(@svc\\/|@modelcontextprotocol\\/|better-sqlite3|zod)/.test(specifier)) throw new Error('refused ' + specifier);
    return next(specifier, context);
  }`,
);
const register = join(dir, 'register.mjs');
writeFileSync(register, `import { register } from 'node:module';\nregister(${JSON.stringify(`file://${hooks}`)});\n`);

function run(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', register, BIN, ...args], {
      env: { PATH: process.env.PATH ?? '', SVC_DB: join(dir, 'never', 'svc.db') },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('svc-mcp --help and --version', () => {
  it('prints the usage and exits 0 without loading the MCP SDK or the engine', async () => {
    const result = await run(['--help']);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^usage: svc-mcp \[--transport stdio\]/);
  });

  it('prints the version of the package', async () => {
    const { version } = JSON.parse(readFileSync(join(ROOT, 'packages/mcp/package.json'), 'utf8')) as {
      version: string;
    };
    expect(await run(['--version'])).toMatchObject({ code: 0, stdout: `${version}\n` });
  });

  it('refuses an unknown argument with exit code 2; the hook does refuse a real start', async () => {
    const unknown = await run(['--verbose']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/unknown argument "--verbose"/);
    const start = await run(['--transport', 'stdio']);
    expect(start.code).not.toBe(0);
    expect(start.stderr).toMatch(/refused/);
  });
});
