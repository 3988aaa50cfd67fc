import type { Clock } from '../clock.js';
import type { EnvironmentService } from '../environments/environment-service.js';
import { isSvcError, SvcError, toErrorInfo } from '../errors.js';
import type { FlowService } from '../flows/flow-service.js';
import type { Logger } from '../logger.js';
import type { ValidationProblem } from '../model/validate-flow.js';
import { fieldProblems, validationError } from '../model/field-problems.js';
import type { StartExecutionRequest } from '../runtime/executor.js';
import { uuidV7 } from '../runtime/uuid-v7.js';
import {
  TERMINAL_STATUSES,
  type ErrorInfo,
  type ExecutionRecord,
  type Page,
  type ScheduleDefinition,
  type ScheduleLastRun,
  type ScheduleRecord,
  type ScheduleRunOutcome,
  type Store,
} from '../store/types.js';
import { DEFAULT_FLOW_TIMEOUT_MS, type SuiteService } from '../suites/suite-service.js';
import { countCronTimes, nextCronTime, nextCronTimes } from './cron.js';
import { scheduleBodySchema, UPCOMING_DUE_TIMES } from './schedule-schema.js';

/** A schedule as every door answers it: times in ISO 8601, with the next due times spelled out. */
export interface ScheduleView {
  id: string;
  name: string;
  description: string;
  target: ScheduleDefinition['target'];
  /** The target flow's or suite's name now; null when it was deleted (its runs then fail). */
  targetName: string | null;
  cron: string;
  timezone: string;
  environment: string | null;
  enabled: boolean;
  overlap: ScheduleDefinition['overlap'];
  /** When the next run is due; null while paused. */
  nextDueAt: string | null;
  /** The next three due times (from `nextDueAt`; for a paused schedule, those it would have if resumed now). */
  nextDueTimes: string[];
  lastRun: ScheduleRunView | null;
  skippedRuns: number;
  lastSkippedAt: string | null;
  missedRuns: number;
  createdAt: string;
  updatedAt: string;
}

export interface ScheduleRunView {
  at: string;
  dueAt: string;
  /** The execution id of a flow target. */
  executionId: string | null;
  /** The suite run id of a suite target (its executions' `trigger.suiteRunId`). */
  suiteRunId: string | null;
  /** A flow run's outcome is its execution's: `running` until it ends. */
  outcome: ScheduleRunOutcome;
  error: ErrorInfo | null;
  endedAt: string | null;
  missed: number;
  manual: boolean;
}

/** What a tick or a run by hand started. */
export interface FiredRun {
  scheduleId: string;
  tenantId: string;
  /** The slot it was fired for. */
  dueAt: number;
  status: 'fired' | 'skipped' | 'failed';
  /** The execution id or suite run id (absent for a skip). */
  runId?: string;
  missed: number;
  error?: ErrorInfo;
}

export interface ListSchedulesOptions {
  /** Paused schedules too (the default lists the enabled ones). */
  all?: boolean;
  limit?: number;
  cursor?: string;
}

export interface ScheduleService {
  /** Enabled schedules, oldest first (`all` adds paused ones), each with its next three due times. */
  list(tenantId: string, options?: ListSchedulesOptions): Promise<Page<ScheduleView>>;
  /** By id, else by exact name; `SCHEDULE_NOT_FOUND` otherwise (another tenant's included). */
  get(tenantId: string, idOrName: string): Promise<ScheduleView>;
  /**
   * Validates and saves a schedule: every problem at once with its path (`VALIDATION_ERROR`),
   * including a cron field out of range, a time zone that does not exist, a target flow or suite
   * and an environment the tenant does not have. Nothing is saved when any is wrong.
   */
  create(tenantId: string, input: unknown): Promise<ScheduleView>;
  /** Replaces the definition (validated as `create`); the next due time is computed afresh. */
  update(tenantId: string, idOrName: string, input: unknown): Promise<ScheduleView>;
  delete(tenantId: string, idOrName: string): Promise<ScheduleView>;
  /** No run is due while paused. */
  pause(tenantId: string, idOrName: string): Promise<ScheduleView>;
  /** Due again from the next slot after now: slots that passed while paused are not made up. */
  resume(tenantId: string, idOrName: string): Promise<ScheduleView>;
  /**
   * Fires a run now, whatever the cron says; the next due time is left as it is. With `overlap:
   * skip`, a previous run still going answers `CONFLICT`.
   */
  runNow(tenantId: string, idOrName: string): Promise<{ schedule: ScheduleView; run: FiredRun }>;
  /**
   * Fires every run due at `now` (every tenant's): the scheduler's tick. Each due run is claimed
   * by a conditional update of its next due time, so with several processes on the store each
   * fires exactly once. A schedule that missed several slots (the service was down) fires once
   * and records how many it missed.
   */
  fireDue(now: number): Promise<FiredRun[]>;
  /** Settles when the suite runs fired by this process have ended. */
  drain(): Promise<void>;
}

export interface ScheduleServiceDependencies {
  store: Store;
  clock: Clock;
  logger: Logger;
  flows: FlowService;
  suites: SuiteService;
  environments: EnvironmentService;
  startExecution(request: StartExecutionRequest): Promise<ExecutionRecord>;
}

/**
 * How many schedules a tenant may have: each one is work the scheduler does unasked, so a
 * client that may write schedules must not be able to pile them up without bound.
 */
export const MAX_SCHEDULES_PER_TENANT = 1_000;
/** Due schedules read per round of a tick. */
const DUE_BATCH = 100;
/** A tick reads at most this many rounds: a bound, in case claims keep being lost. */
const MAX_ROUNDS = 20;
/** How long a fired run whose execution is not there yet counts as starting (another process may be creating it). */
const STARTING_GRACE_MS = 60_000;

function notFound(idOrName: string): SvcError {
  return new SvcError(
    'SCHEDULE_NOT_FOUND',
    `schedule "${idOrName}" not found; svc schedules list --all (or GET /api/schedules?all=true) lists them`,
  );
}

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * Schedules of a tenant, and the firing of due runs for the scheduler.
 * @example
 * const schedule = await engine.schedules.create('acme', {
 *   name: 'weekday-smoke', cron: '30 8 * * 1-5', target: { type: 'suite', id: 'smoke' }, environment: 'staging',
 * });
 * schedule.nextDueTimes; // ['2026-01-05T08:30:00.000Z', '2026-01-06T08:30:00.000Z', '2026-01-07T08:30:00.000Z']
 */
export function createScheduleService(deps: ScheduleServiceDependencies): ScheduleService {
  const { store, clock, logger } = deps;
  const repository = store.schedules;
  const background = new Set<Promise<void>>();

  const find = async (tenantId: string, idOrName: string): Promise<ScheduleRecord> => {
    const found = (await repository.get(tenantId, idOrName)) ?? (await repository.findByName(tenantId, idOrName));
    if (found === undefined) throw notFound(idOrName);
    return found;
  };

  /** What is wrong with the target and the environment a body names (when they are shaped right). */
  const referenceProblems = async (tenantId: string, input: unknown): Promise<ValidationProblem[]> => {
    const body = (typeof input === 'object' && input !== null ? input : {}) as Record<string, unknown>;
    const problems: ValidationProblem[] = [];
    const target = scheduleBodySchema.shape.target.safeParse(body.target);
    if (target.success) {
      try {
        await resolveTarget(tenantId, target.data);
      } catch (error) {
        if (!isSvcError(error)) throw error;
        problems.push({ code: error.code, message: error.message, path: 'target.id' });
      }
    }
    const environment = body.environment;
    if (
      typeof environment === 'string' &&
      environment.length <= 64 &&
      (await store.environments.findByName(tenantId, environment)) === undefined
    ) {
      problems.push({
        code: 'ENVIRONMENT_NOT_FOUND',
        message: `environment "${environment}" not found; svc env list (or GET /api/gateway/environments) lists them`,
        path: 'environment',
      });
    }
    return problems;
  };

  /** The id of the flow or suite a target names by id or exact name. */
  const resolveTarget = async (tenantId: string, target: ScheduleDefinition['target']): Promise<string> => {
    if (target.type === 'flow') return (await deps.flows.resolve(tenantId, target.id)).id;
    const suite = (await store.suites.get(tenantId, target.id)) ?? (await store.suites.findByName(tenantId, target.id));
    if (suite === undefined) throw new SvcError('SUITE_NOT_FOUND', `suite "${target.id}" not found`);
    return suite.id;
  };

  /**
   * Parses and checks a body against the tenant: every problem at once, those of its shape and
   * those of the target and environment it names.
   */
  const validate = async (tenantId: string, input: unknown): Promise<ScheduleDefinition> => {
    const parsed = scheduleBodySchema.safeParse(input);
    const problems = [
      ...(parsed.success ? [] : fieldProblems(parsed.error)),
      ...(await referenceProblems(tenantId, input)),
    ];
    if (problems.length > 0 || !parsed.success) throw validationError('schedule', problems);
    const body = parsed.data;
    return { ...body, target: { type: body.target.type, id: await resolveTarget(tenantId, body.target) } };
  };

  const nextDue = (definition: Pick<ScheduleDefinition, 'cron' | 'timezone' | 'enabled'>, after: number) =>
    definition.enabled ? nextCronTime(definition.cron, definition.timezone, after) : null;

  /** The outcome of a flow run is its execution's; a suite run's is recorded when it ends. */
  const runView = async (record: ScheduleRecord): Promise<ScheduleRunView | null> => {
    const run = record.lastRun;
    if (run === null) return null;
    let { outcome, error, endedAt } = run;
    if (record.target.type === 'flow' && outcome === 'running') {
      const execution = await store.executions.get(record.tenantId, run.runId);
      if (execution !== undefined && TERMINAL_STATUSES.has(execution.status)) {
        outcome = execution.status === 'Completed' ? 'passed' : 'failed';
        error = execution.error;
        endedAt = execution.endedAt;
      }
    }
    return {
      at: iso(run.at),
      dueAt: iso(run.dueAt),
      executionId: record.target.type === 'flow' ? run.runId : null,
      suiteRunId: record.target.type === 'suite' ? run.runId : null,
      outcome,
      error,
      endedAt: endedAt === null ? null : iso(endedAt),
      missed: run.missed,
      manual: run.manual,
    };
  };

  const targetNameOf = async ({ tenantId, target }: ScheduleRecord): Promise<string | null> =>
    (target.type === 'flow' ? await store.flows.get(tenantId, target.id) : await store.suites.get(tenantId, target.id))
      ?.name ?? null;

  const view = async (record: ScheduleRecord): Promise<ScheduleView> => {
    let upcoming: number[];
    if (record.nextDueAt !== null) {
      upcoming = [
        record.nextDueAt,
        ...nextCronTimes(record.cron, record.timezone, record.nextDueAt, UPCOMING_DUE_TIMES - 1),
      ];
    } else upcoming = nextCronTimes(record.cron, record.timezone, clock.now(), UPCOMING_DUE_TIMES);
    return {
      id: record.id,
      name: record.name,
      description: record.description,
      target: record.target,
      targetName: await targetNameOf(record),
      cron: record.cron,
      timezone: record.timezone,
      environment: record.environment,
      enabled: record.enabled,
      overlap: record.overlap,
      nextDueAt: record.nextDueAt === null ? null : iso(record.nextDueAt),
      nextDueTimes: upcoming.map(iso),
      lastRun: await runView(record),
      skippedRuns: record.skippedRuns,
      lastSkippedAt: record.lastSkippedAt === null ? null : iso(record.lastSkippedAt),
      missedRuns: record.missedRuns,
      createdAt: iso(record.createdAt),
      updatedAt: iso(record.updatedAt),
    };
  };

  /** Whether the schedule's last run is still going (what `overlap: skip` waits for). */
  const stillRunning = async (record: ScheduleRecord, now: number): Promise<{ runId: string } | undefined> => {
    const run = record.lastRun;
    if (run === null || run.outcome !== 'running') return undefined;
    if (record.target.type === 'flow') {
      const execution = await store.executions.get(record.tenantId, run.runId);
      if (execution === undefined) return now - run.at < STARTING_GRACE_MS ? { runId: run.runId } : undefined;
      return TERMINAL_STATUSES.has(execution.status) ? undefined : { runId: run.runId };
    }
    // A suite run lives in the process that fired it; if that process died, its mark expires
    // after the longest the run could have taken.
    const suite = await store.suites.get(record.tenantId, record.target.id);
    const bound = (suite?.flowIds.length ?? 1) * DEFAULT_FLOW_TIMEOUT_MS + STARTING_GRACE_MS;
    return now - run.at < bound ? { runId: run.runId } : undefined;
  };

  const track = (work: Promise<void>) => {
    background.add(work);
    void work.finally(() => background.delete(work));
  };

  /**
   * Starts the run a claim (or a run by hand) recorded as `run`. A flow's execution is created
   * with the run id; a suite runs in the background and its outcome is recorded at its end.
   */
  const start = async (record: ScheduleRecord, run: ScheduleLastRun): Promise<FiredRun> => {
    const trigger = {
      type: 'schedule',
      scheduleId: record.id,
      dueAt: iso(run.dueAt),
      ...(run.missed > 0 ? { missed: run.missed } : {}),
      ...(run.manual ? { manual: true } : {}),
    };
    const fired: FiredRun = {
      scheduleId: record.id,
      tenantId: record.tenantId,
      dueAt: run.dueAt,
      status: 'fired',
      runId: run.runId,
      missed: run.missed,
    };
    const fail = async (error: unknown): Promise<FiredRun> => {
      const info = toErrorInfo(error);
      logger.warn('a scheduled run could not start', { scheduleId: record.id, tenantId: record.tenantId, ...info });
      await repository.finishRun(record.tenantId, record.id, run.runId, {
        outcome: 'failed',
        error: info,
        endedAt: clock.now(),
      });
      return { ...fired, status: 'failed', error: info };
    };
    let environment;
    try {
      environment = await deps.environments.resolveRun(
        record.tenantId,
        record.environment === null ? {} : { env: record.environment },
      );
    } catch (error) {
      return fail(error);
    }
    if (record.target.type === 'flow') {
      try {
        await deps.startExecution({
          id: run.runId,
          tenantId: record.tenantId,
          flowId: record.target.id,
          env: environment.env,
          secretKeys: environment.secretKeys,
          trigger,
        });
      } catch (error) {
        return fail(error);
      }
      return fired;
    }
    track(
      (async () => {
        try {
          const result = await deps.suites.run(record.tenantId, record.target.id, {
            runId: run.runId,
            env: environment.env,
            secretKeys: environment.secretKeys,
            trigger,
          });
          const failedFlow = result.flows.find((flow) => flow.status === 'failed');
          await repository.finishRun(record.tenantId, record.id, run.runId, {
            outcome: result.status,
            error:
              failedFlow === undefined
                ? null
                : (failedFlow.error ?? { code: 'FLOW_FAILED', message: `flow ${failedFlow.flowName} failed` }),
            endedAt: clock.now(),
          });
        } catch (error) {
          await fail(error);
        }
      })().catch((error: unknown) => logger.error('recording a scheduled suite run failed', toErrorInfo(error))),
    );
    return fired;
  };

  /** Claims one due schedule and, when this call won the claim, fires (or skips) its run. */
  const fireOne = async (record: ScheduleRecord, now: number): Promise<FiredRun | undefined> => {
    const dueAt = record.nextDueAt!;
    // Slots in [dueAt, now] beyond the one fired are the ones missed (the service was down).
    const missed = Math.max(0, countCronTimes(record.cron, record.timezone, dueAt, now) - 1);
    const nextDueAt = nextCronTime(record.cron, record.timezone, now);
    const running = record.overlap === 'skip' ? await stillRunning(record, now) : undefined;
    if (running !== undefined) {
      const won = await repository.claim({
        tenantId: record.tenantId,
        id: record.id,
        dueAt,
        nextDueAt,
        outcome: { skip: { at: now, missed } },
      });
      if (!won) return undefined;
      logger.info('scheduled run skipped: the previous run is still going', {
        scheduleId: record.id,
        runId: running.runId,
      });
      return { scheduleId: record.id, tenantId: record.tenantId, dueAt, status: 'skipped', missed };
    }
    const run: ScheduleLastRun = {
      at: now,
      dueAt,
      runId: uuidV7(now),
      outcome: 'running',
      error: null,
      endedAt: null,
      missed,
      manual: false,
    };
    const won = await repository.claim({
      tenantId: record.tenantId,
      id: record.id,
      dueAt,
      nextDueAt,
      outcome: { fire: run },
    });
    return won ? start(record, run) : undefined;
  };

  return {
    async list(tenantId, options = {}) {
      const page = await repository.list(tenantId, {
        enabledOnly: options.all !== true,
        ...(options.limit === undefined ? {} : { limit: options.limit }),
        ...(options.cursor === undefined ? {} : { cursor: options.cursor }),
      });
      return { items: await Promise.all(page.items.map(view)), nextCursor: page.nextCursor };
    },

    get: async (tenantId, idOrName) => view(await find(tenantId, idOrName)),

    async create(tenantId, input) {
      const definition = await validate(tenantId, input);
      if ((await repository.count(tenantId)) >= MAX_SCHEDULES_PER_TENANT) {
        throw new SvcError(
          'CONFLICT',
          `the tenant has ${MAX_SCHEDULES_PER_TENANT} schedules, the most it may have; delete one first`,
        );
      }
      return view(await repository.create(tenantId, definition, { nextDueAt: nextDue(definition, clock.now()) }));
    },

    async update(tenantId, idOrName, input) {
      const current = await find(tenantId, idOrName);
      const definition = await validate(tenantId, input);
      return view(
        await repository.update(tenantId, current.id, definition, { nextDueAt: nextDue(definition, clock.now()) }),
      );
    },

    async delete(tenantId, idOrName) {
      const current = await find(tenantId, idOrName);
      if (!(await repository.delete(tenantId, current.id))) throw notFound(idOrName);
      return view({ ...current, enabled: false, nextDueAt: null });
    },

    async pause(tenantId, idOrName) {
      const current = await find(tenantId, idOrName);
      if (!current.enabled) return view(current);
      return view(await repository.update(tenantId, current.id, { ...current, enabled: false }, { nextDueAt: null }));
    },

    async resume(tenantId, idOrName) {
      const current = await find(tenantId, idOrName);
      if (current.enabled) return view(current);
      const definition = { ...current, enabled: true };
      return view(
        await repository.update(tenantId, current.id, definition, { nextDueAt: nextDue(definition, clock.now()) }),
      );
    },

    async runNow(tenantId, idOrName) {
      const current = await find(tenantId, idOrName);
      const now = clock.now();
      if (current.overlap === 'skip') {
        const running = await stillRunning(current, now);
        if (running !== undefined) {
          throw new SvcError(
            'CONFLICT',
            `schedule "${current.name}" has a run still going (${current.target.type === 'flow' ? 'execution' : 'suite run'} ${running.runId}) and its overlap policy is skip`,
            { details: { runId: running.runId } },
          );
        }
      }
      const run: ScheduleLastRun = {
        at: now,
        dueAt: now,
        runId: uuidV7(now),
        outcome: 'running',
        error: null,
        endedAt: null,
        missed: 0,
        manual: true,
      };
      await repository.recordRun(tenantId, current.id, run);
      const fired = await start({ ...current, lastRun: run }, run);
      return { schedule: await view(await find(tenantId, current.id)), run: fired };
    },

    async fireDue(now) {
      const fired: FiredRun[] = [];
      for (let round = 0; round < MAX_ROUNDS; round += 1) {
        const due = await repository.listDue(now, DUE_BATCH);
        for (const record of due) {
          try {
            const result = await fireOne(record, now);
            if (result !== undefined) fired.push(result);
          } catch (error) {
            // One broken schedule never stops the others.
            logger.error('firing a schedule failed', { scheduleId: record.id, ...toErrorInfo(error) });
          }
        }
        if (due.length < DUE_BATCH) break;
      }
      return fired;
    },

    async drain() {
      while (background.size > 0) await Promise.allSettled([...background]);
    },
  };
}
