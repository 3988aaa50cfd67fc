import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { findAll, parseXml } from './xml-tree.js';

type Json = Record<string, any>;

/*
 * examples/ci/: the GitHub Actions workflow and the GitLab CI job, run as their runners would run
 * them: the shell commands are read out of the files and run in order from the repository root.
 * `npm ci` and `npm run build` are not run again (this checkout is installed, and the tests run
 * after its build). The demo API's port 4010 becomes a free one and the report goes to a
 * temporary directory; nothing else about a command changes. The report is then read where the
 * file's publishing step reads it.
 */

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const REPORT = 'reports/api-tests.xml';

/** The shell commands of a list of lines or `run:` blocks, one per line. */
function commandsOf(blocks: string[]): string[] {
  return blocks.flatMap((block) =>
    block
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line !== '' && !line.startsWith('#')),
  );
}

function githubActions(): { commands: string[]; publishes: Json[] } {
  const workflow = parse(readFileSync(join(ROOT, 'examples/ci/github-actions.yml'), 'utf8')) as Json;
  const steps = workflow.jobs['api-tests'].steps as Json[];
  return {
    commands: commandsOf(steps.filter((step) => typeof step.run === 'string').map((step) => step.run as string)),
    publishes: steps.filter((step) => typeof step.uses === 'string' && step.if === 'always()'),
  };
}

function gitlab(): { commands: string[]; job: Json } {
  const pipeline = parse(readFileSync(join(ROOT, 'examples/ci/gitlab-ci.yml'), 'utf8')) as Json;
  const job = pipeline['api-tests'] as Json;
  return { commands: commandsOf(job.script as string[]), job };
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

const dir = mkdtempSync(join(tmpdir(), 'svc-ci-examples-'));
const servers: ChildProcess[] = [];
afterAll(() => {
  for (const server of servers) {
    try {
      process.kill(-server.pid!, 'SIGTERM');
    } catch {
      // already gone
    }
  }
  rmSync(dir, { recursive: true, force: true });
});

/** Runs a file's commands as its runner would, one shell line at a time; answers the report's path. */
async function runAsTheRunner(name: string, commands: string[]): Promise<{ report: string; ran: string[] }> {
  const port = await freePort();
  const report = join(dir, name, REPORT);
  const env = {
    ...process.env,
    SVC_DB: join(dir, name, 'svc.db'),
    CI: 'true',
    // Never a download: `npx svc` must find the command this checkout's install linked.
    npm_config_offline: 'true',
    npm_config_update_notifier: 'false',
  };
  const ran: string[] = [];
  for (const written of commands) {
    if (/^npm (ci|install|run build)\b/.test(written)) continue;
    ran.push(written);
    const command = written.replaceAll('4010', String(port)).replaceAll(REPORT, report);
    if (command.endsWith('&')) {
      // Left running by the runner's shell; ready when it says where it listens.
      const child = spawn('sh', ['-c', `exec ${command.slice(0, -1).trim()}`], {
        cwd: ROOT,
        env,
        stdio: ['ignore', 'pipe', 'pipe'],
        detached: true,
      });
      servers.push(child);
      await new Promise<void>((resolve, reject) => {
        let output = '';
        child.stdout!.on('data', (chunk: Buffer) => {
          output += chunk.toString();
          if (/listening on http:\/\/\S+/.test(output)) resolve();
        });
        child.on('exit', (code) => reject(new Error(`${written} exited with ${code}: ${output}`)));
      });
      continue;
    }
    const result = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
      const child = spawn('sh', ['-c', command], { cwd: ROOT, env, stdio: ['ignore', 'ignore', 'pipe'] });
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      child.on('close', (code) => resolve({ code, stderr }));
    });
    expect({ command: written, code: result.code, stderr: result.code === 0 ? '' : result.stderr }).toEqual({
      command: written,
      code: 0,
      stderr: '',
    });
  }
  return { report, ran };
}

/** The report a run wrote: one testsuite, a passing testcase per flow of the example suite file. */
function expectPassingReport(path: string): void {
  const root = parseXml(readFileSync(path, 'utf8'));
  const suites = findAll(root, 'testsuite');
  expect(suites).toHaveLength(1);
  expect(suites[0]!.attributes).toMatchObject({ name: 'demo-api-tests', tests: '4', failures: '0', skipped: '0' });
  expect(findAll(root, 'testcase').map((testcase) => testcase.attributes.name)).toEqual([
    'order-lifecycle',
    'retry-and-recover',
    'loops-and-collect',
    'expression-switch',
  ]);
}

describe('examples/ci', () => {
  it(
    'the GitHub Actions workflow runs the example suite against the demo API and publishes its JUnit report',
    { timeout: 300_000 },
    async () => {
      const { commands, publishes } = githubActions();
      const { report, ran } = await runAsTheRunner('github', commands);
      expect(ran.some((command) => command.startsWith('npx svc run suite examples/ci/api-tests.yaml'))).toBe(true);
      expectPassingReport(report);
      // The publishing steps run even when the gate failed, and read the file the run wrote.
      expect(publishes.map((step) => step.with.report_paths ?? step.with.path)).toEqual([REPORT, REPORT]);
    },
  );

  it(
    'the GitLab CI job runs the same and hands the report to GitLab, even when the job fails',
    { timeout: 300_000 },
    async () => {
      const { commands, job } = gitlab();
      const { report } = await runAsTheRunner('gitlab', commands);
      expectPassingReport(report);
      expect(job.artifacts).toMatchObject({ when: 'always', reports: { junit: REPORT } });
    },
  );

  it('both run the same commands', () => {
    expect(githubActions().commands).toEqual(gitlab().commands);
  });
});
