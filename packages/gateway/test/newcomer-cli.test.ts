import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDemoApi, type DemoApi } from '../../../examples/demo-api/server.js';
import { SVC_BIN, SVC_MODULES_BIN, spawnSvc } from './cli.js';
import { spawn } from 'node:child_process';

let api: DemoApi;
let dir: string;
beforeAll(async () => {
  api = await startDemoApi({ port: 0 });
  dir = mkdtempSync(join(tmpdir(), 'svc-newcomer-'));
});
afterAll(async () => {
  await api.close();
});

const examples = new URL('../../../examples/flows/', import.meta.url).pathname;
const svc = (args: string[], db = join(dir, 'svc.db')) => spawnSvc(args, { SVC_DB: db }).done;

describe('the svc launcher', () => {
  it('says to build first when there is no build to run', async () => {
    // The committed launcher, in a package that has not been built.
    const unbuilt = mkdtempSync(join(tmpdir(), 'svc-unbuilt-'));
    mkdirSync(join(unbuilt, 'bin'));
    copyFileSync(new URL('../bin/svc.js', import.meta.url), join(unbuilt, 'bin', 'svc.js'));
    writeFileSync(join(unbuilt, 'package.json'), '{ "type": "module" }');
    const result = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
      const child = spawn(process.execPath, [join(unbuilt, 'bin', 'svc.js'), '--help'], {
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      child.on('close', (code) => resolve({ code, stderr }));
    });
    expect(result).toEqual({
      code: 1,
      stderr: 'svc: the command line is not built yet: run npm run build first (in the repository root)\n',
    });
  });

  it('runs the built command line', async () => {
    const result = await new Promise<{ code: number | null; stdout: string }>((resolve) => {
      const child = spawn(process.execPath, [fileURLToPath(new URL('../bin/svc.js', import.meta.url)), '--version'], {
        stdio: ['ignore', 'pipe', 'ignore'],
      });
      let stdout = '';
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      child.on('close', (code) => resolve({ code, stdout }));
    });
    expect(result).toEqual({ code: 0, stdout: expect.stringMatching(/^\d+\.\d+\.\d+\n$/) });
  });
});

describe('svc --version and --help', () => {
  it('prints the version of the gateway package', async () => {
    const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
      version: string;
    };
    const result = await svc(['--version']);
    expect(result).toMatchObject({ code: 0, stdout: `${version}\n` });
  });

  /** Runs `svc` with a module hook; the hook throws `refused …` for what --help must not load. */
  function runHooked(bin: string, name: string, hookSource: string) {
    const hooks = join(dir, `${name}.mjs`);
    writeFileSync(hooks, hookSource);
    const register = join(dir, `register-${name}.mjs`);
    writeFileSync(
      register,
      `import { register } from 'node:module';\nregister(${JSON.stringify(`file://${hooks}`)});\n`,
    );
    return (args: string[]) =>
      new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
        const child = spawn(process.execPath, ['--import', register, bin, ...args], {
          env: { PATH: process.env.PATH ?? '', SVC_DB: join(dir, 'never', 'svc.db') },
        });
        let stdout = '';
        let stderr = '';
        child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
        child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
        child.on('close', (code) => resolve({ code, stdout, stderr }));
      });
  }

  async function expectHelpListsEverything(run: ReturnType<typeof runHooked>) {
    const help = await run(['--help']);
    expect(help.stderr).toBe('');
    expect(help.code).toBe(0);
    for (const command of [
      'run',
      'flows',
      'executions',
      'serve',
      'catalog',
      'discover',
      'testgen',
      'jobs',
      'clients',
      'tenants',
      'resume',
    ]) {
      expect(help.stdout).toMatch(new RegExp(`^  ${command}\\s`, 'm'));
    }
  }

  it('lists every command without loading the engine, the store, discovery or Hono', async () => {
    // A module hook that refuses the heavy packages: --help must not need any of them.
    const run = runHooked(
      SVC_MODULES_BIN,
      'refuse-heavy',
      `export async function resolve(specifier, context, next) {
        if (/^(@svc\\/|hono|@hono\\/|better-sqlite3|drizzle-orm|@modelcontextprotocol\\/)/.test(specifier)) throw new Error('refused ' + specifier);
        return next(specifier, context);
      }`,
    );
    await expectHelpListsEverything(run);
    // The hook does refuse them: a command that needs the store fails under it.
    const list = await run(['flows', 'list']);
    expect(list.code).not.toBe(0);
    expect(list.stderr).toMatch(/refused @svc\/engine/);
  });

  it('lists every command from the bundle without loading the chunk that holds the engine', async () => {
    // In the bundle the engine is code in a chunk, not a package: the hook refuses the file that holds it.
    const run = runHooked(
      SVC_BIN,
      'refuse-engine-chunk',
      `export async function load(url, context, next) {
        const loaded = await next(url, context);
        if (url.includes('/dist/bundle/') && /function openSqliteStore\\(/.test(String(loaded.source))) throw new Error('refused the engine in ' + url);
        return loaded;
      }`,
    );
    await expectHelpListsEverything(run);
    const list = await run(['flows', 'list']);
    expect(list.code).not.toBe(0);
    expect(list.stderr).toMatch(/refused the engine in .*dist\/bundle\/chunks\//);
  });

  it('shows the help of a command group with svc help <command>', async () => {
    const result = await svc(['help', 'executions']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^\s+list\s/m);
    expect(result.stdout).toMatch(/^\s+get \[options\] <executionId>/m);
  });

  it('refuses an unknown command or option with exit code 2', async () => {
    const command = await svc(['flow', 'list']);
    expect(command.code).toBe(2);
    expect(command.stderr).toMatch(/unknown command 'flow'/);
    const option = await svc(['executions', 'list', '--colour']);
    expect(option.code).toBe(2);
    expect(option.stderr).toMatch(/unknown option '--colour'/);
  });
});

describe('step lines while a flow runs', () => {
  it('prints each step on stderr as it finishes, and keeps stdout one JSON object', async () => {
    // A one-second delay between the two calls: the first line must arrive well before the end.
    const file = join(dir, 'slow.yaml');
    writeFileSync(
      file,
      [
        'name: slow-pair',
        'nodes:',
        '  - { id: first, name: First, type: endpoint, config: { url: "{{env.baseUrl}}/health" } }',
        '  - { id: pause, name: Pause, type: delay, config: { duration: 1500ms } }',
        '  - { id: second, name: Second, type: endpoint, config: { url: "{{env.baseUrl}}/health" } }',
        'connections:',
        '  - { id: c1, source: first, target: pause }',
        '  - { id: c2, source: pause, target: second }',
        '',
      ].join('\n'),
    );
    const { child, done } = spawnSvc(['run', 'flow', file, '--env', `baseUrl=${api.url}`, '--json'], {
      SVC_DB: join(dir, 'svc.db'),
    });
    let firstLineAt: number | undefined;
    child.stderr!.on('data', (chunk: Buffer) => {
      if (firstLineAt === undefined && /\bFirst\b/.test(chunk.toString())) firstLineAt = Date.now();
    });
    const result = await done;
    const endedAt = Date.now();
    expect(result.code).toBe(0);
    const lines = result.stderr.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^\s+1 First {2}Completed 200 {2}\d+ ms/);
    expect(lines.at(-1)).toMatch(/^\s+\d+ Second {2}Completed 200/);
    expect(firstLineAt).toBeDefined();
    expect(endedAt - firstLineAt!).toBeGreaterThanOrEqual(1_000);
    const execution = JSON.parse(result.stdout) as { status: string; steps: unknown[] };
    expect(execution.status).toBe('Completed');
  });

  it('prints no step lines with --quiet', async () => {
    const result = await svc([
      'run',
      'flow',
      join(examples, 'health-check.yaml'),
      '--env',
      `baseUrl=${api.url}`,
      '--quiet',
    ]);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
  });
});

describe('svc flows', () => {
  it('lists, prints as YAML that runs again, and deletes a saved flow', async () => {
    const db = join(mkdtempSync(join(tmpdir(), 'svc-flows-')), 'svc.db');
    expect((await svc(['flows', 'list'], db)).stdout).toMatch(/no flows saved yet/);
    expect(
      (await svc(['run', 'flow', join(examples, 'health-check.yaml'), '--env', `baseUrl=${api.url}`, '--quiet'], db))
        .code,
    ).toBe(0);

    const list = await svc(['flows', 'list', '--json'], db);
    const { items } = JSON.parse(list.stdout) as { items: Array<{ id: string; name: string; version: number }> };
    expect(items).toEqual([expect.objectContaining({ name: 'health-check', version: 1 })]);
    expect((await svc(['flows', 'list'], db)).stdout).toMatch(
      new RegExp(`^${items[0]!.id}\\s+health-check\\s+1\\s+1\\s`, 'm'),
    );

    const yaml = await svc(['flows', 'get', 'health-check'], db);
    expect(yaml.code).toBe(0);
    expect(yaml.stdout).toMatch(/^name: health-check$/m);
    const copy = join(dir, 'copy.yaml');
    writeFileSync(copy, yaml.stdout);
    // Read back unchanged: the same flow, no new version.
    expect((await svc(['run', 'flow', copy, '--env', `baseUrl=${api.url}`, '--quiet'], db)).code).toBe(0);
    expect(JSON.parse((await svc(['flows', 'get', items[0]!.id, '--json'], db)).stdout)).toMatchObject({
      id: items[0]!.id,
      version: 1,
    });

    const deleted = await svc(['flows', 'delete', 'health-check', '--json'], db);
    expect(deleted).toMatchObject({ code: 0, stdout: `${JSON.stringify({ id: items[0]!.id, deleted: true })}\n` });
    const again = await svc(['flows', 'get', items[0]!.id], db);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/^svc: FLOW_NOT_FOUND: /);
    expect((await svc(['flows', 'delete', 'health-check'], db)).code).toBe(1);
  });
});

describe('svc executions', () => {
  it('reads a past trace again, printed as svc run flow printed it', async () => {
    const db = join(mkdtempSync(join(tmpdir(), 'svc-executions-')), 'svc.db');
    const run = await svc(['run', 'flow', join(examples, 'retry-and-recover.yaml'), '--env', `baseUrl=${api.url}`], db);
    expect(run.code).toBe(0);
    const executionId = /execution ([0-9a-f-]{36})$/m.exec(run.stdout)![1]!;

    const text = await svc(['executions', 'get', executionId], db);
    expect(text).toMatchObject({ code: 0, stdout: run.stdout, stderr: '' });
    const json = JSON.parse((await svc(['executions', 'get', executionId, '--json'], db)).stdout) as {
      executionId: string;
      steps: unknown[];
    };
    expect(json.executionId).toBe(executionId);
    expect(json.steps).toHaveLength(6);

    const list = await svc(['executions', 'list', '--flow', 'retry-and-recover', '--json'], db);
    expect(
      (JSON.parse(list.stdout) as { items: Array<{ executionId: string }> }).items.map((item) => item.executionId),
    ).toEqual([executionId]);
    expect((await svc(['executions', 'list'], db)).stdout).toMatch(
      new RegExp(`^${executionId}\\s+retry-and-recover\\s+Completed\\s+\\d+ ms`, 'm'),
    );
  });

  it('answers an unknown execution with EXECUTION_NOT_FOUND and exit code 1', async () => {
    const result = await svc(['executions', 'get', '01a211d9-41a0-755f-8dd8-f52246a700d9']);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      'svc: EXECUTION_NOT_FOUND: execution "01a211d9-41a0-755f-8dd8-f52246a700d9" not found\n',
    );
    const status = await svc(['executions', 'list', '--status', 'Done']);
    expect(status.code).toBe(2);
    expect(status.stderr).toMatch(/a status is one of Queued, Running/);
  });
});
