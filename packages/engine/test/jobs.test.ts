import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { createEngine, SvcError, type Engine, type JobContext, type JobRecord } from '@svc/engine';
import { openSqliteStore } from '@svc/engine/sqlite';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';

const A = 'tenant-a';
const B = 'tenant-b';

/** A promise and the functions that settle it, for work a test finishes when it wants. */
function deferred<T = void>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

const tempDirs: string[] = [];
function tempDir(base = tmpdir()): string {
  mkdirSync(base, { recursive: true });
  const dir = mkdtempSync(join(base, 'svc-jobs-'));
  tempDirs.push(dir);
  return dir;
}
afterAll(() => {
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
});

describe('jobs', () => {
  let store: ReturnType<typeof openSqliteStore>;
  let engine: Engine;

  beforeEach(async () => {
    store = openSqliteStore({ path: ':memory:' });
    engine = await createEngine({ store, maxConcurrentJobs: 2 });
  });
  afterEach(async () => {
    await engine.stop({ graceMs: 100 });
    await store.close();
  });

  it('answers the record at once and runs the work in the background, with progress, to its result', async () => {
    const release = deferred();
    const reported = deferred();
    const job = await engine.jobs.start(
      A,
      { kind: 'testgen', input: { endpointId: 'getOrder', engine: 'schema' } },
      async (ctx) => {
        expect(ctx).toMatchObject({
          tenantId: A,
          kind: 'testgen',
          input: { endpointId: 'getOrder', engine: 'schema' },
        });
        await ctx.progress('2 of 5 cases');
        reported.resolve();
        await release.promise;
        return { cases: 5, suiteId: 'ste_x' };
      },
    );
    expect(job).toMatchObject({ kind: 'testgen', status: 'Running', result: null, error: null, endedAt: null });
    expect(job.id).toMatch(/^job_[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}$/);

    await reported.promise;
    expect(await engine.jobs.get(A, job.id)).toMatchObject({ status: 'Running', progress: '2 of 5 cases' });
    expect((await engine.jobs.wait(A, job.id, { timeoutMs: 50 })).status).toBe('Running');

    release.resolve();
    const done = await engine.jobs.wait(A, job.id, { timeoutMs: 5_000 });
    expect(done).toMatchObject({
      status: 'Completed',
      result: { cases: 5, suiteId: 'ste_x' },
      error: null,
      progress: '2 of 5 cases',
      owner: null,
      leaseExpiresAt: null,
    });
    expect(done.endedAt).toBeGreaterThanOrEqual(done.startedAt!);
    expect(await store.jobs.get(A, job.id)).toEqual(done);
  });

  it('stores a thrown SvcError with its code, anything else as INTERNAL_ERROR', async () => {
    const coded = await engine.jobs.start(A, { kind: 'testgen' }, async () => {
      throw new SvcError('ENDPOINT_NOT_FOUND', 'endpoint "nope" not found');
    });
    const plain = await engine.jobs.start(A, { kind: 'testgen' }, async () => {
      throw new TypeError('cannot read properties of undefined');
    });
    expect(await engine.jobs.wait(A, coded.id)).toMatchObject({
      status: 'Failed',
      result: null,
      error: { code: 'ENDPOINT_NOT_FOUND', message: 'endpoint "nope" not found' },
    });
    expect(await engine.jobs.wait(A, plain.id)).toMatchObject({
      status: 'Failed',
      error: { code: 'INTERNAL_ERROR', message: 'cannot read properties of undefined' },
    });
  });

  it('refuses a job without a kind or with input that is not JSON, and stores nothing', async () => {
    await expect(engine.jobs.start(A, { kind: ' ' }, async () => null)).rejects.toMatchObject({
      code: 'VALIDATION_ERROR',
    });
    const circular: Record<string, unknown> = {};
    circular.self = circular;
    await expect(engine.jobs.start(A, { kind: 'testgen', input: circular }, async () => null)).rejects.toMatchObject({
      code: 'VALIDATION_ERROR',
    });
    expect((await engine.jobs.list(A)).items).toEqual([]);
  });

  it("keeps tenants apart: another tenant's job id is JOB_NOT_FOUND", async () => {
    const job = await engine.jobs.start(A, { kind: 'testgen' }, async () => ({ ok: true }));
    await engine.jobs.wait(A, job.id);
    await expect(engine.jobs.get(B, job.id)).rejects.toMatchObject({
      code: 'JOB_NOT_FOUND',
      message: `job "${job.id}" not found`,
    });
    await expect(engine.jobs.wait(B, job.id)).rejects.toMatchObject({ code: 'JOB_NOT_FOUND' });
    await expect(engine.jobs.cancel(B, job.id)).rejects.toMatchObject({ code: 'JOB_NOT_FOUND' });
    expect((await engine.jobs.list(B)).items).toEqual([]);
    expect((await engine.jobs.list(A, { kind: 'testgen' })).items.map((item) => item.id)).toEqual([job.id]);
  });

  it('queues jobs past the concurrency limit and starts them in order as others end', async () => {
    const gates = [deferred(), deferred(), deferred()];
    const order: number[] = [];
    const jobs: JobRecord[] = [];
    for (const [index, gate] of gates.entries()) {
      jobs.push(
        await engine.jobs.start(A, { kind: 'testgen', input: { index } }, async () => {
          order.push(index);
          await gate.promise;
          return index;
        }),
      );
    }
    expect(jobs.map((job) => job.status)).toEqual(['Running', 'Running', 'Queued']);
    expect(jobs[2]!.startedAt).toBeNull();
    gates[0]!.resolve();
    await engine.jobs.wait(A, jobs[0]!.id);
    await waitUntil(async () => (await engine.jobs.get(A, jobs[2]!.id)).status === 'Running');
    expect(order).toEqual([0, 1, 2]);
    gates[1]!.resolve();
    gates[2]!.resolve();
    await engine.drain();
    const listed = (await engine.jobs.list(A)).items.map((job) => [job.input, job.status, job.result]);
    expect(listed.sort((x, y) => (x[2] as number) - (y[2] as number))).toEqual([
      [{ index: 0 }, 'Completed', 0],
      [{ index: 1 }, 'Completed', 1],
      [{ index: 2 }, 'Completed', 2],
    ]);
  });

  it('cancels a running job: its signal aborts and a late answer does not change its end', async () => {
    const seen = deferred<JobContext>();
    const job = await engine.jobs.start(A, { kind: 'testgen' }, async (ctx) => {
      seen.resolve(ctx);
      await new Promise((resolve) => ctx.signal.addEventListener('abort', resolve));
      return { late: true };
    });
    const ctx = await seen.promise;
    const cancelled = await engine.jobs.cancel(A, job.id);
    expect(cancelled).toMatchObject({ status: 'Failed', error: { code: 'JOB_CANCELLED' } });
    expect(ctx.signal.aborted).toBe(true);
    await engine.drain();
    expect(await engine.jobs.get(A, job.id)).toMatchObject({
      status: 'Failed',
      result: null,
      error: { code: 'JOB_CANCELLED' },
    });
  });

  it('marks a job whose process is gone (lease expired, on another machine) interrupted, and leaves live ones alone', async () => {
    const now = Date.now();
    const orphan = {
      tenantId: A,
      kind: 'testgen',
      input: { endpointId: 'e1' },
      progress: '1 of 3',
      result: null,
      error: null,
      createdAt: now - 60_000,
      startedAt: now - 60_000,
      endedAt: null,
      updatedAt: now - 40_000,
    };
    await store.jobs.create({
      ...orphan,
      id: 'job_orphan',
      status: 'Running',
      owner: 'other-host/4242/abcd',
      leaseExpiresAt: now - 10_000,
    });
    await store.jobs.create({
      ...orphan,
      id: 'job_alive',
      status: 'Running',
      owner: 'other-host/4343/abcd',
      leaseExpiresAt: now + 60_000,
    });
    await store.jobs.create({
      ...orphan,
      id: 'job_other_orphan',
      status: 'Queued',
      owner: 'other-host/4242/abcd',
      leaseExpiresAt: now - 10_000,
    });

    // Reading it is enough to see the truth.
    expect(await engine.jobs.get(A, 'job_orphan')).toMatchObject({
      status: 'Failed',
      progress: '1 of 3',
      error: { code: 'JOB_INTERRUPTED' },
    });
    const swept = await engine.jobs.recover();
    expect(swept.map((job) => job.id)).toEqual(['job_other_orphan']);
    expect(await engine.jobs.get(A, 'job_alive')).toMatchObject({ status: 'Running', owner: 'other-host/4343/abcd' });
  });

  it('does not take its own running jobs for orphans, whatever their stored lease says', async () => {
    const release = deferred();
    const job = await engine.jobs.start(A, { kind: 'testgen' }, async () => {
      await release.promise;
      return 'ok';
    });
    await store.jobs.renewLeases(job.owner!, 1);
    expect(await engine.jobs.recover()).toEqual([]);
    expect((await engine.jobs.get(A, job.id)).status).toBe('Running');
    release.resolve();
    expect((await engine.jobs.wait(A, job.id)).status).toBe('Completed');
  });

  it('on stop, aborts jobs still running after the grace period and marks them interrupted; takes no new ones', async () => {
    const aborted = deferred();
    const job = await engine.jobs.start(A, { kind: 'testgen' }, async (ctx) => {
      ctx.signal.addEventListener('abort', () => aborted.resolve());
      await new Promise(() => {});
    });
    const started = Date.now();
    await engine.stop({ graceMs: 50 });
    expect(Date.now() - started).toBeLessThan(3_000);
    await aborted.promise;
    expect(await store.jobs.get(A, job.id)).toMatchObject({
      status: 'Failed',
      error: { code: 'JOB_INTERRUPTED', message: expect.stringContaining('start the job again') },
    });
    await expect(engine.jobs.start(A, { kind: 'testgen' }, async () => null)).rejects.toMatchObject({
      code: 'SHUTTING_DOWN',
    });
  });
});

describe('jobs across processes on a file', () => {
  let child: ChildProcess | undefined;
  afterEach(() => {
    if (child && child.exitCode === null) child.kill('SIGKILL');
  });

  it('marks a job JOB_INTERRUPTED when the process running it is killed, once a fresh engine opens the file', async () => {
    const path = join(tempDir(), 'svc.db');
    const bundle = await bundleEngine();
    const script = join(tempDir(), 'run-job.mjs');
    writeFileSync(
      script,
      `
const { createEngine, openSqliteStore } = await import(${JSON.stringify(bundle)});
const store = openSqliteStore({ path: process.argv[2] });
const engine = await createEngine({ store, leaseMs: 60_000 });
const job = await engine.jobs.start('tenant-a', { kind: 'testgen', input: { endpointId: 'getOrder' } }, async (ctx) => {
  await ctx.progress('halfway');
  process.stdout.write(JSON.stringify({ id: ctx.jobId }) + '\\n');
  await new Promise(() => {});
});
setInterval(() => {}, 1000);
`,
    );
    child = spawn(process.execPath, [script, path], { stdio: ['ignore', 'pipe', 'inherit'] });
    const line = await new Promise<string>((resolve, reject) => {
      createInterface({ input: child!.stdout! }).once('line', resolve);
      child!.once('exit', (code) => reject(new Error(`the job process exited with ${code}`)));
    });
    const { id } = JSON.parse(line) as { id: string };
    const exited = new Promise((resolve) => child!.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;

    const store = openSqliteStore({ path });
    try {
      // What the dead process left: a running job under a lease that has a minute to go.
      const left = await store.jobs.get('tenant-a', id);
      expect(left).toMatchObject({ status: 'Running', progress: 'halfway' });
      expect(left!.leaseExpiresAt).toBeGreaterThan(Date.now());

      const engine = await createEngine({ store });
      try {
        // Its owner was a process of this host that no longer exists: no need to wait for the lease.
        const recovered = await engine.jobs.recover();
        expect(recovered.map((job) => job.id)).toEqual([id]);
        const job = await engine.jobs.get('tenant-a', id);
        expect(job).toMatchObject({
          status: 'Failed',
          kind: 'testgen',
          input: { endpointId: 'getOrder' },
          progress: 'halfway',
          result: null,
          error: { code: 'JOB_INTERRUPTED', message: expect.stringContaining('start the job again') },
          owner: null,
        });
        await expect(engine.jobs.get('tenant-b', id)).rejects.toMatchObject({ code: 'JOB_NOT_FOUND' });
      } finally {
        await engine.stop();
      }
    } finally {
      await store.close();
    }
  });
});

/** Polls `check` until it holds (or fails the test after 5 s). */
async function waitUntil(check: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 5_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met within 5 s');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/*
 * A child process cannot load TypeScript, so the engine and its SQLite store are bundled to one
 * ES module; packages stay outside and resolve from the engine's own node_modules, which is why
 * the bundle is written under the package (in its ignored `.svc` directory).
 */
async function bundleEngine(): Promise<string> {
  const { build } = await import('esbuild');
  const packageDir = fileURLToPath(new URL('..', import.meta.url));
  const dir = tempDir(join(packageDir, '.svc'));
  const entry = join(dir, 'entry.ts');
  writeFileSync(
    entry,
    `export * from ${JSON.stringify(join(packageDir, 'src/index.ts'))};\nexport { openSqliteStore } from ${JSON.stringify(join(packageDir, 'src/store/sqlite/index.ts'))};\n`,
  );
  const outfile = join(dir, 'engine.mjs');
  await build({
    entryPoints: [entry],
    bundle: true,
    platform: 'node',
    format: 'esm',
    packages: 'external',
    outfile,
    logLevel: 'silent',
  });
  return outfile;
}
