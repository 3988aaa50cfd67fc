import { performance } from 'node:perf_hooks';
import type { Clock } from '../clock.js';
import { SvcError, toErrorInfo } from '../errors.js';
import type { ValidationProblem } from '../model/validate-flow.js';
import { fieldProblems, validationError } from '../model/field-problems.js';
import { formatJsonPath } from '../model/walk-strings.js';
import type { ExecutionView } from '../runtime/execution-view.js';
import { uuidV7 } from '../runtime/uuid-v7.js';
import {
  TERMINAL_STATUSES,
  type ErrorInfo,
  type ExecutionRecord,
  type ExecutionStatus,
  type ListSuitesQuery,
  type Page,
  type Store,
  type SuiteDefinition,
  type SuiteMode,
  type SuiteRecord,
  type SuiteSummary,
} from '../store/types.js';
import { percentile, ratio } from './suite-kpis.js';
import { DEFAULT_SUITE_CONCURRENCY, MAX_SUITE_CONCURRENCY, suiteDefinitionSchema } from './suite-schema.js';

export interface RunSuiteOptions {
  /** The environment every flow of the run reads as `env.*`. */
  env?: Record<string, unknown>;
  /** Names in `env` to treat as secret, beside those whose names say so. */
  secretKeys?: string[];
  /** Stop starting flows after the first failure; the flows not run count as skipped. */
  failFast?: boolean;
  /** What started the run (`{ type: 'api', clientId }`, `{ type: 'cli' }`, …), kept on each execution. */
  trigger?: ExecutionRecord['trigger'];
  /** Parallel suites: flows running at once (default 4, at most 32). Sequential suites run one. */
  concurrency?: number;
  /** How long one flow may run before it is cancelled and counted as failed (default 5 minutes). */
  flowTimeoutMs?: number;
  /** Called as each flow ends, with its index in the suite (progress for a caller that shows it). */
  onFlowResult?: (result: SuiteFlowResult, index: number) => void;
  /** The run's id (shared by its executions as `trigger.suiteRunId`) when the caller fixed it beforehand. */
  runId?: string;
  /** Once aborted, no further flow starts (the rest count as skipped) and the flows running are cancelled. */
  signal?: AbortSignal;
}

/** One flow of a suite run. A flow passes when its execution Completed. */
export interface SuiteFlowResult {
  flowId: string;
  /** Null only for a flow that no longer exists. */
  flowName: string | null;
  status: 'passed' | 'failed' | 'skipped';
  /** Null when no execution started (skipped, or the flow could not be started). */
  executionId: string | null;
  executionStatus: ExecutionStatus | null;
  durationMs: number | null;
  error: ErrorInfo | null;
}

/** The outcome of a suite run: its KPIs, then one result per flow in the suite's order. */
export interface SuiteRunResult {
  /** Shared by the executions of this run (their `trigger.suiteRunId`). */
  runId: string;
  suiteId: string;
  suiteName: string;
  mode: SuiteMode;
  /** `passed` when no flow failed. */
  status: 'passed' | 'failed';
  total: number;
  passed: number;
  failed: number;
  /** Flows not run because an earlier one failed under `failFast`. */
  skipped: number;
  /** `passed / total`, from 0 to 1 (skipped flows count as not passed). */
  passRate: number;
  /** Wall time of the whole run. */
  durationMs: number;
  /** Of the durations of the flows that ran (nearest rank); null when none ran. */
  latency: { p50: number | null; p95: number | null };
  startedAt: string;
  endedAt: string;
  failFast: boolean;
  flows: SuiteFlowResult[];
}

export interface SuiteService {
  /**
   * Validates and saves a suite. Every problem is answered at once with its path
   * (`VALIDATION_ERROR`), including flow ids the tenant does not have (`flowIds[2]`); a name
   * already used in the tenant is `CONFLICT`.
   */
  create(tenantId: string, input: unknown): Promise<SuiteRecord>;
  /** Replaces a suite's definition, validated as `create` does. */
  update(tenantId: string, id: string, input: unknown): Promise<SuiteRecord>;
  /**
   * Saves a suite by its name (a suite file's): creates it, or replaces the definition of the
   * suite of that name; a definition that did not change is not written again.
   */
  upsert(tenantId: string, input: unknown): Promise<{ suite: SuiteRecord; created: boolean }>;
  /** `SUITE_NOT_FOUND` (404) for an unknown id or one of another tenant. */
  get(tenantId: string, id: string): Promise<SuiteRecord>;
  findByName(tenantId: string, name: string): Promise<SuiteRecord | undefined>;
  /** Summaries with `flowCount` and `mode`, most recently updated first. */
  list(tenantId: string, query?: ListSuitesQuery): Promise<Page<SuiteSummary>>;
  delete(tenantId: string, id: string): Promise<void>;
  /** Runs every flow of the suite as an execution and answers the KPIs with per-flow results. */
  run(tenantId: string, suiteId: string, options?: RunSuiteOptions): Promise<SuiteRunResult>;
}

export interface SuiteServiceDependencies {
  store: Store;
  clock: Clock;
  /** Starts an execution and waits up to `waitMs` for its end (the engine's `runFlow`). */
  runFlow(request: {
    tenantId: string;
    flowId: string;
    env: Record<string, unknown>;
    secretKeys?: string[];
    trigger: ExecutionRecord['trigger'];
    waitMs: number;
  }): Promise<ExecutionView>;
  cancelExecution(tenantId: string, executionId: string): Promise<ExecutionView>;
  /**
   * Called with each run's result before `run` answers it, whatever door started the run: a
   * health-check suite's check states are recorded here. Expected not to throw.
   */
  afterRun?(tenantId: string, suite: SuiteRecord, result: SuiteRunResult): Promise<void>;
}

export const DEFAULT_FLOW_TIMEOUT_MS = 5 * 60_000;

function suiteNotFound(id: string): SvcError {
  return new SvcError('SUITE_NOT_FOUND', `suite "${id}" not found`);
}

/**
 * Suites of a tenant: saving checks that every flow exists in the tenant, running answers
 * pass/fail KPIs.
 * @example
 * const suite = await engine.suites.create('acme', { name: 'smoke', flowIds: [health.id, orders.id] });
 * const result = await engine.suites.run('acme', suite.id, { env: { baseUrl }, failFast: true });
 * result.passRate; // 1
 */
export function createSuiteService(deps: SuiteServiceDependencies): SuiteService {
  const { store, clock } = deps;

  const validate = async (tenantId: string, input: unknown): Promise<SuiteDefinition> => {
    const parsed = suiteDefinitionSchema.safeParse(input);
    if (!parsed.success) throw validationError('suite', fieldProblems(parsed.error));
    const definition = parsed.data;
    const problems: ValidationProblem[] = [];
    const seen = new Map<string, number>();
    const versions = await Promise.all(
      definition.flowIds.map((flowId) => store.flows.currentVersion(tenantId, flowId)),
    );
    definition.flowIds.forEach((flowId, index) => {
      const path = formatJsonPath(['flowIds', index]);
      if (seen.has(flowId))
        problems.push({
          code: 'DUPLICATE_FLOW',
          message: `flow "${flowId}" is listed at flowIds[${seen.get(flowId)}] too`,
          path,
        });
      else seen.set(flowId, index);
      if (versions[index] === undefined)
        problems.push({ code: 'FLOW_NOT_FOUND', message: `flow "${flowId}" not found`, path });
    });
    if (problems.length > 0) throw validationError('suite', problems);
    return definition;
  };

  const get = async (tenantId: string, id: string): Promise<SuiteRecord> => {
    const suite = await store.suites.get(tenantId, id);
    if (!suite) throw suiteNotFound(id);
    return suite;
  };

  async function runOne(
    tenantId: string,
    suite: SuiteRecord,
    runId: string,
    flowId: string,
    options: RunSuiteOptions,
  ): Promise<SuiteFlowResult> {
    const flow = await store.flows.get(tenantId, flowId);
    const base = { flowId, flowName: flow?.name ?? null };
    if (!flow) {
      // Deleted since the suite was saved: the suite cannot pass while it lists it.
      return {
        ...base,
        status: 'failed',
        executionId: null,
        executionStatus: null,
        durationMs: null,
        error: { code: 'FLOW_NOT_FOUND', message: `flow "${flowId}" not found` },
      };
    }
    const timeoutMs = options.flowTimeoutMs ?? DEFAULT_FLOW_TIMEOUT_MS;
    let execution: ExecutionView;
    try {
      execution = await deps.runFlow({
        tenantId,
        flowId,
        env: options.env ?? {},
        ...(options.secretKeys ? { secretKeys: options.secretKeys } : {}),
        trigger: {
          type: 'suite',
          suiteId: suite.id,
          suiteRunId: runId,
          ...(options.trigger ? { startedBy: options.trigger } : {}),
        },
        waitMs: timeoutMs,
      });
    } catch (error) {
      return {
        ...base,
        status: 'failed',
        executionId: null,
        executionStatus: null,
        durationMs: null,
        error: toErrorInfo(error),
      };
    }
    let timedOut: ErrorInfo | null = null;
    if (!TERMINAL_STATUSES.has(execution.status)) {
      timedOut = {
        code: 'SUITE_FLOW_TIMEOUT',
        message: `flow "${flow.name}" did not end within ${timeoutMs} ms; its execution was cancelled`,
      };
      execution = await deps.cancelExecution(tenantId, execution.executionId);
    }
    const passed = execution.status === 'Completed';
    return {
      ...base,
      flowName: execution.flowName,
      status: passed ? 'passed' : 'failed',
      executionId: execution.executionId,
      executionStatus: execution.status,
      durationMs: execution.durationMs,
      error: passed
        ? null
        : (timedOut ?? execution.error ?? { code: 'FLOW_FAILED', message: `the execution ended ${execution.status}` }),
    };
  }

  /** Cancels the executions of a suite run that have not ended (found by their `trigger.suiteRunId`). */
  async function cancelRunOf(tenantId: string, runId: string): Promise<void> {
    for (const status of ['Queued', 'Running', 'Waiting'] as const) {
      const page = await store.executions.list(tenantId, { status, limit: 200 });
      const ours = page.items.filter((record) => record.trigger.suiteRunId === runId);
      await Promise.all(ours.map((record) => deps.cancelExecution(tenantId, record.id).catch(() => undefined)));
    }
  }

  return {
    async create(tenantId, input) {
      return store.suites.create(tenantId, await validate(tenantId, input));
    },
    async update(tenantId, id, input) {
      await get(tenantId, id);
      return store.suites.update(tenantId, id, await validate(tenantId, input));
    },
    async upsert(tenantId, input) {
      const definition = await validate(tenantId, input);
      const existing = await store.suites.findByName(tenantId, definition.name);
      if (existing === undefined) return { suite: await store.suites.create(tenantId, definition), created: true };
      const same = (Object.keys(definition) as (keyof SuiteDefinition)[]).every(
        (key) => JSON.stringify(definition[key]) === JSON.stringify(existing[key]),
      );
      return {
        suite: same ? existing : await store.suites.update(tenantId, existing.id, definition),
        created: false,
      };
    },
    get,
    findByName: (tenantId, name) => store.suites.findByName(tenantId, name),
    list: (tenantId, query) => store.suites.list(tenantId, query),
    async delete(tenantId, id) {
      if (!(await store.suites.delete(tenantId, id))) throw suiteNotFound(id);
      // Its alert channels, check states and alert deliveries go with it.
      await store.health.deleteSuite(tenantId, id);
    },

    async run(tenantId, suiteId, options = {}) {
      const suite = await get(tenantId, suiteId);
      const runId = options.runId ?? uuidV7(clock.now());
      const startedAt = clock.now();
      const started = performance.now();
      const failFast = options.failFast ?? false;
      const concurrency =
        suite.mode === 'parallel'
          ? Math.min(MAX_SUITE_CONCURRENCY, Math.max(1, Math.floor(options.concurrency ?? DEFAULT_SUITE_CONCURRENCY)))
          : 1;

      const results: (SuiteFlowResult | undefined)[] = suite.flowIds.map(() => undefined);
      let next = 0;
      let stopped = false;
      // Each lane takes the next flow in suite order; with failFast, no lane starts a flow after a failure.
      const lane = async () => {
        while (!stopped && !options.signal?.aborted && next < suite.flowIds.length) {
          const index = next++;
          const result = await runOne(tenantId, suite, runId, suite.flowIds[index]!, options);
          results[index] = result;
          options.onFlowResult?.(result, index);
          if (failFast && result.status === 'failed') stopped = true;
        }
      };
      // An abort cancels the executions of this run still going; their flows then end Cancelled.
      const cancelRunning = () => void cancelRunOf(tenantId, runId);
      options.signal?.addEventListener('abort', cancelRunning, { once: true });
      try {
        await Promise.all(Array.from({ length: Math.min(concurrency, suite.flowIds.length) }, lane));
      } finally {
        options.signal?.removeEventListener('abort', cancelRunning);
      }

      const skippedNames = await Promise.all(
        suite.flowIds.map(async (flowId, index) =>
          results[index] ? null : ((await store.flows.get(tenantId, flowId))?.name ?? null),
        ),
      );
      const flows = suite.flowIds.map(
        (flowId, index): SuiteFlowResult =>
          results[index] ?? {
            flowId,
            flowName: skippedNames[index] ?? null,
            status: 'skipped',
            executionId: null,
            executionStatus: null,
            durationMs: null,
            error: null,
          },
      );
      const count = (status: SuiteFlowResult['status']) => flows.filter((flow) => flow.status === status).length;
      const durations = flows.flatMap((flow) => (flow.durationMs === null ? [] : [flow.durationMs]));
      const passed = count('passed');
      const failed = count('failed');
      const result: SuiteRunResult = {
        runId,
        suiteId: suite.id,
        suiteName: suite.name,
        mode: suite.mode,
        status: failed === 0 ? 'passed' : 'failed',
        total: flows.length,
        passed,
        failed,
        skipped: count('skipped'),
        passRate: ratio(passed, flows.length),
        durationMs: Math.round((performance.now() - started) * 100) / 100,
        latency: { p50: percentile(durations, 50), p95: percentile(durations, 95) },
        startedAt: new Date(startedAt).toISOString(),
        endedAt: new Date(clock.now()).toISOString(),
        failFast,
        flows,
      };
      await deps.afterRun?.(tenantId, suite, result);
      return result;
    },
  };
}
