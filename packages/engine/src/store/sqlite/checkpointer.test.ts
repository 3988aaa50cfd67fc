import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startCheckpointer } from './checkpointer.js';
import Database from 'better-sqlite3';

describe('the checkpointer thread', () => {
  it('copies committed pages from the log into the database file while the writer goes on', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'svc-checkpoint-')), 'db.sqlite');
    const db = new Database(path);
    db.pragma('journal_mode = WAL');
    // The writer never checkpoints by itself here: only the thread can move pages.
    db.pragma('wal_autocheckpoint = 0');
    db.exec('CREATE TABLE t (x TEXT)');
    const before = statSync(path).size;
    const insert = db.prepare('INSERT INTO t VALUES (?)');
    for (let i = 0; i < 500; i += 1) insert.run('x'.repeat(2000));

    const checkpointer = startCheckpointer(path, { intervalMs: 20, startAfterMs: 20, startAtLogBytes: 0 });
    const deadline = Date.now() + 5_000;
    while (statSync(path).size <= before + 500 * 2000 && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 20));
    await checkpointer.stop();

    expect(statSync(path).size).toBeGreaterThan(before + 500 * 2000);
    expect(db.prepare('SELECT count(*) AS n FROM t').get()).toEqual({ n: 500 });
    db.close();
  });

  it('stops its running thread when asked', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'svc-checkpoint-')), 'db.sqlite');
    const db = new Database(path);
    db.pragma('journal_mode = WAL');
    const checkpointer = startCheckpointer(path, { intervalMs: 10, startAfterMs: 10, startAtLogBytes: 0 });
    // Past its start, so that the thread is running.
    await new Promise((resolve) => setTimeout(resolve, 200));
    await checkpointer.stop();
    await checkpointer.stop();
    db.close();
  });

  it('starts its thread only once the log holds startAtLogBytes', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'svc-checkpoint-')), 'db.sqlite');
    const db = new Database(path);
    db.pragma('journal_mode = WAL');
    db.pragma('wal_autocheckpoint = 0');
    db.exec('CREATE TABLE t (x TEXT)');
    const threads = () => Number(/^Threads:\s+(\d+)/m.exec(readFileSync('/proc/self/status', 'utf8'))?.[1]);
    const before = threads();
    const checkpointer = startCheckpointer(path, { intervalMs: 20, startAfterMs: 20, startAtLogBytes: 512 * 1024 });
    const base = statSync(path).size;
    await new Promise((resolve) => setTimeout(resolve, 200));
    // A small log: no thread, nothing copied.
    expect(threads()).toBe(before);
    expect(statSync(path).size).toBe(base);

    const insert = db.prepare('INSERT INTO t VALUES (?)');
    for (let i = 0; i < 500; i += 1) insert.run('x'.repeat(2000));
    const deadline = Date.now() + 5_000;
    while (statSync(path).size <= base + 500 * 2000 && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 20));
    expect(statSync(path).size).toBeGreaterThan(base + 500 * 2000);
    await checkpointer.stop();
    db.close();
  });

  it('stops when asked before its thread started, and stopping twice is harmless', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'svc-checkpoint-')), 'db.sqlite');
    const db = new Database(path);
    db.pragma('journal_mode = WAL');
    const checkpointer = startCheckpointer(path);
    await checkpointer.stop();
    await checkpointer.stop();
    db.close();
  });
});
