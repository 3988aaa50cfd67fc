import { assertJsonDepth } from '../model/json-depth.js';
import { BoundedMap } from '../bounded-map.js';
import type { Clock } from '../clock.js';
import { SvcError } from '../errors.js';
import type { Logger } from '../logger.js';
import type { FlowInput } from '../model/flow-schema.js';
import type { NodeRegistry } from '../nodes/registry.js';
import { TERMINAL_STATUSES, type ExecutionRecord, type Store, type StoredFlow } from '../store/types.js';
import { newExecutionRecord } from '../store/new-execution-record.js';
import { compileFlow, type CompiledFlow } from './compile-flow.js';
import { ExecutionRun, type ChildExecutions, type RunDependencies } from './execution-run.js';
import { toExecutionView, type ExecutionView } from './execution-view.js';
import { isDeadLocalOwner, newLeaseOwner } from './lease-owner.js';
import { secretKeysOf } from '../redaction.js';
import { uuidV7 } from './uuid-v7.js';
import { timerDelay } from '../timer-delay.js';

/** How deep subflows may nest: a flow that calls itself stops here instead of running forever. */
export const MAX_SUBFLOW_DEPTH = 8;

export interface StartExecutionRequest {
  /** The execution's id (a UUID) when the caller fixed it beforehand, as a schedule's claim does; else a new one. */
  id?: string;
  tenantId: string;
  flowId: string;
  /** A saved version to run; the current one when absent. */
  version?: number;
  /** The run's environment (`env.*`). */
  env?: Record<string, unknown>;
  /** Names in `env` to treat as secret, beside those whose names say so (token, secret, key…). */
  secretKeys?: string[];
  inputs?: Record<string, unknown>;
  trigger?: ExecutionRecord['trigger'];
  parentExecutionId?: string;
}

export interface ExecutorOptions {
  store: Store;
  registry: NodeRegistry;
  clock: Clock;
  logger: Logger;
  run: Omit<RunDependencies, 'store' | 'clock' | 'logger' | 'releaseWaitsLongerThanMs' | 'children'>;
  /** How long a claim on an execution holds without renewal. */
  leaseMs: number;
  /** How often a started worker looks for due or orphaned executions. */
  pollIntervalMs: number;
  /** Executions a worker runs at once; further runs wait as Queued. */
  maxConcurrentExecutions: number;
  /** A started worker releases waits longer than this to the store. */
  releaseWaitsLongerThanMs: number;
  /** Release them in a process that is not a worker too. */
  releaseWaits: boolean;
}

/**
 * Owns the executions running in this process: starts them, resumes them from the store,
 * renews their leases, and (once started as a worker) claims due and orphaned work.
 */
export class Executor {
  readonly owner = newLeaseOwner();
  private readonly active = new Map<string, ExecutionRun>();
  /** Compiled flow versions, about the 500 most recently used. */
  private readonly compiled = new BoundedMap<string, CompiledFlow>(500);
  private pollTimer: NodeJS.Timeout | undefined;
  private leaseTimer: NodeJS.Timeout | undefined;
  private callbackTimer: NodeJS.Timeout | undefined;
  /** Stops hearing the store's announcements of new work. */
  private stopListening: (() => void) | undefined;
  private polling = false;
  /** A claim was asked for while one ran: it runs again once that one ends. */
  private claimAgain = false;
  private stopping = false;
  private workerStarted = false;
  /**
   * Executions this process created Queued (it was at capacity), counted; and the count the last
   * claim that left nothing claimable had seen. While they differ, a run ending here claims at
   * once instead of leaving the queue to the next poll.
   */
  private queuedHere = 0;
  private queuedClaimed = 0;
  private claimScheduled = false;
  /** What every run shares (see `runDependencies`). */
  private dependencies: RunDependencies | undefined;

  /** Child executions (Subflow nodes): same tenant and environment, linked to their parent, nesting bounded. */
  private readonly children: ChildExecutions = {
    start: async (parent, request) => {
      const depth = (typeof parent.trigger.depth === 'number' ? parent.trigger.depth : 0) + 1;
      if (depth > MAX_SUBFLOW_DEPTH) {
        throw new SvcError(
          'SUBFLOW_DEPTH_EXCEEDED',
          `subflows nest at most ${MAX_SUBFLOW_DEPTH} deep; flow "${request.flowId}" would be level ${depth} (a flow calling itself?)`,
        );
      }
      const child = await this.start({
        tenantId: parent.tenantId,
        flowId: request.flowId,
        ...(request.version === undefined ? {} : { version: request.version }),
        env: parent.env,
        secretKeys: parent.secretKeys,
        inputs: request.inputs,
        trigger: { type: 'subflow', parentExecutionId: parent.id, depth },
        parentExecutionId: parent.id,
      });
      return child.id;
    },
    waitFor: async (tenantId, executionId, timeoutMs) => {
      const record = await this.waitFor(tenantId, executionId, timeoutMs);
      return {
        executionId,
        status: record.status,
        finished: TERMINAL_STATUSES.has(record.status),
        outputs: record.outputs,
        error: record.error,
      };
    },
  };

  constructor(private readonly options: ExecutorOptions) {}

  get activeCount(): number {
    return this.active.size;
  }

  /** The compiled flow version; the current version when none is named. Versions never change, so they are cached. */
  private async loadCompiled(tenantId: string, flowId: string, version?: number): Promise<CompiledFlow> {
    const { flows } = this.options.store;
    const wanted = version ?? (await flows.currentVersion(tenantId, flowId));
    if (wanted === undefined) throw new SvcError('FLOW_NOT_FOUND', `flow "${flowId}" not found`);
    const cached = this.compiled.get(`${tenantId}\u0000${flowId}\u0000${wanted}`);
    if (cached) return cached;
    const flow = await flows.getVersion(tenantId, flowId, wanted);
    if (!flow) throw new SvcError('FLOW_NOT_FOUND', `flow "${flowId}" has no version ${wanted}`);
    return this.compile(tenantId, flow);
  }

  private compile(tenantId: string, flow: StoredFlow): CompiledFlow {
    const key = `${tenantId}\u0000${flow.id}\u0000${flow.version}`;
    let compiled = this.compiled.get(key);
    if (!compiled) {
      compiled = compileFlow(flow, this.options.registry);
      this.compiled.set(key, compiled);
    }
    return compiled;
  }

  /**
   * Starts an execution and waits up to `waitMs` for its end. A run that finishes here answers
   * from what it committed, without reading its trace back from the store.
   */
  async run(
    request: StartExecutionRequest,
    waitMs: number,
    options: { returnWhenSuspended?: boolean } = {},
  ): Promise<ExecutionView> {
    // One deadline for the whole call: the wait is the caller's bound, not a bound per phase.
    const deadline = Date.now() + waitMs;
    const record = await this.start(request);
    const run = this.active.get(record.id);
    if (run) {
      const outcome = await withinMs(run.outcome, Math.max(0, deadline - Date.now()));
      if (outcome?.kind === 'finished') {
        const { record: finished, steps } = run.snapshot();
        return toExecutionView(finished, steps);
      }
      if (outcome?.kind === 'suspended' && options.returnWhenSuspended) return this.view(request.tenantId, record.id);
    }
    await this.waitFor(request.tenantId, record.id, Math.max(0, deadline - Date.now()));
    return this.view(request.tenantId, record.id);
  }

  /** Creates an execution and starts it in this process (Queued when the worker is at capacity). */
  async start(request: StartExecutionRequest): Promise<ExecutionRecord> {
    if (this.stopping)
      throw new SvcError('SHUTTING_DOWN', 'the engine is shutting down and takes no new executions', {
        retryable: true,
      });
    // Every door (REST, MCP, the command line) ends here: a run's values are walked later.
    assertJsonDepth(request.env, 'env');
    assertJsonDepth(request.inputs, 'inputs');
    const compiled = await this.loadCompiled(request.tenantId, request.flowId, request.version);
    const inputs = checkInputs(compiled.flow.inputs, request.inputs ?? {});
    const env = request.env ?? {};
    const now = this.options.clock.now();
    const runsHere = this.active.size < this.options.maxConcurrentExecutions;
    const record = newExecutionRecord({
      id: request.id ?? uuidV7(),
      tenantId: request.tenantId,
      flowId: compiled.flow.id,
      flowVersion: compiled.flow.version,
      flowName: compiled.flow.name,
      status: runsHere ? 'Running' : 'Queued',
      trigger: request.trigger ?? { type: 'api' },
      env,
      secretKeys: secretKeysOf(env, request.secretKeys),
      inputs,
      parentExecutionId: request.parentExecutionId ?? null,
      createdAt: now,
      startedAt: runsHere ? now : null,
      leaseOwner: runsHere ? this.owner : null,
      leaseExpiresAt: runsHere ? now + this.options.leaseMs : null,
    });
    await this.options.store.executions.create(record);
    if (runsHere) this.launch(record, compiled, 'start');
    else this.queuedHere += 1;
    return record;
  }

  /** What every run shares; built again when the worker starts (a worker releases long waits). */
  private runDependencies(): RunDependencies {
    this.dependencies ??= {
      ...this.options.run,
      store: this.options.store,
      clock: this.options.clock,
      logger: this.options.logger,
      releaseWaitsLongerThanMs:
        this.workerStarted || this.options.releaseWaits ? this.options.releaseWaitsLongerThanMs : Infinity,
      children: this.children,
    };
    return this.dependencies;
  }

  private launch(record: ExecutionRecord, compiled: CompiledFlow, mode: 'start' | 'resume'): ExecutionRun {
    const run = new ExecutionRun(this.runDependencies(), record, compiled);
    this.active.set(record.id, run);
    this.ensureLeaseRenewal();
    if (compiled.order.some((entry) => entry.awaitsCallback)) this.ensureCallbackWatch();
    void (mode === 'start' ? run.start() : run.resume());
    void run.outcome.then(() => {
      this.active.delete(record.id);
      if (this.active.size === 0) this.stopLeaseRenewal();
      if (this.queuedHere !== this.queuedClaimed) this.claimQueuedSoon();
    });
    return run;
  }

  /**
   * A worker that queued executions takes them as soon as it has room, rather than at its next
   * poll (up to `pollIntervalMs` later, during which a burst of work would wait with the worker
   * idle). Runs ending in one turn of the event loop share one claim.
   */
  private claimQueuedSoon(): void {
    if (!this.workerStarted || this.stopping || this.claimScheduled) return;
    this.claimScheduled = true;
    setImmediate(() => {
      this.claimScheduled = false;
      this.claimAndRun().catch((error: unknown) =>
        this.options.logger.error('claiming work failed', { error: String(error) }),
      );
    });
  }

  private ensureLeaseRenewal(): void {
    if (this.leaseTimer) return;
    this.leaseTimer = setInterval(
      () => {
        const until = this.options.clock.now() + this.options.leaseMs;
        this.options.store.executions.renewLeases(this.owner, until).catch((error: unknown) => {
          this.options.logger.error('lease renewal failed', { error: String(error) });
        });
      },
      // SVC_LEASE_MS may be any whole number: a lease of months still renews, at a timer's reach.
      timerDelay(Math.max(50, Math.floor(this.options.leaseMs / 3))),
    );
    this.leaseTimer.unref();
  }

  private stopLeaseRenewal(): void {
    if (this.leaseTimer) clearInterval(this.leaseTimer);
    this.leaseTimer = undefined;
    if (this.callbackTimer) clearInterval(this.callbackTimer);
    this.callbackTimer = undefined;
  }

  /** While runs that may wait for a callback are held here, look for callbacks stored by any process. */
  private ensureCallbackWatch(): void {
    if (this.callbackTimer) return;
    this.callbackTimer = setInterval(() => {
      this.wakeCallbackWaits().catch((error: unknown) =>
        this.options.logger.error('reading callbacks failed', { error: String(error) }),
      );
    }, this.options.pollIntervalMs);
    this.callbackTimer.unref();
  }

  /**
   * Claims executions that need a worker (free, expired, held by a dead process of this host,
   * or waiting on a wait now due) and runs them here. Answers the ids it took.
   */
  async claimAndRun(options: { dueBy?: number } = {}): Promise<string[]> {
    if (this.stopping) return [];
    if (this.polling) {
      this.claimAgain = true;
      return [];
    }
    this.polling = true;
    try {
      const capacity = this.options.maxConcurrentExecutions - this.active.size;
      if (capacity <= 0) return [];
      const queuedBefore = this.queuedHere;
      const owners = await this.options.store.executions.listLeaseOwners();
      const takeOverFrom = owners.filter((owner) => owner !== this.owner && isDeadLocalOwner(owner));
      const now = this.options.clock.now();
      const claimed = await this.options.store.executions.claim({
        owner: this.owner,
        now,
        leaseMs: this.options.leaseMs,
        limit: capacity,
        takeOverFrom,
        ...(options.dueBy === undefined ? {} : { dueBy: options.dueBy }),
      });
      // Fewer than it asked for: nothing queued before the claim is left (another process may have
      // taken some; the poll still finds whatever is queued later).
      if (claimed.length < capacity) this.queuedClaimed = queuedBefore;
      const taken: string[] = [];
      for (const record of claimed) {
        if (this.active.has(record.id)) continue;
        try {
          const compiled = await this.loadCompiled(record.tenantId, record.flowId, record.flowVersion);
          if (record.status === 'Queued') {
            const started = { ...record, status: 'Running' as const, startedAt: now };
            await this.options.store.executions.update(record.tenantId, record.id, {
              status: 'Running',
              startedAt: now,
            });
            this.launch(started, compiled, 'start');
          } else {
            this.launch(record, compiled, 'resume');
          }
          taken.push(record.id);
        } catch (error) {
          this.options.logger.error('could not resume execution', { executionId: record.id, error: String(error) });
          await this.options.store.executions.update(record.tenantId, record.id, {
            status: 'Failed',
            error: { code: 'RESUME_FAILED', message: error instanceof Error ? error.message : String(error) },
            endedAt: now,
            leaseOwner: null,
            leaseExpiresAt: null,
          });
        }
      }
      return taken;
    } finally {
      this.polling = false;
      if (this.claimAgain) {
        this.claimAgain = false;
        queueMicrotask(() => {
          this.claimAndRun().catch((error: unknown) =>
            this.options.logger.error('claiming work failed', { error: String(error) }),
          );
        });
      }
    }
  }

  /**
   * A callback for a wait was stored: a run of this process that holds the wait reads it now; a
   * run released to the store was made due by the store, and is claimed here at once.
   */
  async callbackArrived(target: { executionId: string; nodeId: string; scope: string }): Promise<void> {
    const run = this.active.get(target.executionId);
    if (run) {
      run.callbackArrived(target.nodeId, target.scope);
      return;
    }
    await this.claimAndRun();
  }

  /**
   * Wakes the waits of runs held here whose callback another process stored (it cannot reach
   * this process's timers); one query per poll, and only while a run here waits for a callback.
   */
  private async wakeCallbackWaits(): Promise<void> {
    const waiting = [...this.active.values()].filter((run) => run.awaitsCallback());
    if (waiting.length === 0) return;
    const deliveries = await this.options.store.webhooks.listDeliveries(waiting.map((run) => run.id));
    for (const delivery of deliveries)
      this.active.get(delivery.executionId)?.callbackArrived(delivery.nodeId, delivery.scope);
  }

  /** Polls for work every `pollIntervalMs` until `stop()`. */
  startWorker(): void {
    if (this.pollTimer) return;
    this.workerStarted = true;
    this.dependencies = undefined;
    const tick = () => {
      this.claimAndRun().catch((error: unknown) =>
        this.options.logger.error('claiming work failed', { error: String(error) }),
      );
    };
    tick();
    this.pollTimer = setInterval(tick, this.options.pollIntervalMs);
    this.pollTimer.unref();
    // Where the store announces new work (another process queued or let go a run), an idle
    // worker claims it at once; the poll stays as the fallback for announcements lost.
    this.stopListening = this.options.store.onWorkAvailable?.(() => this.claimQueuedSoon());
  }

  /** Settles when every execution running in this process has finished or suspended. */
  async drain(): Promise<void> {
    while (this.active.size > 0) await Promise.all([...this.active.values()].map((run) => run.outcome));
  }

  async waitFor(tenantId: string, id: string, timeoutMs: number): Promise<ExecutionRecord> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const record = await this.options.store.executions.get(tenantId, id);
      if (!record) throw new SvcError('EXECUTION_NOT_FOUND', `execution "${id}" not found`);
      const left = deadline - Date.now();
      if (TERMINAL_STATUSES.has(record.status) || left <= 0) return record;
      const run = this.active.get(id);
      // A local run settles `outcome`; a run elsewhere is polled.
      await (run ? withinMs(run.outcome, left) : withinMs(new Promise<never>(() => {}), Math.min(left, 100)));
    }
  }

  async view(tenantId: string, id: string, options: { steps?: boolean } = {}): Promise<ExecutionView> {
    const record = await this.options.store.executions.get(tenantId, id);
    if (!record) throw new SvcError('EXECUTION_NOT_FOUND', `execution "${id}" not found`);
    const steps = options.steps === false ? undefined : await this.options.store.executions.listSteps(tenantId, id);
    return toExecutionView(record, steps);
  }

  async cancel(tenantId: string, id: string): Promise<ExecutionRecord> {
    const record = await this.options.store.executions.get(tenantId, id);
    if (!record) throw new SvcError('EXECUTION_NOT_FOUND', `execution "${id}" not found`);
    if (TERMINAL_STATUSES.has(record.status)) return record;
    const run = this.active.get(id);
    if (run) {
      await run.cancel();
      await run.outcome;
    } else {
      const now = this.options.clock.now();
      await this.options.store.executions.update(tenantId, id, {
        status: 'Cancelled',
        error: { code: 'CANCELLED', message: 'the execution was cancelled' },
        endedAt: now,
        durationMs: Math.max(0, now - (record.startedAt ?? record.createdAt)),
        wakeAt: null,
        leaseOwner: null,
        leaseExpiresAt: null,
      });
    }
    return (await this.options.store.executions.get(tenantId, id))!;
  }

  /** Stops claiming work and lets the steps in flight commit; runs still waiting stay in the store. */
  async stop(options: { graceMs?: number } = {}): Promise<void> {
    this.stopping = true;
    this.stopListening?.();
    this.stopListening = undefined;
    if (this.pollTimer) clearInterval(this.pollTimer);
    this.pollTimer = undefined;
    const grace = new Promise<void>((resolve) => setTimeout(resolve, options.graceMs ?? 10_000).unref());
    await Promise.race([this.drain(), grace]);
    this.stopLeaseRenewal();
  }
}

/** The promise's value, or undefined when `ms` passes first; the timer never outlives the race. */
async function withinMs<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), timerDelay(ms));
    timer.unref();
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

function checkInputs(declared: Record<string, FlowInput>, given: Record<string, unknown>): Record<string, unknown> {
  const problems: string[] = [];
  const inputs: Record<string, unknown> = { ...given };
  for (const [name, spec] of Object.entries(declared)) {
    const value = given[name];
    if (value === undefined) {
      if (spec.default !== undefined) inputs[name] = spec.default;
      else if (spec.required) problems.push(`input "${name}" is required`);
      continue;
    }
    const actual = Array.isArray(value) ? 'array' : value === null ? 'null' : typeof value;
    if (spec.type !== 'any' && actual !== spec.type)
      problems.push(`input "${name}" must be ${spec.type}, got ${actual}`);
  }
  if (problems.length > 0) throw new SvcError('INVALID_INPUTS', problems.join('; '), { details: { problems } });
  return inputs;
}
