import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { executionFixture, stepFixture } from '../contract.js';
import type { StepRecord } from '../types.js';
import { ExecutionLog, executionLogDirectory, readExecutionLogFile } from './execution-log.js';
import { decodeRecord, encodeRecord } from './execution-log-records.js';
import { bindWrite } from './execution-writes.js';
import { mappedFileAddon } from './mapped-file.js';
import { openSqliteStore } from './open-sqlite-store.js';

const dirs: string[] = [];
function tempDir(base = tmpdir()): string {
  mkdirSync(base, { recursive: true });
  const dir = mkdtempSync(join(base, 'svc-execlog-'));
  dirs.push(dir);
  return dir;
}
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const TENANT = 'acme';

/** The contract's step, with a request body that needs escaping in JSON and is not ASCII. */
function stepOf(executionId: string, seq: number, status: StepRecord['status'] = 'Completed'): StepRecord {
  return stepFixture({
    id: `${executionId}:${seq}`,
    executionId,
    tenantId: TENANT,
    seq,
    status,
    request: { method: 'POST', url: 'http://127.0.0.1/orders', headers: { 'content-type': 'application/json' }, body: { note: 'ünïcode ✓ "quoted"' } },
  });
}

describe.each([
  ['a memory mapping', mappedFileAddon()],
  ['write(2)', null],
])('the execution log file, written through %s', (_label, addon) => {
  it('reads back what was appended, in order, until a record of another epoch', () => {
    const log = ExecutionLog.create(tempDir(), { sizeBytes: 64 * 1024, addon });
    expect(log.writesThroughMapping).toBe(addon !== null);
    const texts = ['{"a":1}', 'ünïcode ✓', 'x'.repeat(1001)];
    for (const text of texts) expect(log.append(text)).toBe(true);
    const read = readExecutionLogFile(log.path)!;
    expect(read.id).toBe(log.id);
    expect(read.records.map((record) => record.text)).toEqual(texts);

    // Starting over: the old records are still in the file but no longer count.
    log.restart();
    expect(readExecutionLogFile(log.path)!.records).toEqual([]);
    log.append('after');
    const again = readExecutionLogFile(log.path)!;
    expect(again.epoch).toBe(read.epoch + 1);
    expect(again.records.map((record) => record.text)).toEqual(['after']);
    log.remove();
    expect(existsSync(log.path)).toBe(false);
  });

  it('skips what a fold position covers, and refuses a record larger than the room left', () => {
    const log = ExecutionLog.create(tempDir(), { sizeBytes: 4096, addon });
    log.append('first');
    const position = { epoch: log.epoch, offset: log.offset };
    log.append('second');
    expect(readExecutionLogFile(log.path, position)!.records.map((record) => record.text)).toEqual(['second']);
    // A position of an earlier epoch covers nothing of this one.
    expect(readExecutionLogFile(log.path, { epoch: log.epoch - 1, offset: 10_000 })!.records).toHaveLength(2);
    expect(log.append('y'.repeat(log.capacity))).toBe(false);
    log.remove();
  });
});

describe('execution log records', () => {
  it('round-trip a bound write (strings with separators, numbers, nulls), and refuse one of another epoch or a torn one', () => {
    const step = { ...stepOf('e1', 1), nodeName: 'a;b,c', request: { body: 's3,;n1;"\u00e9\ud83d\ude00' }, latencyMs: 0.1 + 0.2 };
    const write = bindWrite({ kind: 'step', step, patch: { status: 'Running', error: null }, updatedAt: 5 });
    expect(write.values).toContain(null);
    const text = encodeRecord(write, 7);
    expect(decodeRecord(text, 7)).toEqual(write);
    expect(decodeRecord(text, 8)).toBeUndefined();
    expect(decodeRecord(text.slice(0, -5), 7)).toBeUndefined();
    expect(decodeRecord(`${text}x`, 7)).toBeUndefined();
    expect(decodeRecord('7;drop;;z,;', 7)).toBeUndefined();
    expect(decodeRecord('7;update;;s99,;short', 7)).toBeUndefined();
  });
});

describe('executions written through the execution log', () => {
  it('are read back at once by the store that wrote them and by another store of this process, before any fold', async () => {
    const path = join(tempDir(), 'svc.db');
    const writer = openSqliteStore({ path, executionLog: { foldDelayMs: 60_000 } });
    const reader = openSqliteStore({ path });
    try {
      const execution = executionFixture({ tenantId: TENANT, id: 'e-read' });
      await writer.executions.create(execution);
      await writer.executions.commitStep(stepOf('e-read', 1), { status: 'Running' });
      await writer.executions.update(TENANT, 'e-read', { status: 'Completed', endedAt: 2_000 });
      expect(await reader.executions.get(TENANT, 'e-read')).toMatchObject({ status: 'Completed', endedAt: 2_000 });
      expect((await reader.executions.listSteps(TENANT, 'e-read')).map((step) => step.request)).toEqual([stepOf('e-read', 1).request]);
      await expect(writer.executions.create(execution)).rejects.toMatchObject({ code: 'CONFLICT' });
      await expect(writer.executions.update(TENANT, 'missing', { status: 'Failed' })).rejects.toMatchObject({ code: 'EXECUTION_NOT_FOUND' });
      await expect(writer.executions.update('other-tenant', 'e-read', { status: 'Failed' })).rejects.toMatchObject({ code: 'EXECUTION_NOT_FOUND' });
      // Both logs are live: neither store took the other's over.
      expect(readdirSync(executionLogDirectory(path)).filter((name) => name.endsWith('.log'))).toHaveLength(2);
    } finally {
      await writer.close();
      await reader.close();
    }
    expect(readdirSync(executionLogDirectory(path))).toEqual([]);
  });

  describe.each([
    ['through a memory mapping', {} as Record<string, string>],
    ['with write(2)', { SVC_EXECUTION_LOG_MMAP: '0' }],
  ])('left behind by a process killed before it folded, %s', (_label, env) => {
    it('are folded by the next store that opens the file, each write once', async () => {
      const path = join(tempDir(), 'svc.db');
      const child = spawn(process.execPath, [await childScript(), path], {
        stdio: ['ignore', 'pipe', 'inherit'],
        env: { ...process.env, ...env },
      });
      const exited = new Promise<NodeJS.Signals | null>((resolve) => child.once('exit', (_code, signal) => resolve(signal)));
      const ready = await new Promise<string>((resolve, reject) => {
        let output = '';
        child.stdout!.on('data', (chunk: Buffer) => {
          output += chunk.toString();
          if (output.includes('\n')) resolve(output.trim());
        });
        child.once('exit', (code) => reject(new Error(`the writing process exited with ${code}`)));
      });
      expect(JSON.parse(ready)).toEqual({ mapped: !env.SVC_EXECUTION_LOG_MMAP });
      child.kill('SIGKILL');
      expect(await exited).toBe('SIGKILL');
      expect(readdirSync(executionLogDirectory(path))).toHaveLength(1);

      const store = openSqliteStore({ path });
      try {
        expect(await store.executions.get(TENANT, 'e-crash')).toMatchObject({ status: 'Running', stepsExecuted: 0 });
        const steps = await store.executions.listSteps(TENANT, 'e-crash');
        // Step 2 was written Waiting, then replaced by its Completed run: the later write wins.
        expect(steps.map((step) => [step.seq, step.status])).toEqual([
          [1, 'Completed'],
          [2, 'Completed'],
          [3, 'Completed'],
        ]);
        expect(steps[0]).toEqual(stepOf('e-crash', 1));
        // The dead process's log is gone, and only this store's own is left.
        expect(readdirSync(executionLogDirectory(path))).toHaveLength(1);
      } finally {
        await store.close();
      }
    });
  });
});

/** A process that writes an execution and its steps through the log, says so, and waits to be killed. */
let script: string | undefined;
async function childScript(): Promise<string> {
  if (script) return script;
  const { build } = await import('esbuild');
  const packageDir = fileURLToPath(new URL('../../..', import.meta.url));
  const dir = tempDir(join(packageDir, '.svc'));
  const outfile = join(dir, 'store.mjs');
  const entry = join(dir, 'entry.ts');
  writeFileSync(
    entry,
    `export { openSqliteStore } from ${JSON.stringify(join(packageDir, 'src/store/sqlite/index.ts'))};\n` +
      `export { mappedFileAddon } from ${JSON.stringify(join(packageDir, 'src/store/sqlite/mapped-file.ts'))};\n`,
  );
  await build({
    entryPoints: [entry],
    bundle: true,
    platform: 'node',
    format: 'esm',
    packages: 'external',
    outfile,
    logLevel: 'silent',
  });
  script = join(dir, 'write-and-wait.mjs');
  writeFileSync(
    script,
    `
const { openSqliteStore, mappedFileAddon } = await import(${JSON.stringify(outfile)});
const steps = ${JSON.stringify([stepOf('e-crash', 1), stepOf('e-crash', 2, 'Waiting'), stepOf('e-crash', 2), stepOf('e-crash', 3)])};
const store = openSqliteStore({ path: process.argv[2], executionLog: { foldDelayMs: 600_000 } });
const fixture = ${JSON.stringify(executionFixture({ tenantId: TENANT, id: 'e-crash' }))};
await store.executions.create(fixture);
await store.executions.commitStep(steps[0], { status: 'Running' });
for (const step of steps.slice(1)) await store.executions.commitStep(step, {});
process.stdout.write(JSON.stringify({ mapped: mappedFileAddon() !== null }) + '\\n');
setInterval(() => {}, 1000);
`,
  );
  return script;
}
