import { createHmac, randomBytes } from 'node:crypto';
import { loadavg } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { Agent, request } from 'undici';
import { processCpuMs, processMemoryMiB, startServeProcess, type ServeProcess } from './serve-process.js';

export interface WebhookTriggerBenchOptions {
  demoUrl: string;
  /** Length of the measured window. */
  seconds: number;
  /** Senders, each posting its next trigger when the last one was answered. */
  senders: number;
  /** Length of the unmeasured warm-up before the window (its executions are counted as stored too). */
  warmupSeconds: number;
  /** How long to wait for the backlog after the window before calling what is missing lost. */
  drainTimeoutSeconds: number;
}

export interface WebhookTriggerBenchResult {
  seconds: number;
  senders: number;
  /** Executions created in the window that ended in it, per second of the window. */
  executionsPerSecond: number;
  /** 202 answers received in the window, per second. */
  acceptedPerSecond: number;
  answerP50Ms: number;
  answerP99Ms: number;
  /** CPU time (user + system, all threads) of `svc serve` in the window, per execution completed in it. */
  serveCpuMicrosPerExecution: number | undefined;
  /** The same for the sending process (HMAC signing, HTTP client). */
  senderCpuMicrosPerExecution: number;
  /** createdAt → endedAt of the executions created in the window. */
  executionP50Ms: number;
  executionP99Ms: number;
  /** Answers other than 202, by status. */
  refused: Record<string, number>;
  /** Every 202 (warm-up included), and how many of their executions the store lists. */
  accepted: number;
  stored: number;
  lost: number;
  /** Stored executions by status once the backlog finished (or the drain timed out). */
  statuses: Record<string, number>;
  /** Executions accepted in the window that had not ended when it closed. */
  backlogAtEnd: number;
  /** From the end of the window to the last execution's end. */
  drainSeconds: number;
  idleRssMiB: number | undefined;
  peakRssMiB: number | undefined;
  loadAverageAtStart: number;
  loadAverageAtEnd: number;
}

interface StoredExecution {
  executionId: string;
  status: string;
  createdAt: string;
  endedAt: string | null;
}

const TERMINAL = new Set(['Completed', 'Failed', 'TimedOut', 'Cancelled']);

/**
 * Executions started by `POST /webhooks/trigger/{path}` against `svc serve` on the embedded store:
 * a trigger node verifying `HMAC-SHA256` with a secret from a stored environment, then one call to
 * the demo server's /health with a status assertion. `senders` clients post for `seconds`; then
 * the backlog is waited for and every execution a 202 named is looked for in the store.
 */
export async function benchWebhookTrigger(options: WebhookTriggerBenchOptions): Promise<WebhookTriggerBenchResult> {
  const loadAverageAtStart = loadavg()[0]!;
  const serve = await startServeProcess();
  const agent = new Agent({ keepAliveTimeout: 10_000, connections: options.senders + 2 });
  try {
    // Idle: started, listening, nothing asked of it yet, and settled (what a store starts a while
    // after it opens has started by then).
    await sleep(3_000);
    const idleRssMiB = processMemoryMiB(serve.pid, 'VmRSS');
    const secret = randomBytes(32).toString('base64url');
    const api = restClient(serve, agent);
    await api('POST', '/api/gateway/environments', {
      name: 'bench-hooks',
      variables: { baseUrl: options.demoUrl, webhookSecret: secret },
      secretKeys: ['webhookSecret'],
    });
    const flow = (await api('POST', '/api/gateway/flows', {
      name: 'bench-trigger',
      nodes: [
        {
          id: 'hook',
          name: 'Hook',
          type: 'component-webhook',
          config: {
            mode: 'trigger',
            path: 'auto',
            environment: 'bench-hooks',
            verification: { method: 'HMAC-SHA256', header: 'X-Signature', secret: '{{env.webhookSecret}}' },
          },
        },
        {
          id: 'health',
          name: 'Health',
          type: 'endpoint',
          config: {
            url: '{{env.baseUrl}}/health',
            assertions: [{ target: 'statusCode', operator: '==', value: 200 }],
          },
        },
      ],
      connections: [{ id: 'w1', source: 'hook', target: 'health' }],
    })) as { webhookTriggers: { url: string }[] };
    const triggerUrl = flow.webhookTriggers[0]!.url;

    const acceptedIds = new Set<string>();
    const refused: Record<string, number> = {};
    const answerTimes: number[] = [];
    let acceptedInWindow = 0;
    let sequence = 0;
    let windowStart = Number.POSITIVE_INFINITY;
    const send = async (): Promise<void> => {
      const body = JSON.stringify({ event: 'bench', sequence: (sequence += 1) });
      const signature = createHmac('sha256', secret).update(body).digest('hex');
      const sentAt = Date.now();
      const started = performance.now();
      const response = await request(triggerUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-signature': `sha256=${signature}` },
        body,
        dispatcher: agent,
      });
      const text = await response.body.text();
      const elapsed = performance.now() - started;
      if (response.statusCode !== 202) {
        refused[response.statusCode] = (refused[response.statusCode] ?? 0) + 1;
        return;
      }
      acceptedIds.add((JSON.parse(text) as { data: { executionId: string } }).data.executionId);
      if (sentAt >= windowStart) {
        acceptedInWindow += 1;
        answerTimes.push(elapsed);
      }
    };
    const sendFor = async (until: number) => {
      await Promise.all(
        Array.from({ length: options.senders }, async () => {
          while (Date.now() < until) await send();
        }),
      );
    };

    await sendFor(Date.now() + options.warmupSeconds * 1000);
    windowStart = Date.now();
    const serveCpuAtStart = processCpuMs(serve.pid);
    const senderCpuAtStart = process.cpuUsage();
    const windowEnd = windowStart + options.seconds * 1000;
    let peakSampledMiB = 0;
    const sampler = setInterval(() => {
      peakSampledMiB = Math.max(peakSampledMiB, processMemoryMiB(serve.pid, 'VmRSS') ?? 0);
    }, 100);
    try {
      await sendFor(windowEnd);
    } finally {
      clearInterval(sampler);
    }
    const windowClosed = Date.now();
    const serveCpuAtEnd = processCpuMs(serve.pid);
    const senderCpu = process.cpuUsage(senderCpuAtStart);

    // The backlog: page through every execution until none is left to run (or the wait times out).
    let executions: StoredExecution[] = [];
    const drainDeadline = Date.now() + options.drainTimeoutSeconds * 1000;
    for (;;) {
      executions = await listExecutions(api, flowIdOf(flow));
      const running = executions.filter((execution) => !TERMINAL.has(execution.status)).length;
      if (running === 0 || Date.now() > drainDeadline) break;
      await sleep(250);
    }
    const peakRssMiB = processMemoryMiB(serve.pid, 'VmHWM') ?? (peakSampledMiB || undefined);

    const storedIds = new Set(executions.map((execution) => execution.executionId));
    let lost = 0;
    for (const id of acceptedIds) if (!storedIds.has(id)) lost += 1;
    const statuses: Record<string, number> = {};
    for (const execution of executions) statuses[execution.status] = (statuses[execution.status] ?? 0) + 1;

    const inWindow = executions
      .map((execution) => ({
        created: Date.parse(execution.createdAt),
        ended: execution.endedAt === null ? Number.NaN : Date.parse(execution.endedAt),
        status: execution.status,
      }))
      .filter((execution) => execution.created >= windowStart && execution.created < windowEnd);
    const endedInWindow = inWindow.filter((execution) => execution.ended <= windowEnd);
    const executionTimes = inWindow
      .filter((execution) => Number.isFinite(execution.ended))
      .map((execution) => execution.ended - execution.created);
    const completedInWindow = endedInWindow.filter((execution) => execution.status === 'Completed').length;
    // A loop, not Math.max(...): a long run on a fast machine lists more executions than a call takes arguments.
    let lastEnd = 0;
    for (const execution of executions) lastEnd = Math.max(lastEnd, Date.parse(execution.endedAt ?? '') || 0);
    return {
      seconds: (windowEnd - windowStart) / 1000,
      senders: options.senders,
      executionsPerSecond: completedInWindow / options.seconds,
      serveCpuMicrosPerExecution:
        serveCpuAtStart === undefined || serveCpuAtEnd === undefined
          ? undefined
          : ((serveCpuAtEnd - serveCpuAtStart) * 1000) / completedInWindow,
      senderCpuMicrosPerExecution: (senderCpu.user + senderCpu.system) / completedInWindow,
      acceptedPerSecond: acceptedInWindow / options.seconds,
      answerP50Ms: quantile(answerTimes, 0.5),
      answerP99Ms: quantile(answerTimes, 0.99),
      executionP50Ms: quantile(executionTimes, 0.5),
      executionP99Ms: quantile(executionTimes, 0.99),
      refused,
      accepted: acceptedIds.size,
      stored: executions.length,
      lost,
      statuses,
      backlogAtEnd: inWindow.length - endedInWindow.length,
      drainSeconds: Math.max(0, lastEnd - windowClosed) / 1000,
      idleRssMiB,
      peakRssMiB,
      loadAverageAtStart,
      loadAverageAtEnd: loadavg()[0]!,
    };
  } finally {
    await agent.close();
    await serve.stop();
  }
}

type RestCall = (method: string, path: string, body?: unknown) => Promise<unknown>;

function restClient(serve: ServeProcess, agent: Agent): RestCall {
  return async (method, path, body) => {
    const response = await request(`${serve.url}${path}`, {
      method: method as 'GET' | 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': serve.apiKey },
      dispatcher: agent,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const answer = (await response.body.json()) as { success: boolean; data?: unknown; error?: unknown };
    if (!answer.success)
      throw new Error(`${method} ${path} answered ${response.statusCode}: ${JSON.stringify(answer.error)}`);
    return answer.data;
  };
}

function flowIdOf(flow: unknown): string {
  return (flow as { id: string }).id;
}

/** Every execution of the flow, through the REST list, 200 a page. */
async function listExecutions(api: RestCall, flowId: string): Promise<StoredExecution[]> {
  const all: StoredExecution[] = [];
  let cursor: string | null = null;
  do {
    const query: string = cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`;
    const page = (await api('GET', `/api/gateway/flows/${flowId}/executions?limit=200${query}`)) as {
      items: StoredExecution[];
      nextCursor: string | null;
    };
    all.push(...page.items);
    cursor = page.nextCursor;
  } while (cursor !== null);
  return all;
}

function quantile(values: number[], q: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))]!;
}

/** Megabytes (10⁶ bytes), the unit of the target. */
function megabytes(mib: number | undefined): string {
  return mib === undefined ? 'n/a (no /proc)' : `${((mib * 1024 * 1024) / 1e6).toFixed(1)} MB`;
}

export const TRIGGER_TARGETS = { executionsPerSecond: 1_000, peakRssMegabytes: 200 };

export function formatWebhookTriggerBench(result: WebhookTriggerBenchResult): string {
  const met = (ok: boolean) => (ok ? 'met' : 'MISSED');
  const ms = (value: number) => `${value.toFixed(1)} ms`;
  const peakMegabytes = result.peakRssMiB === undefined ? undefined : (result.peakRssMiB * 1024 * 1024) / 1e6;
  const refused = Object.entries(result.refused)
    .map(([status, count]) => `${count} × ${status}`)
    .join(', ');
  const statuses = Object.entries(result.statuses)
    .map(([status, count]) => `${count} ${status}`)
    .join(', ');
  return (
    `  load average                  ${result.loadAverageAtStart.toFixed(1)} at the start, ${result.loadAverageAtEnd.toFixed(1)} at the end\n` +
    `  executions/s                  ${result.executionsPerSecond.toFixed(0)} completed (target ≥ ${TRIGGER_TARGETS.executionsPerSecond.toLocaleString('en')}: ${met(result.executionsPerSecond >= TRIGGER_TARGETS.executionsPerSecond)})\n` +
    `  CPU per execution             svc serve ${result.serveCpuMicrosPerExecution === undefined ? 'n/a (no /proc)' : `${result.serveCpuMicrosPerExecution.toFixed(0)} µs`}, the senders ${result.senderCpuMicrosPerExecution.toFixed(0)} µs (user + system)\n` +
    `  triggers accepted/s           ${result.acceptedPerSecond.toFixed(0)}${refused === '' ? '' : ` (refused: ${refused})`}\n` +
    `  202 answer                    p50 ${ms(result.answerP50Ms)}, p99 ${ms(result.answerP99Ms)}\n` +
    `  whole execution               p50 ${ms(result.executionP50Ms)}, p99 ${ms(result.executionP99Ms)} (accepted → ended, the store's createdAt/endedAt)\n` +
    `  backlog when the window shut  ${result.backlogAtEnd} executions, all ended ${result.drainSeconds.toFixed(1)} s later\n` +
    `  accepted / stored / lost      ${result.accepted} / ${result.stored} / ${result.lost} (${statuses}; lost must be 0: ${met(result.lost === 0)})\n` +
    `  RSS of svc serve              idle ${megabytes(result.idleRssMiB)}, peak ${megabytes(result.peakRssMiB)} (target < ${TRIGGER_TARGETS.peakRssMegabytes} MB: ${peakMegabytes === undefined ? 'not measured' : met(peakMegabytes < TRIGGER_TARGETS.peakRssMegabytes)})`
  );
}
