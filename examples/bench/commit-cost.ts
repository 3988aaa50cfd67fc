/**
 * What the store's commit of one step costs, alone: `store.executions.commitStep` awaited one
 * step at a time (each its own transaction, as in a sequential chain), on a SQLite file and in
 * memory, with the CPU caches as a chain leaves them or not.
 *
 *   node examples/dist/bench/commit-cost.js
 *
 * Between two commits a running chain does other work (undici, the runtime, V8) that pushes the
 * store's code and pages out of the CPU caches; `touched` writes to that many MiB of other memory
 * before each commit to stand for it, where `warm` commits back to back; `after 2 ms idle` sleeps in
 * the event loop first, as the chain does while a request is out. `COMMIT_STEPS` (5000 per row,
 * after as many untimed) changes the count.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { newExecutionRecord, type StepRecord, type Store } from '@svc/engine';
import { openSqliteStore } from '@svc/engine/sqlite';
import { median } from './measure.js';

const STEPS = Number(process.env.COMMIT_STEPS ?? 5_000);
/** Steps per execution, as in the chain. */
const STEPS_PER_RUN = 10;
/** Executions created so far, which names the next. */
let runs = 0;

/** A step as the chain's GET /orders/{id} records it: about 850 bytes of JSON in three columns. */
function chainStep(executionId: string, seq: number): StepRecord {
  const order = `ord_${executionId.slice(-6)}${seq}`;
  return {
    id: `${executionId}:${seq}`,
    executionId,
    tenantId: 'bench',
    seq,
    nodeId: `get${seq}`,
    nodeName: `ReadOrder${seq}`,
    nodeType: 'endpoint',
    scope: '',
    attempt: 1,
    status: 'Completed',
    startedAt: Date.now(),
    endedAt: Date.now(),
    latencyMs: 2.3,
    request: { method: 'GET', url: `http://127.0.0.1:4010/orders/${order}`, headers: { 'user-agent': 'svc/0.1' } },
    response: {
      sameAsOutput: true,
      status: 200,
      size: 144,
      assertions: [{ target: 'statusCode', operator: '==', expected: 200, actual: 200, passed: true }],
    },
    output: {
      statusCode: 200,
      headers: {
        'content-type': 'application/json; charset=utf-8',
        'content-length': '144',
        date: new Date().toUTCString(),
        connection: 'keep-alive',
        'keep-alive': 'timeout=30',
      },
      body: { id: order, status: 'created', total: 10, customerId: null, parentOrderId: null, items: [] },
    },
    handles: ['out'],
    error: null,
    skipKind: null,
    branch: null,
    wakeAt: null,
    state: null,
  };
}

/** Writes a byte in every cache line of `bytes` of memory, so that what the store last touched is evicted. */
function evictor(bytes: number): () => void {
  const memory = new Uint8Array(bytes);
  return () => {
    for (let offset = 0; offset < memory.length; offset += 64) memory[offset] = (memory[offset]! + 1) & 0xff;
  };
}

/** Microseconds per commit (median and mean) over `count` steps, each awaited before the next. */
async function commitSteps(
  store: Store,
  count: number,
  beforeEach: () => void | Promise<void>,
): Promise<{ median: number; mean: number }> {
  const times: number[] = [];
  let executionId = '';
  for (let index = 0; index < count; index += 1) {
    const seq = (index % STEPS_PER_RUN) + 1;
    if (seq === 1) {
      runs += 1;
      executionId = `run-${runs}`;
      const now = Date.now();
      await store.executions.create(
        newExecutionRecord({
          id: executionId,
          tenantId: 'bench',
          flowId: 'bench-chain',
          flowVersion: 1,
          flowName: 'bench-chain',
          createdAt: now,
          status: 'Running',
          startedAt: now,
        }),
      );
    }
    const step = chainStep(executionId, seq);
    await beforeEach();
    const started = performance.now();
    await store.executions.commitStep(step, {});
    times.push((performance.now() - started) * 1000);
  }
  return { median: median(times), mean: times.reduce((sum, each) => sum + each, 0) / times.length };
}

const dir = mkdtempSync(join(tmpdir(), 'svc-commit-cost-'));
const stores = [
  { label: 'SQLite file (as shipped)', store: openSqliteStore({ path: join(dir, 'bench.db') }) },
  { label: 'SQLite in memory', store: openSqliteStore({ path: ':memory:' }) },
];
const conditions = [
  { label: 'warm', beforeEach: () => {} },
  { label: 'touched 2 MiB', beforeEach: evictor(2 * 1024 * 1024) },
  { label: 'touched 8 MiB', beforeEach: evictor(8 * 1024 * 1024) },
  // What a sequential chain against a server with 2 ms of latency does between two commits: the
  // process sleeps in the event loop, and the core may run other work meanwhile.
  { label: 'after 2 ms idle', beforeEach: () => new Promise<void>((resolve) => setTimeout(resolve, 2)) },
];
try {
  process.stdout.write(
    `One step committed per transaction (store.executions.commitStep), ${STEPS} steps a row, ` +
      `load average ${loadavg()[0]!.toFixed(1)} at the start\n` +
      `${''.padEnd(28)}${conditions.map((each) => `${each.label}: median, mean`.padStart(30)).join('')}\n`,
  );
  for (const { label, store } of stores) {
    await commitSteps(store, STEPS, () => {});
    const cells: string[] = [];
    for (const condition of conditions) {
      const { median: middle, mean } = await commitSteps(store, STEPS, condition.beforeEach);
      cells.push(`${middle.toFixed(1)} µs, ${mean.toFixed(1)} µs`.padStart(30));
    }
    process.stdout.write(`${label.padEnd(28)}${cells.join('')}\n`);
  }
} finally {
  for (const { store } of stores) await store.close();
  rmSync(dir, { recursive: true, force: true });
}
