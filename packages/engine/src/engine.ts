import { unattendedRunWithStoredEnvironment, type SavedTarget } from './flows/unattended-runs.js';
import { systemClock, type Clock } from './clock.js';
import { createQuickJsSandbox, createTemplateResolver, type QuickJsSandboxOptions } from './expressions/index.js';
import { createFlowService, type FlowService } from './flows/flow-service.js';
import { createJobService, type JobService } from './jobs/job-service.js';
import { createSuiteService, type SuiteService } from './suites/suite-service.js';
import { createAlertDispatcher, type AlertDeliveryOptions } from './health/alert-dispatcher.js';
import { createHealthService, type HealthService } from './health/health-service.js';
import { createEnvironmentService, type EnvironmentService } from './environments/environment-service.js';
import { createUndiciHttpClient } from './http/undici-http-client.js';
import type { HttpClient } from './http/types.js';
import type { EgressPolicy } from './http/egress-policy.js';
import { silentLogger, type Logger } from './logger.js';
import { BUILTIN_NODE_TYPES, createNodeRegistry, type AnyNodeType, type NodeRegistry } from './nodes/registry.js';
import type { JsSandbox } from './nodes/types.js';
import type { RunLimits } from './runtime/execution-run.js';
import { Executor, type StartExecutionRequest } from './runtime/executor.js';
import type { ExecutionRecord, ListExecutionsQuery, Page, Store } from './store/types.js';
import { toExecutionView, type ExecutionView } from './runtime/execution-view.js';
import { createCallbackWaits } from './webhooks/callback-waits.js';
import { createWebhookService, type WebhookService } from './webhooks/webhook-service.js';
import { createScheduleService, type ScheduleService } from './schedules/schedule-service.js';
import { createScheduler, type Scheduler } from './schedules/scheduler.js';

export interface EngineOptions {
  store: Store;
  /** Defaults to a keep-alive undici client under `egress`. */
  http?: HttpClient;
  /**
   * Where the default HTTP client may send requests (ignored when `http` is given: a client
   * passed in brings its own rules). Defaults to the `service` policy without rules: no
   * loopback, private, link-local or metadata address; `svc run` and local `svc-mcp` pass the
   * `local` one.
   */
  egress?: EgressPolicy;
  clock?: Clock;
  logger?: Logger;
  /** Defaults to a QuickJS sandbox on worker threads (100 ms, 16 MiB per evaluation, 2 workers). */
  sandbox?: JsSandbox;
  /** Limits and pool size of the default sandbox (ignored when `sandbox` is given). */
  sandboxOptions?: QuickJsSandboxOptions;
  /** Extra or replacement node types. */
  nodeTypes?: AnyNodeType[];
  limits?: Partial<RunLimits>;
  leaseMs?: number;
  pollIntervalMs?: number;
  maxConcurrentExecutions?: number;
  releaseWaitsLongerThanMs?: number;
  /**
   * Give waits longer than `releaseWaitsLongerThanMs` back to the store even in a process that is
   * not a worker (one that ends while its run waits, for a worker to resume). A worker always does.
   */
  releaseWaits?: boolean;
  /** Background jobs this process runs at once; more wait as Queued (default 4). */
  maxConcurrentJobs?: number;
  /**
   * The service's public base URL (`SVC_PUBLIC_URL`): callback URLs and trigger URLs start with it.
   * Default `http://127.0.0.1:8080`, the address `svc serve` listens on by default.
   */
  publicUrl?: string | (() => string);
  /** How often a started scheduler looks for due schedules (default 1 s). */
  schedulerIntervalMs?: number;
  /** How health-check alerts are sent and retried (attempts, backoff, timeout); defaults suit a service. */
  alerts?: AlertDeliveryOptions;
}

export const DEFAULT_PUBLIC_URL = 'http://127.0.0.1:8080';

export interface RunFlowRequest extends StartExecutionRequest {
  /** How long to wait for the end before answering with the current status (default 30 s). */
  waitMs?: number;
  /** Answer as soon as the run gives its waits back to the store (`releaseWaits`), Waiting. */
  returnWhenWaiting?: boolean;
}

export interface Engine {
  readonly nodeTypes: NodeRegistry;
  readonly flows: FlowService;
  /** Long-running background work (test generation, …), kept in the store with its progress and result. */
  readonly jobs: JobService;
  /** Flows run as one unit, with pass/fail KPIs. */
  readonly suites: SuiteService;
  /** Health-check suites: each check's state, alert channels, and the alert deliveries. */
  readonly health: HealthService;
  /** Stored environments of a tenant; `resolveRun` turns a run's `env` (a name or an object) into what it reads. */
  readonly environments: EnvironmentService;
  /** Inbound webhooks: flow triggers and the callbacks that resume waits. */
  readonly webhooks: WebhookService;
  /** Cron schedules of flows and suites. */
  readonly schedules: ScheduleService;
  /** Fires due schedules: `start()` in the serving process, `tick()` under a test's clock. Not started by `startWorker`. */
  readonly scheduler: Scheduler;
  /**
   * Why saving this flow or suite decides what runs unattended with a stored environment (a
   * schedule runs it, or a webhook trigger reaches it as a subflow), or undefined: a door that
   * lets a caller save without the right to start runs refuses such a save.
   */
  unattendedRunWithStoredEnvironment(tenantId: string, target: SavedTarget): Promise<string | undefined>;
  /** Starts an execution and answers at once with its record. */
  startExecution(request: StartExecutionRequest): Promise<ExecutionRecord>;
  /** Starts an execution and waits up to `waitMs` for its end; answers the execution with its steps. */
  runFlow(request: RunFlowRequest): Promise<ExecutionView>;
  getExecution(tenantId: string, executionId: string, options?: { steps?: boolean }): Promise<ExecutionView>;
  listExecutions(tenantId: string, query?: ListExecutionsQuery): Promise<Page<ExecutionView>>;
  waitForExecution(tenantId: string, executionId: string, timeoutMs: number): Promise<ExecutionView>;
  cancelExecution(tenantId: string, executionId: string): Promise<ExecutionView>;
  /**
   * Claims, once, every execution that needs a worker (orphaned by a dead process, or due) and
   * runs it here. With `includeWaits`, waits not yet due are taken too and held until they are.
   * Jobs whose process died are marked `JOB_INTERRUPTED` on the way (`jobs.recover`).
   */
  recover(options?: { includeWaits?: boolean }): Promise<string[]>;
  /** Becomes a worker: claims due and orphaned executions, and sweeps orphaned jobs, until `stop()`. */
  startWorker(): void;
  /** Settles when no execution and no job is running in this process. */
  drain(): Promise<void>;
  /**
   * Stops taking work, lets steps in flight commit and jobs end within `graceMs` (jobs still
   * running then are aborted and marked `JOB_INTERRUPTED`), closes the HTTP client and the default
   * sandbox's worker threads. The store stays open.
   */
  stop(options?: { graceMs?: number }): Promise<void>;
}

/**
 * Creates the engine over a store; HTTP client, clock, logger and sandbox are passed in or
 * defaulted, so the same engine runs embedded, under tests and on other stores.
 * @example
 * const engine = await createEngine({ store: openSqliteStore({ path: '.svc/svc.db' }) });
 * const flow = await engine.flows.create('default', document);
 * const execution = await engine.runFlow({ tenantId: 'default', flowId: flow.id, env: { baseUrl } });
 */
export async function createEngine(options: EngineOptions): Promise<Engine> {
  const clock = options.clock ?? systemClock;
  const logger = options.logger ?? silentLogger;
  const nodeTypes = createNodeRegistry([...BUILTIN_NODE_TYPES, ...(options.nodeTypes ?? [])]);
  const ownsHttp = options.http === undefined;
  const http = options.http ?? createUndiciHttpClient(options.egress === undefined ? {} : { egress: options.egress });
  const ownSandbox = options.sandbox === undefined ? await createQuickJsSandbox(options.sandboxOptions) : undefined;
  const sandbox: JsSandbox = options.sandbox ?? ownSandbox!;
  const resolver = createTemplateResolver();
  const store = options.store;
  const given = options.publicUrl ?? DEFAULT_PUBLIC_URL;
  // Read on use: `svc serve` on port 0 knows its address only once it listens.
  const publicUrl = typeof given === 'string' ? () => given : given;
  const callbacks = createCallbackWaits({ store, publicUrl });
  const executor = new Executor({
    store,
    registry: nodeTypes,
    clock,
    logger,
    run: {
      http,
      sandbox,
      resolve: (value, scope) => resolver.resolve(value, scope),
      callbacks,
      limits: {
        maxResponseBodyBytes: options.limits?.maxResponseBodyBytes ?? 10 * 1024 * 1024,
        maxTracedBodyBytes: options.limits?.maxTracedBodyBytes ?? 64 * 1024,
      },
    },
    leaseMs: options.leaseMs ?? 30_000,
    pollIntervalMs: options.pollIntervalMs ?? 500,
    maxConcurrentExecutions: options.maxConcurrentExecutions ?? 64,
    releaseWaitsLongerThanMs: options.releaseWaitsLongerThanMs ?? 5_000,
    releaseWaits: options.releaseWaits ?? false,
  });
  const jobs = createJobService({
    store,
    clock,
    logger,
    leaseMs: options.leaseMs ?? 30_000,
    maxConcurrentJobs: options.maxConcurrentJobs ?? 4,
  });
  const alertDispatcher = createAlertDispatcher({
    store,
    http,
    clock,
    logger,
    ...(options.alerts ? { options: options.alerts } : {}),
  });
  const health = createHealthService({ store, clock, logger, dispatcher: alertDispatcher, publicUrl });
  const suites = createSuiteService({
    store,
    clock,
    afterRun: (tenantId, suite, result) => health.recordRun(tenantId, suite, result),
    runFlow: (request) => executor.run(request, request.waitMs),
    cancelExecution: async (tenantId, id) => {
      await executor.cancel(tenantId, id);
      return executor.view(tenantId, id, { steps: false });
    },
  });

  const environments = createEnvironmentService(store);
  const webhooks = createWebhookService({
    store,
    clock,
    logger,
    sandbox,
    resolver,
    environments,
    callbacks,
    publicUrl,
    start: (request) => executor.start(request),
    callbackArrived: (target) => executor.callbackArrived(target),
  });

  const flows = createFlowService(store, nodeTypes);
  const schedules = createScheduleService({
    store,
    clock,
    logger,
    flows,
    suites,
    environments,
    startExecution: (request) => executor.start(request),
  });
  const scheduler = createScheduler({
    schedules,
    clock,
    logger,
    ...(options.schedulerIntervalMs === undefined ? {} : { intervalMs: options.schedulerIntervalMs }),
  });

  let stopping: Promise<void> | undefined;
  return {
    nodeTypes,
    flows,
    jobs,
    suites,
    health,
    environments,
    webhooks,
    schedules,
    scheduler,
    unattendedRunWithStoredEnvironment: (tenantId, target) =>
      unattendedRunWithStoredEnvironment(store, tenantId, target),
    startExecution: (request) => executor.start(request),
    runFlow: ({ waitMs, returnWhenWaiting, ...request }) =>
      executor.run(request, waitMs ?? 30_000, { returnWhenSuspended: returnWhenWaiting === true }),
    getExecution: (tenantId, id, viewOptions) => executor.view(tenantId, id, viewOptions),
    async listExecutions(tenantId, query) {
      const page = await store.executions.list(tenantId, query);
      return { items: page.items.map((record) => toExecutionView(record)), nextCursor: page.nextCursor };
    },
    async waitForExecution(tenantId, id, timeoutMs) {
      await executor.waitFor(tenantId, id, timeoutMs);
      return executor.view(tenantId, id);
    },
    async cancelExecution(tenantId, id) {
      await executor.cancel(tenantId, id);
      return executor.view(tenantId, id);
    },
    async recover(recoverOptions) {
      await jobs.recover();
      return executor.claimAndRun(recoverOptions?.includeWaits ? { dueBy: Number.MAX_SAFE_INTEGER } : {});
    },
    startWorker() {
      executor.startWorker();
      jobs.startSweeper();
      alertDispatcher.start();
    },
    async drain() {
      await Promise.all([executor.drain(), jobs.drain(), schedules.drain()]);
    },
    stop(stopOptions) {
      // Once: a second call (a test's cleanup after a test stopped it) waits for the first.
      stopping ??= (async () => {
        await scheduler.stop();
        await Promise.all([executor.stop(stopOptions), jobs.stop(stopOptions), alertDispatcher.stop(stopOptions)]);
        if (ownsHttp) await http.close();
        await ownSandbox?.dispose();
      })();
      return stopping;
    },
  };
}
