import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { executionFixture, stepFixture } from '../contract.js';
import type { Store } from '../types.js';
import { ExecutionLog } from './execution-log.js';
import { encodeRecord } from './execution-log-records.js';
import { bindWrite, type ExecutionWrite } from './execution-writes.js';
import { FoldThread } from './fold-thread.js';
import type { FoldOutcome, FoldRequest, LogFolder } from './log-folder.js';
import { openSqliteStore } from './open-sqlite-store.js';
import { BACKGROUND_NICENESS } from './thread-priority.js';

const TENANT = 'acme';
const dirs: string[] = [];
const stores: Store[] = [];
afterEach(async () => {
  for (const store of stores.splice(0)) await store.close();
});
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** A database with one execution, opened without a log so that it reads the tables as they are. */
async function databaseWithExecution(): Promise<{ path: string; store: Store; dir: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'svc-fold-thread-'));
  dirs.push(dir);
  const path = join(dir, 'svc.db');
  const store = openSqliteStore({ path, executionLog: false });
  stores.push(store);
  await store.executions.create(executionFixture({ tenantId: TENANT, id: 'e1' }));
  return { path, store, dir };
}

/** A folder that must not be used: the fold thread does the work. */
const unused: LogFolder = {
  fold: () => expect.fail('folded on the event loop'),
  foldNow: () => expect.fail('folded on the event loop'),
  release: () => {},
};

function append(log: ExecutionLog, write: ExecutionWrite): FoldRequest {
  expect(log.append(encodeRecord(bindWrite(write), log.epoch))).toBe(true);
  return { log: { id: log.id, path: log.path }, until: { epoch: log.epoch, offset: log.offset } };
}

const step = (seq: number, executionId = 'e1'): ExecutionWrite => ({
  kind: 'step',
  step: stepFixture({ id: `${executionId}:${seq}`, tenantId: TENANT, executionId, seq }),
  patch: {},
  updatedAt: 10 + seq,
});

describe('the fold thread', () => {
  it('folds a log into the tables with its own connection, in the background and on demand, never a record twice', async () => {
    const { path, store, dir } = await databaseWithExecution();
    const thread = FoldThread.get();
    expect(thread).not.toBeNull();
    const folder = thread!.folderFor(path, unused);
    const log = ExecutionLog.create(join(dir, 'logs'), { sizeBytes: 64 * 1024, addon: null });
    try {
      append(log, step(1));
      const request = append(log, step(2));
      const outcome = await new Promise<FoldOutcome>((resolve) => folder.fold(request, resolve));
      expect(outcome).toEqual({ ok: true, result: { applied: 2, refused: [] } });
      expect((await store.executions.listSteps(TENANT, 'e1')).map((each) => each.seq)).toEqual([1, 2]);

      const done: FoldOutcome[] = [];
      const now = folder.foldNow(append(log, step(3)), (each) => done.push(each));
      // Answered before foldNow returned, through the shared counter, and reported once.
      expect(now).toEqual({ ok: true, result: { applied: 1, refused: [] } });
      expect(done).toEqual([now]);
      expect((await store.executions.listSteps(TENANT, 'e1')).map((each) => each.seq)).toEqual([1, 2, 3]);

      // The tables record how far the log is folded: asking again applies nothing.
      expect(folder.foldNow(request, () => {})).toEqual({ ok: true, result: { applied: 0, refused: [] } });
    } finally {
      folder.release();
      log.remove();
    }
  });

  it('answers a write the tables refuse with its contract error, and applies the others', async () => {
    const { path, store, dir } = await databaseWithExecution();
    const folder = FoldThread.get()!.folderFor(path, unused);
    const log = ExecutionLog.create(join(dir, 'logs'), { sizeBytes: 64 * 1024, addon: null });
    try {
      append(log, step(1, 'missing'));
      const outcome = folder.foldNow(append(log, step(1)), () => {});
      expect(outcome.ok).toBe(true);
      if (!outcome.ok) return;
      expect(outcome.result.applied).toBe(1);
      expect(outcome.result.refused.map(({ write, error }) => [write.kind, error.code])).toEqual([['step', 'EXECUTION_NOT_FOUND']]);
      expect(await store.executions.listSteps(TENANT, 'e1')).toHaveLength(1);
    } finally {
      folder.release();
      log.remove();
    }
  });

  it('leaves a database it cannot open to the event loop', async () => {
    const { dir } = await databaseWithExecution();
    const calls: string[] = [];
    const fallback: LogFolder = {
      fold: () => calls.push('fold'),
      foldNow: () => {
        calls.push('foldNow');
        return { ok: true, result: { applied: 0, refused: [] } };
      },
      release: () => calls.push('release'),
    };
    const folder = FoldThread.get()!.folderFor(join(dir, 'no-such-dir', 'svc.db'), fallback);
    const log = ExecutionLog.create(join(dir, 'logs'), { sizeBytes: 64 * 1024, addon: null });
    try {
      const request = append(log, step(1));
      // The thread could not open the file: this fold fails, and says why.
      const first = folder.foldNow(request, () => {});
      expect(first.ok).toBe(false);
      expect(calls).toEqual([]);
      folder.foldNow(request, () => {});
      expect(calls).toEqual(['foldNow']);
    } finally {
      folder.release();
      log.remove();
    }
  });

  it('folds and checkpoints at a lower priority than the event loop', async (context) => {
    if (process.platform !== 'linux') {
      console.log('skipped: thread priorities are set on Linux only');
      context.skip();
    }
    const { path } = await databaseWithExecution();
    const store = openSqliteStore({ path });
    stores.push(store);
    await store.executions.commitStep(stepFixture({ id: 'e1:1', tenantId: TENANT, executionId: 'e1', seq: 1 }), {});
    // A read waits for the fold thread, which has started and attached by then.
    expect(await store.executions.listSteps(TENANT, 'e1')).toHaveLength(1);
    const nicenessOf = (task: string): number => Number(readFileSync(`/proc/self/task/${task}/stat`, 'utf8').split(') ')[1]!.split(' ')[16]);
    const lowered = () => readdirSync('/proc/self/task').filter((task) => nicenessOf(task) === BACKGROUND_NICENESS).length;
    // The fold thread and the checkpointer, which starts on its own time.
    await vi.waitFor(() => expect(lowered()).toBeGreaterThanOrEqual(2), { timeout: 5_000 });
    expect(nicenessOf(String(process.pid))).toBe(0);
  });
});
