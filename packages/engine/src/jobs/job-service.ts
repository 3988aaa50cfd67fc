import type { Clock } from '../clock.js';
import { SvcError, toErrorInfo } from '../errors.js';
import type { Logger } from '../logger.js';
import { isDeadLocalOwner, newLeaseOwner } from '../runtime/lease-owner.js';
import { uuidV7 } from '../runtime/uuid-v7.js';
import { timerDelay } from '../timer-delay.js';
import {
  ACTIVE_JOB_STATUSES,
  type JobPatch,
  type JobRecord,
  type ListJobsQuery,
  type Page,
  type Store,
} from '../store/types.js';

/** What a job's work sees while it runs. */
export interface JobContext {
  readonly jobId: string;
  readonly tenantId: string;
  readonly kind: string;
  /** The input the job was started with, as stored (a JSON copy). */
  readonly input: unknown;
  /**
   * Aborted when the job is cancelled, or when the engine stops before the work ends. Work that
   * calls out (HTTP, a model) should pass it on; the job's end is already recorded by then.
   */
  readonly signal: AbortSignal;
  /** Records a short line of progress (the latest one is kept; at most 500 characters). */
  progress(text: string): Promise<void>;
}

/** The work of a job: answers its result (JSON), or throws (an `SvcError` keeps its code). */
export type JobWork<Result = unknown> = (context: JobContext) => Promise<Result>;

export interface StartJobRequest {
  /** What the job does, e.g. `testgen`. */
  kind: string;
  /** Stored with the job (JSON). */
  input?: unknown;
}

export interface JobService {
  /**
   * Saves the job and answers its record at once (Running, or Queued while this process runs
   * as many jobs as it may); `work` runs in the background and its answer or error is stored.
   */
  start<Result>(tenantId: string, request: StartJobRequest, work: JobWork<Result>): Promise<JobRecord>;
  /** The job; `JOB_NOT_FOUND` (404) for an unknown id or one of another tenant. */
  get(tenantId: string, id: string): Promise<JobRecord>;
  /** Newest first. */
  list(tenantId: string, query?: ListJobsQuery): Promise<Page<JobRecord>>;
  /** Waits up to `timeoutMs` (default 30 s) for the job to end; answers it as it is then. */
  wait(tenantId: string, id: string, options?: { timeoutMs?: number }): Promise<JobRecord>;
  /** Marks an active job Failed with `JOB_CANCELLED` and aborts its work when it runs here. */
  cancel(tenantId: string, id: string): Promise<JobRecord>;
  /**
   * Marks Failed with `JOB_INTERRUPTED` every active job whose process died: its lease expired,
   * or it was held by a process of this host that no longer exists. Answers the jobs marked.
   */
  recover(): Promise<JobRecord[]>;
  /** Runs `recover` now and then until `stop` (a serving process does this). */
  startSweeper(): void;
  /** Settles when no job runs or waits in this process. */
  drain(): Promise<void>;
  /**
   * Takes no new jobs, lets running ones end for up to `graceMs` (default 10 s), then aborts
   * the rest and marks them `JOB_INTERRUPTED`, as are jobs still queued.
   */
  stop(options?: { graceMs?: number }): Promise<void>;
}

export interface JobServiceOptions {
  store: Store;
  clock: Clock;
  logger: Logger;
  /** How long a job's lease holds without renewal (default 30 s). */
  leaseMs?: number;
  /** Jobs this process runs at once; more wait as Queued (default 4). */
  maxConcurrentJobs?: number;
}

export const MAX_PROGRESS_LENGTH = 500;

const INTERRUPTED_MESSAGE = 'the process running this job stopped before the job ended; start the job again';

interface LocalJob {
  tenantId: string;
  controller: AbortController;
  /** Settles once the job's end is recorded (or could not be). */
  done: Promise<void>;
  /** Work not yet begun, while the job is Queued here. */
  pending?: () => void;
}

const isActive = (record: JobRecord): boolean => ACTIVE_JOB_STATUSES.includes(record.status);

function jobNotFound(id: string): SvcError {
  return new SvcError('JOB_NOT_FOUND', `job "${id}" not found`);
}

/** A JSON copy: what the store will answer later, so the caller sees it now too. */
function asJson(value: unknown, what: string): unknown {
  try {
    const text = JSON.stringify(value);
    return text === undefined ? null : (JSON.parse(text) as unknown);
  } catch (error) {
    throw new SvcError(
      'VALIDATION_ERROR',
      `the job's ${what} cannot be stored as JSON: ${error instanceof Error ? error.message : String(error)}`,
      { cause: error },
    );
  }
}

/**
 * Runs jobs in this process and keeps their state in the store. A job's work is code held in
 * memory, so another process cannot take it over: when the process that runs a job dies, the
 * job is marked interrupted (once its lease expires, or at once when the process was on this
 * host) and the caller starts it again.
 * @example
 * const job = await engine.jobs.start('acme', { kind: 'testgen', input: { endpointId } }, async (ctx) => {
 *   await ctx.progress('reading the endpoint');
 *   return { cases: 12 };
 * });
 * const finished = await engine.jobs.wait('acme', job.id, { timeoutMs: 60_000 });
 */
export function createJobService(options: JobServiceOptions): JobService {
  const { store, clock, logger } = options;
  const leaseMs = options.leaseMs ?? 30_000;
  const maxConcurrent = Math.max(1, options.maxConcurrentJobs ?? 4);
  const owner = newLeaseOwner();
  const local = new Map<string, LocalJob>();
  const queue: string[] = [];
  /** Jobs running here, or about to: decided synchronously so that concurrent starts cannot overshoot. */
  let busy = 0;
  let stopping = false;
  let leaseTimer: NodeJS.Timeout | undefined;
  let sweepTimer: NodeJS.Timeout | undefined;

  const interruptedError = (message = INTERRUPTED_MESSAGE) => ({ code: 'JOB_INTERRUPTED', message });

  const ending = (patch: JobPatch): JobPatch => ({ ...patch, endedAt: clock.now(), owner: null, leaseExpiresAt: null });

  /** Writes to the store from the background must not become unhandled rejections. */
  const quietly = async (what: string, id: string, write: () => Promise<unknown>): Promise<void> => {
    try {
      await write();
    } catch (error) {
      logger.error(`job ${what} could not be recorded`, { jobId: id, error: String(error) });
    }
  };

  const ensureLeaseRenewal = () => {
    if (leaseTimer) return;
    leaseTimer = setInterval(
      () => {
        store.jobs
          .renewLeases(owner, clock.now() + leaseMs)
          .catch((error: unknown) => logger.error('job lease renewal failed', { error: String(error) }));
      },
      timerDelay(Math.max(50, Math.floor(leaseMs / 3))),
    );
    leaseTimer.unref();
  };
  const stopLeaseRenewalWhenIdle = () => {
    if (local.size > 0 || !leaseTimer) return;
    clearInterval(leaseTimer);
    leaseTimer = undefined;
  };

  const startNext = () => {
    while (busy < maxConcurrent && queue.length > 0) {
      const id = queue.shift()!;
      local.get(id)?.pending?.();
    }
  };

  function launch<Result>(record: JobRecord, work: JobWork<Result>, queued: boolean): void {
    const controller = new AbortController();
    let begin!: () => void;
    const begun = new Promise<void>((resolve) => {
      begin = resolve;
    });
    let progressWrites: Promise<void> = Promise.resolve();
    const context: JobContext = {
      jobId: record.id,
      tenantId: record.tenantId,
      kind: record.kind,
      input: record.input,
      signal: controller.signal,
      progress(text: string) {
        const line = String(text).slice(0, MAX_PROGRESS_LENGTH);
        // Chained, so that progress lines land in the order they were reported.
        progressWrites = progressWrites.then(() =>
          quietly('progress', record.id, () => store.jobs.updateActive(record.tenantId, record.id, { progress: line })),
        );
        return progressWrites;
      },
    };

    const done = (async () => {
      await begun;
      try {
        if (queued) {
          const { applied } = await store.jobs.updateActive(record.tenantId, record.id, {
            status: 'Running',
            startedAt: clock.now(),
          });
          if (!applied) return; // cancelled or interrupted while it waited
        }
        let patch: JobPatch;
        try {
          const value = await work(context);
          patch = { status: 'Completed', result: asJson(value, 'result') };
        } catch (error) {
          patch = { status: 'Failed', error: toErrorInfo(error) };
        }
        await progressWrites;
        // A job cancelled or interrupted meanwhile keeps that end (the store's first end wins).
        await store.jobs.updateActive(record.tenantId, record.id, ending(patch));
      } catch (error) {
        logger.error('job end could not be recorded', { jobId: record.id, error: String(error) });
      } finally {
        busy -= 1;
        local.delete(record.id);
        stopLeaseRenewalWhenIdle();
        startNext();
      }
    })();

    const entry: LocalJob = { tenantId: record.tenantId, controller, done };
    local.set(record.id, entry);
    ensureLeaseRenewal();
    if (queued) {
      entry.pending = () => {
        delete entry.pending;
        busy += 1;
        begin();
      };
      queue.push(record.id);
    } else {
      begin();
    }
  }

  /** A job that looks active but whose process is gone is marked so the reader sees the truth. */
  const settleIfOrphaned = async (record: JobRecord): Promise<JobRecord> => {
    if (!isActive(record) || record.owner === owner) return record;
    const expired = record.leaseExpiresAt !== null && record.leaseExpiresAt <= clock.now();
    const deadOwner = record.owner !== null && isDeadLocalOwner(record.owner);
    if (!expired && !deadOwner) return record;
    const { record: marked } = await store.jobs.updateActive(
      record.tenantId,
      record.id,
      ending({ status: 'Failed', error: interruptedError() }),
    );
    return marked;
  };

  const get = async (tenantId: string, id: string): Promise<JobRecord> => {
    const record = await store.jobs.get(tenantId, id);
    if (!record) throw jobNotFound(id);
    return settleIfOrphaned(record);
  };

  const recover = async (): Promise<JobRecord[]> => {
    const now = clock.now();
    // This process's own jobs are alive whatever their stored lease says.
    if (local.size > 0) await store.jobs.renewLeases(owner, now + leaseMs);
    const owners = await store.jobs.listLeaseOwners();
    const deadOwners = owners.filter((candidate) => candidate !== owner && isDeadLocalOwner(candidate));
    const marked = await store.jobs.interruptOrphans({ now, deadOwners, error: interruptedError() });
    for (const job of marked)
      logger.warn('job interrupted: its process stopped', { jobId: job.id, tenantId: job.tenantId, kind: job.kind });
    return marked;
  };

  const drain = async (): Promise<void> => {
    while (local.size > 0) await Promise.all([...local.values()].map((job) => job.done));
  };

  return {
    async start(tenantId, request, work) {
      if (stopping)
        throw new SvcError('SHUTTING_DOWN', 'the engine is shutting down and takes no new jobs', { retryable: true });
      if (typeof request.kind !== 'string' || request.kind.trim() === '') {
        throw new SvcError('VALIDATION_ERROR', 'a job needs a kind, e.g. "testgen"', {
          details: { problems: [{ code: 'INVALID_FIELD', path: 'kind', message: 'expected a non-empty string' }] },
        });
      }
      if (typeof work !== 'function') throw new SvcError('VALIDATION_ERROR', 'a job needs its work (a function)');
      const input = asJson(request.input ?? null, 'input');
      const now = clock.now();
      const runsNow = busy < maxConcurrent && queue.length === 0;
      const record: JobRecord = {
        id: `job_${uuidV7(now)}`,
        tenantId,
        kind: request.kind,
        status: runsNow ? 'Running' : 'Queued',
        input,
        progress: null,
        result: null,
        error: null,
        createdAt: now,
        startedAt: runsNow ? now : null,
        endedAt: null,
        updatedAt: now,
        // A queued job is held too: it lives only in this process's memory until it runs.
        owner,
        leaseExpiresAt: now + leaseMs,
      };
      if (runsNow) busy += 1;
      try {
        await store.jobs.create(record);
      } catch (error) {
        if (runsNow) {
          busy -= 1;
          startNext();
        }
        throw error;
      }
      launch(record, work, !runsNow);
      return { ...record };
    },

    get,
    list: (tenantId, query) => store.jobs.list(tenantId, query),

    async wait(tenantId, id, waitOptions = {}) {
      const deadline = Date.now() + (waitOptions.timeoutMs ?? 30_000);
      for (;;) {
        const record = await get(tenantId, id);
        const left = deadline - Date.now();
        if (!isActive(record) || left <= 0) return record;
        const here = local.get(id);
        // A job of this process settles `done`; one of another process is polled.
        await withinMs(here ? here.done : new Promise<void>(() => {}), here ? left : Math.min(left, 100));
      }
    },

    async cancel(tenantId, id) {
      const record = await get(tenantId, id);
      if (!isActive(record)) return record;
      const { record: cancelled } = await store.jobs.updateActive(
        tenantId,
        id,
        ending({ status: 'Failed', error: { code: 'JOB_CANCELLED', message: 'the job was cancelled' } }),
      );
      const here = local.get(id);
      if (here && here.tenantId === tenantId) {
        here.controller.abort(new SvcError('JOB_CANCELLED', 'the job was cancelled'));
        here.pending?.();
      }
      return cancelled;
    },

    recover,

    startSweeper() {
      if (sweepTimer || stopping) return;
      const sweep = () => {
        recover().catch((error: unknown) => logger.error('job sweep failed', { error: String(error) }));
      };
      sweep();
      sweepTimer = setInterval(sweep, timerDelay(Math.max(1_000, Math.floor(leaseMs / 2))));
      sweepTimer.unref();
    },

    drain,

    async stop(stopOptions = {}) {
      stopping = true;
      if (sweepTimer) clearInterval(sweepTimer);
      sweepTimer = undefined;
      // Jobs still queued have not begun: they end now rather than start during shutdown.
      for (const id of queue.splice(0)) {
        const job = local.get(id);
        if (!job) continue;
        await quietly('interruption', id, () =>
          store.jobs.updateActive(
            job.tenantId,
            id,
            ending({
              status: 'Failed',
              error: interruptedError('the service stopped before this job began; start the job again'),
            }),
          ),
        );
        job.pending?.();
      }
      await withinMs(drain(), stopOptions.graceMs ?? 10_000);
      if (local.size > 0) {
        for (const [id, job] of local) {
          await quietly('interruption', id, () =>
            store.jobs.updateActive(
              job.tenantId,
              id,
              ending({
                status: 'Failed',
                error: interruptedError('the service stopped while this job ran; start the job again'),
              }),
            ),
          );
          job.controller.abort(new SvcError('JOB_INTERRUPTED', 'the service is stopping'));
        }
        // Work that honours its signal ends at once; work that does not is left behind.
        await withinMs(drain(), 1_000);
      }
      if (leaseTimer) clearInterval(leaseTimer);
      leaseTimer = undefined;
    },
  };
}

/** Settles with the promise, or after `ms`, whichever comes first; the timer never outlives the race. */
async function withinMs(promise: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, timerDelay(ms));
    timer.unref();
  });
  try {
    await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
