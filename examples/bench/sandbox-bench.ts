import { createInThreadQuickJsSandbox, createQuickJsSandbox, type QuickJsSandbox } from '@svc/engine';

/**
 * What a normal Switch expression costs through the sandbox's worker threads (post the code and
 * the globals, evaluate in a fresh QuickJS runtime, answer back) against the same evaluation on
 * the calling thread: the median of `evaluations` sequential evaluations each, after a warm-up.
 */
const EXPRESSION =
  "ResponseBinding.CreateOrder.body.total > 100 && flowVars.region === 'eu' && CreateOrder.statusCode === 201";
const GLOBALS = {
  ResponseBinding: {
    CreateOrder: { statusCode: 201, body: { id: 'ord_1', total: 150, lines: [{ sku: 'A', quantity: 2 }] } },
  },
  flowVars: { region: 'eu' },
  env: { baseUrl: 'http://127.0.0.1:4010', apiToken: '***' },
  CreateOrder: { statusCode: 201, body: { id: 'ord_1', total: 150 } },
};

export interface SandboxBenchResult {
  evaluations: number;
  /** Median round trip through the worker pool, in milliseconds. */
  poolMedianMs: number;
  poolP99Ms: number;
  /** Median evaluation on the calling thread, in milliseconds. */
  inThreadMedianMs: number;
}

export async function benchSandbox(evaluations = 10_000): Promise<SandboxBenchResult> {
  const pool = await createQuickJsSandbox();
  const inThread = await createInThreadQuickJsSandbox();
  try {
    await timings(pool, 500);
    await timings(inThread, 500);
    const poolTimes = await timings(pool, evaluations);
    const inThreadTimes = await timings(inThread, evaluations);
    return {
      evaluations,
      poolMedianMs: quantile(poolTimes, 0.5),
      poolP99Ms: quantile(poolTimes, 0.99),
      inThreadMedianMs: quantile(inThreadTimes, 0.5),
    };
  } finally {
    await pool.dispose();
    await inThread.dispose();
  }
}

export function formatSandboxBench(result: SandboxBenchResult): string {
  const us = (ms: number) => `${(ms * 1000).toFixed(0)} µs`;
  return (
    `\nSandbox (one Switch expression, median of ${result.evaluations} evaluations each):\n` +
    `  worker pool round trip        ${us(result.poolMedianMs)} (p99 ${us(result.poolP99Ms)}; target < 1 ms: ${result.poolMedianMs < 1 ? 'met' : 'MISSED'})\n` +
    `  in-thread evaluation          ${us(result.inThreadMedianMs)} (the pool round trip costs ${(result.poolMedianMs / result.inThreadMedianMs).toFixed(2)}× as much)\n`
  );
}

async function timings(sandbox: QuickJsSandbox, count: number): Promise<number[]> {
  const times: number[] = [];
  for (let index = 0; index < count; index += 1) {
    const started = performance.now();
    if (!(await sandbox.evaluateBoolean(EXPRESSION, GLOBALS))) throw new Error('the benchmark expression must hold');
    times.push(performance.now() - started);
  }
  return times;
}

function quantile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))]!;
}
