import { performance } from 'node:perf_hooks';
import type { Clock } from '../clock.js';
import { SvcError, toErrorInfo } from '../errors.js';
import type { ExpressionScope } from '../expressions/types.js';
import type { HttpClient } from '../http/types.js';
import type { Logger } from '../logger.js';
import type {
  ChildExecution,
  JsSandbox,
  NodeContext,
  NodeOutput,
  NodeResult,
  StepTrace,
  SubflowRunner,
} from '../nodes/types.js';
import { createRedactor, maskSecrets, redactDeep, type Redactor } from '../redaction.js';
import type {
  ErrorInfo,
  ExecutionPatch,
  ExecutionRecord,
  ExecutionStatus,
  SkipKind,
  StepRecord,
  Store,
} from '../store/types.js';
import type { CompiledFlow, CompiledNode } from './compile-flow.js';
import { Frame, markDone, type NodeState } from './frame.js';
import { countSteps } from './execution-view.js';
import { driveLoop, type LoopHost, type RecordedResult, type RecordTiming } from './loop-driver.js';
import { groupStepsByScope, replayFrame } from './replay-steps.js';
import { buildFrameScope, frameGlobals, withRoots, type ScopeSource } from './run-scope.js';
import { compactResponse } from './step-response.js';
import type { CallbackWaits } from '../webhooks/callback-waits.js';
import { timerDelay } from '../timer-delay.js';

export interface RunLimits {
  /** Largest response body read from the network, in bytes. */
  maxResponseBodyBytes: number;
  /** Largest body kept in a step's trace, in bytes; the node's output keeps the whole body. */
  maxTracedBodyBytes: number;
}

export interface RunDependencies {
  store: Store;
  http: HttpClient;
  clock: Clock;
  sandbox: JsSandbox;
  logger: Logger;
  resolve(value: unknown, scope: ExpressionScope): unknown;
  limits: RunLimits;
  /** Starts and follows child executions (Subflow nodes). */
  children: ChildExecutions;
  /** Callback URLs and received callbacks of webhook waits. */
  callbacks: CallbackWaits;
  /**
   * When every remaining node is waiting and the earliest wait is further away than this, the
   * run gives its lease back and leaves memory; a worker claims it again when it is due.
   * `Infinity` keeps every wait in this process.
   */
  releaseWaitsLongerThanMs: number;
}

/** What the executor offers a run for its child executions. */
export interface ChildExecutions {
  start(
    parent: ExecutionRecord,
    request: { flowId: string; version?: number; inputs: Record<string, unknown> },
  ): Promise<string>;
  waitFor(tenantId: string, executionId: string, timeoutMs: number): Promise<ChildExecution>;
}

/** How a run left this process: finished (terminal status), or suspended in the store. */
export type RunOutcome = { kind: 'finished'; status: ExecutionStatus } | { kind: 'suspended'; wakeAt: number };

/**
 * Drives one execution of a compiled flow to its end, committing every finished step before
 * anything that depends on it starts. The flow's top level is one frame; each iteration of a
 * loop runs the loop's body in a frame of its own (scope `Orders[2]`, nested `Orders[2]/Retries[0]`).
 * All of its state can be rebuilt from the store alone (`resume`), so another process can take
 * over after a crash, in the middle of a loop too.
 */
export class ExecutionRun {
  readonly id: string;
  private readonly top: Frame;
  /** Frames with work: the top level and the iterations under way, parents before children. */
  private readonly frames = new Set<Frame>();
  /** Steps read back on resume, by scope, applied when the frame of that scope opens. */
  private readonly replayed = new Map<string, StepRecord[]>();
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private readonly abort = new AbortController();
  private readonly redact: Redactor;
  private readonly subflows: SubflowRunner;
  /** The execution as its nodes see it. */
  private readonly executionRef: NodeContext<unknown>['execution'];
  /** Callback URLs by `scope\u0000nodeId`: a token is made once per wait. */
  private readonly callbackUrls = new Map<string, string>();
  /** On resume: the waits (`scope\u0000nodeId`) whose callback arrived while the run was out of memory. */
  private delivered = new Set<string>();
  /** What expressions read in each open frame, built on first use (see `scopeOf`). */
  private readonly scopes = new Map<Frame, ExpressionScope>();
  private readonly scopeSource: ScopeSource;
  private readonly loopHost: LoopHost;
  private flowVars: Record<string, unknown> = {};
  private seq = 0;
  /** Node executions in flight (loop drivers not counted). */
  private running = 0;
  /** Loop nodes driving their iterations. */
  private loopsRunning = 0;
  private pumping = false;
  private pumpAgain = false;
  private failure: ErrorInfo | null = null;
  private cancelled = false;
  private settled = false;
  private status: ExecutionStatus;
  /** Every step committed by or replayed into this run, by id (a waiting step is replaced in place). */
  private readonly committed = new Map<string, StepRecord>();
  /** The execution as last written by this run. */
  private current: ExecutionRecord;
  private resolveOutcome!: (outcome: RunOutcome) => void;
  /** Settles when the run finishes or suspends; never rejects. */
  readonly outcome: Promise<RunOutcome>;

  constructor(
    private readonly deps: RunDependencies,
    private readonly record: ExecutionRecord,
    private readonly compiled: CompiledFlow,
  ) {
    this.id = record.id;
    this.status = record.status;
    this.current = record;
    this.outcome = new Promise((resolve) => {
      this.resolveOutcome = resolve;
    });
    this.redact = createRedactor(record.env, record.secretKeys);
    this.executionRef = {
      id: record.id,
      tenantId: record.tenantId,
      flowId: record.flowId,
      trigger: record.trigger,
      inputs: record.inputs,
    };
    this.subflows = {
      start: (request) => deps.children.start(record, request),
      waitFor: (executionId, timeoutMs) => deps.children.waitFor(record.tenantId, executionId, timeoutMs),
    };
    this.top = new Frame('', compiled.levels.get(null)!, undefined, undefined);
    this.frames.add(this.top);
    this.scopeSource = {
      compiled,
      record,
      sandboxEnv: maskSecrets(record.env, record.secretKeys),
      flowVars: () => this.flowVars,
      callbackUrl: (entry, scope) => this.callbackUrl(entry.node.id, scope),
    };
    this.loopHost = {
      compiled,
      clock: deps.clock,
      isSettled: () => this.settled,
      stopReason: () =>
        this.failure ?? (this.cancelled ? { code: 'CANCELLED', message: 'the execution was cancelled' } : null),
      context: (frame, entry, state) => this.context(frame, entry, state),
      openIteration: (iteration) => {
        this.frames.add(iteration);
        this.replayInto(iteration);
        void this.pump();
      },
      breakHolds: (condition, iteration) => this.breakHolds(condition, iteration),
      recordResult: (frame, entry, state, result, timing) => this.recordResult(frame, entry, state, result, timing),
    };
  }

  /** Starts a new execution: initial variables, then the nodes with no incoming wires. */
  async start(): Promise<RunOutcome> {
    try {
      this.flowVars = this.initialVariables();
    } catch (error) {
      await this.finish('Failed', { ...toErrorInfo(error), message: `flow variables: ${toErrorInfo(error).message}` });
      return this.outcome;
    }
    void this.pump();
    return this.outcome;
  }

  /** Continues an execution from its committed steps (after a crash, or a released wait). */
  async resume(): Promise<RunOutcome> {
    const steps = await this.deps.store.executions.listSteps(this.record.tenantId, this.record.id);
    this.flowVars = this.initialVariables();
    for (const step of steps) {
      this.committed.set(step.id, step);
      this.seq = Math.max(this.seq, step.seq);
    }
    for (const [scope, list] of groupStepsByScope(steps)) this.replayed.set(scope, list);
    if (this.compiled.order.some((entry) => entry.awaitsCallback)) {
      const deliveries = await this.deps.store.webhooks.listDeliveries([this.id]);
      this.delivered = new Set(deliveries.map((delivery) => nodeKey(delivery.scope, delivery.nodeId)));
    }
    this.replayInto(this.top);
    void this.pump();
    return this.outcome;
  }

  /** Stops the run: in-flight requests are aborted, waits dropped, the execution ends Cancelled. */
  async cancel(): Promise<void> {
    if (this.settled) return;
    this.cancelled = true;
    this.abort.abort(new SvcError('CANCELLED', 'the execution was cancelled'));
    this.clearTimers();
    if (this.running === 0) await this.pump();
  }

  private initialVariables(): Record<string, unknown> {
    return {
      ...(this.deps.resolve(this.compiled.flow.variables, this.scopeOf(this.top)) as Record<string, unknown>),
      ...this.record.inputs,
    };
  }

  /** Applies the steps read back for a frame's scope, and sets the timers of its waits. */
  private replayInto(frame: Frame): void {
    const effects = replayFrame(frame, this.replayed.get(frame.scope) ?? [], this.compiled, () =>
      this.deps.clock.now(),
    );
    this.applyVariables(effects.setVariables);
    if (effects.failure !== undefined && this.failure === null) this.failure = effects.failure;
    this.replayed.delete(frame.scope);
    for (const entry of frame.nodes) {
      const state = frame.states.get(entry.node.id)!;
      if (state.status !== 'waiting') continue;
      // A wait whose callback came while the run was out of memory is due now.
      if (this.delivered.has(nodeKey(frame.scope, entry.node.id))) state.wakeAt = this.deps.clock.now();
      this.scheduleWake(frame, entry, state.wakeAt!);
    }
  }

  private callbackUrl(nodeId: string, scope: string): string {
    const key = nodeKey(scope, nodeId);
    let url = this.callbackUrls.get(key);
    if (url === undefined) {
      url = this.deps.callbacks.urlFor({ tenantId: this.record.tenantId, executionId: this.id, nodeId, scope });
      this.callbackUrls.set(key, url);
    }
    return url;
  }

  /** True while a webhook wait of this run waits for its callback. */
  awaitsCallback(): boolean {
    return !this.settled && this.waitingForCallback().size > 0;
  }

  /** The webhook waits (`scope\u0000nodeId`) waiting now, of the frames open (or just closed by a suspend). */
  private waitingForCallback(): Set<string> {
    const waiting = new Set<string>();
    for (const frame of this.frames) {
      for (const entry of frame.nodes) {
        if (entry.awaitsCallback && frame.states.get(entry.node.id)!.status === 'waiting')
          waiting.add(nodeKey(frame.scope, entry.node.id));
      }
    }
    return waiting;
  }

  /** A callback for the wait of `nodeId` in `scope` was stored: the wait reads it now. */
  callbackArrived(nodeId: string, scope: string): void {
    if (this.settled || this.failure !== null || this.cancelled) return;
    for (const frame of this.frames) {
      if (frame.scope !== scope) continue;
      const entry = this.compiled.byId.get(nodeId);
      const state = frame.states.get(nodeId);
      if (entry === undefined || state?.status !== 'waiting') return;
      const key = nodeKey(frame.scope, nodeId);
      clearTimeout(this.timers.get(key));
      this.timers.delete(key);
      state.wakeAt = this.deps.clock.now();
      this.launch(frame, entry, state);
      return;
    }
  }

  private applyVariables(values: Record<string, unknown> | undefined): void {
    if (values) this.flowVars = { ...this.flowVars, ...values };
  }

  /** What expressions in a frame read (see `buildFrameScope`), built once per open frame. */
  private scopeOf(frame: Frame): ExpressionScope {
    let scope = this.scopes.get(frame);
    if (scope === undefined) {
      scope = buildFrameScope(frame, this.scopeSource);
      this.scopes.set(frame, scope);
    }
    return scope;
  }

  private expressionGlobals(frame: Frame): Record<string, unknown> {
    return frameGlobals(frame, this.scopeSource);
  }

  /** 'run' when every incoming wire is settled and one is active; 'skip' when none is active. */
  private readiness(frame: Frame, entry: CompiledNode): 'run' | 'skip' | 'blocked' {
    if (entry.incoming.length === 0) return 'run';
    let active = false;
    for (const wire of entry.incoming) {
      const source = frame.states.get(wire.source);
      // A wire from outside the frame is the loop's `L`: it started this iteration.
      if (source === undefined) {
        active = true;
      } else if (source.status === 'done') {
        if (source.handles.includes(wire.sourceHandle)) active = true;
      } else if (source.status !== 'skipped') {
        return 'blocked';
      }
    }
    return active ? 'run' : 'skip';
  }

  /**
   * Starts every node that became ready, records skips, closes iterations that are done, and
   * ends or suspends the run when nothing is left to do. Re-entrant calls fold into one more pass.
   */
  private async pump(): Promise<void> {
    if (this.settled) return;
    if (this.pumping) {
      this.pumpAgain = true;
      return;
    }
    this.pumping = true;
    try {
      // A call that arrives while this one awaits (a node finishing meanwhile) sets `pumpAgain`;
      // settling is inside the loop so that such a call is never lost.
      do {
        this.pumpAgain = false;
        if (this.failure === null && !this.cancelled) {
          for (const frame of this.frames) {
            for (const entry of frame.nodes) {
              const state = frame.states.get(entry.node.id)!;
              if (state.status !== 'pending') continue;
              const readiness = this.readiness(frame, entry);
              if (readiness === 'run') this.launch(frame, entry, state);
              else if (readiness === 'skip') await this.commitSkip(frame, entry, state, 'condition');
            }
            if (frame !== this.top && frame.isSettled()) this.closeFrame(frame);
          }
        }
        // Mostly a node is still running: then there is nothing to settle, and no turn of the
        // microtask queue is spent finding that out.
        if (this.running === 0) await this.settleIfIdle();
      } while (this.pumpAgain && !this.settled);
    } catch (error) {
      this.deps.logger.error('execution run failed', { executionId: this.id, error: toErrorInfo(error) });
      if (!this.settled)
        await this.finish('Failed', { code: 'INTERNAL_ERROR', message: toErrorInfo(error).message }).catch(() => {});
    } finally {
      this.pumping = false;
    }
  }

  private closeFrame(frame: Frame): void {
    this.frames.delete(frame);
    this.scopes.delete(frame);
    frame.close();
  }

  private async settleIfIdle(): Promise<void> {
    if (this.running > 0 || this.settled) return;
    if (this.cancelled || this.failure !== null) {
      // Iterations under way end first (deepest first), so that their loops can record how
      // they ended; then the top level.
      for (const frame of [...this.frames].reverse()) {
        if (frame === this.top) continue;
        await this.skipRemaining(frame);
        this.closeFrame(frame);
      }
      if (this.loopsRunning > 0) return;
      await this.skipRemaining(this.top);
      // A wait whose callback never came ends the run TimedOut (unless its error handle is wired).
      const status = this.cancelled ? 'Cancelled' : this.failure?.code === 'WEBHOOK_TIMEOUT' ? 'TimedOut' : 'Failed';
      await this.finish(
        status,
        this.cancelled ? { code: 'CANCELLED', message: 'the execution was cancelled' } : this.failure,
      );
      return;
    }
    // Nothing runs and the pass before this started everything ready: nodes still pending wait
    // behind a waiting node or a loop, so the run is waiting, or going on, or done.
    let earliestWake = Infinity;
    let pending = false;
    for (const frame of this.frames) {
      for (const state of frame.states.values()) {
        if (state.status === 'pending' || state.status === 'running') pending = true;
        else if (state.status === 'waiting') earliestWake = Math.min(earliestWake, state.wakeAt!);
      }
    }
    if (earliestWake === Infinity) {
      if (!pending && this.loopsRunning === 0) await this.complete();
      return;
    }
    if (this.status !== 'Waiting') {
      this.status = 'Waiting';
      await this.deps.store.executions.update(this.record.tenantId, this.id, {
        status: 'Waiting',
        wakeAt: earliestWake,
      });
    }
    if (earliestWake - this.deps.clock.now() > this.deps.releaseWaitsLongerThanMs) await this.suspend(earliestWake);
  }

  private async skipRemaining(frame: Frame): Promise<void> {
    for (const entry of frame.nodes) {
      const state = frame.states.get(entry.node.id)!;
      if (state.status === 'pending' || state.status === 'waiting')
        await this.commitSkip(frame, entry, state, 'failure');
    }
  }

  private clearTimers(): void {
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
  }

  /** True when a callback is stored for one of this run's waiting webhook nodes. */
  private async callbackWaiting(): Promise<boolean> {
    const waiting = this.waitingForCallback();
    if (waiting.size === 0) return false;
    const deliveries = await this.deps.store.webhooks.listDeliveries([this.id]);
    return deliveries.some((delivery) => waiting.has(nodeKey(delivery.scope, delivery.nodeId)));
  }

  private async suspend(wakeAt: number): Promise<void> {
    this.clearTimers();
    this.settled = true;
    for (const frame of this.frames) frame.close();
    await this.deps.store.executions.update(this.record.tenantId, this.id, {
      status: 'Waiting',
      wakeAt,
      leaseOwner: null,
      leaseExpiresAt: null,
    });
    // A callback stored while this run still held its lease woke nothing in the store; now that
    // the run is released, make it due so that a worker takes it up with the callback.
    if (await this.callbackWaiting()) {
      await this.deps.store.executions.update(this.record.tenantId, this.id, { wakeAt: this.deps.clock.now() });
    }
    this.resolveOutcome({ kind: 'suspended', wakeAt });
  }

  private launch(frame: Frame, entry: CompiledNode, state: NodeState): void {
    state.status = 'running';
    if (entry.definition.loop) {
      this.loopsRunning += 1;
      void driveLoop(this.loopHost, frame, entry, state)
        .catch((error: unknown) => this.loopFailed(frame, entry, state, error))
        .finally(() => {
          this.loopsRunning -= 1;
          void this.pump();
        });
      return;
    }
    this.running += 1;
    void this.runNode(frame, entry, state).finally(() => {
      this.running -= 1;
      void this.pump();
    });
  }

  private async breakHolds(condition: string, iteration: Frame): Promise<boolean> {
    if (condition.includes('{{')) return isTrue(this.deps.resolve(condition, this.scopeOf(iteration)));
    return this.deps.sandbox.evaluateBoolean(condition, this.expressionGlobals(iteration));
  }

  /** A loop that threw (its break condition did not resolve, say) fails as its node. */
  private async loopFailed(frame: Frame, entry: CompiledNode, state: NodeState, error: unknown): Promise<void> {
    if (this.settled || state.status !== 'running') return;
    const now = this.deps.clock.now();
    await this.recordResult(
      frame,
      entry,
      state,
      { kind: 'failed', error: toErrorInfo(error) },
      { startedAt: now, latencyMs: 0, resume: undefined },
    );
  }

  private scheduleWake(frame: Frame, entry: CompiledNode, at: number): void {
    const key = nodeKey(frame.scope, entry.node.id);
    // A wait longer than a timer holds (about 24.8 days) wakes early, finds it is not due and waits again.
    const delay = timerDelay(at - this.deps.clock.now());
    const timer = setTimeout(() => {
      this.timers.delete(key);
      const state = frame.states.get(entry.node.id)!;
      if (this.settled || state.status !== 'waiting' || this.failure !== null || this.cancelled) return;
      this.launch(frame, entry, state);
    }, delay);
    this.timers.set(key, timer);
  }

  private context(frame: Frame, entry: CompiledNode, state: NodeState): NodeContext<unknown> {
    const scope = this.scopeOf(frame);
    const context: NodeContext<unknown> = {
      execution: this.executionRef,
      node: entry.node,
      config: entry.config,
      scope: frame.scope,
      attempt: state.attempt,
      resolve: (value, roots) => this.deps.resolve(value, roots === undefined ? scope : withRoots(scope, roots)),
      expressionGlobals: () => this.expressionGlobals(frame),
      idempotencyKey: `${this.id}:${entry.node.id}:${frame.scope}:${state.attempt}`,
      redact: this.redact,
      http: this.deps.http,
      sandbox: this.deps.sandbox,
      clock: this.deps.clock,
      limits: this.deps.limits,
      signal: this.abort.signal,
      subflows: this.subflows,
      callback: () => {
        const target = {
          tenantId: this.record.tenantId,
          executionId: this.id,
          nodeId: entry.node.id,
          scope: frame.scope,
        };
        return {
          url: this.callbackUrl(entry.node.id, frame.scope),
          received: async () => {
            const delivery = await this.deps.callbacks.find(target);
            return delivery && { body: delivery.body, headers: delivery.headers, receivedAt: delivery.receivedAt };
          },
        };
      },
    };
    if (state.resume) context.resume = { state: state.resume.state };
    return context;
  }

  private async runNode(frame: Frame, entry: CompiledNode, state: NodeState): Promise<void> {
    const resume = state.resume;
    const startedAt = resume?.startedAt ?? this.deps.clock.now();
    const started = performance.now();
    let result: NodeResult;
    try {
      result = await entry.definition.execute!(this.context(frame, entry, state));
    } catch (error) {
      result = { kind: 'failed', error: toErrorInfo(error) };
    }
    // A step that waited (a delay, a child execution) took from its first start to now.
    const latencyMs =
      result.trace?.latencyMs ??
      (resume
        ? Math.max(0, this.deps.clock.now() - startedAt)
        : Math.round((performance.now() - started) * 1000) / 1000);
    if (this.settled) return;
    await this.recordResult(frame, entry, state, result, { startedAt, latencyMs, resume });
  }

  /**
   * Commits a node's result, then moves its state. Until the commit settles the node still counts
   * as running, so nothing that depends on it can start before its step is stored.
   */
  private async recordResult(
    frame: Frame,
    entry: CompiledNode,
    state: NodeState,
    result: RecordedResult,
    timing: RecordTiming,
  ): Promise<void> {
    const endedAt = this.deps.clock.now();
    // A step record of this run's own making, filled in before anyone else sees it.
    const step = this.baseStep(frame, entry, state, timing.resume, timing.startedAt, result.trace);
    if (result.kind === 'wait') {
      step.status = 'Waiting';
      step.wakeAt = result.until;
      step.state = result.state ?? null;
      await this.commit(step, { status: 'Running' });
      state.status = 'waiting';
      state.wakeAt = result.until;
      state.resume = { state: result.state ?? null, stepId: step.id, seq: step.seq, startedAt: timing.startedAt };
      this.scheduleWake(frame, entry, result.until);
      return;
    }
    step.endedAt = endedAt;
    step.latencyMs = timing.latencyMs;
    step.response = compactResponse(step.response, result.output);
    step.output = result.output ?? null;
    if (result.kind === 'completed') {
      step.handles = result.handles;
      step.state =
        'loopState' in result && result.loopState
          ? result.loopState
          : result.setVariables
            ? { setVariables: result.setVariables }
            : null;
      if (this.isLastWork(frame)) {
        await this.commitLastStep(step, state, result.output, result.handles, result.setVariables);
        return;
      }
      await this.commit(step, NO_PATCH);
      markDone(state, result.output, result.handles);
      this.applyVariables(result.setVariables);
      return;
    }
    step.status = 'Failed';
    step.error = { code: result.error.code, message: this.redact(result.error.message) };
    if (result.retryAt !== undefined && !this.cancelled) {
      step.wakeAt = result.retryAt;
      await this.commit(step, NO_PATCH);
      state.status = 'waiting';
      state.wakeAt = result.retryAt;
      state.resume = undefined;
      state.attempt += 1;
      this.scheduleWake(frame, entry, result.retryAt);
      return;
    }
    const handles = entry.routesErrors ? ['error'] : [];
    step.handles = handles;
    // Set at once, so that no further node starts while the failure is being stored.
    if (!entry.routesErrors && this.failure === null)
      this.failure = { ...step.error, nodeId: entry.node.id, nodeName: entry.node.name };
    await this.commit(step, NO_PATCH);
    markDone(state, result.output ?? {}, handles);
  }

  private baseStep(
    frame: Frame,
    entry: CompiledNode,
    state: NodeState,
    resume: NodeState['resume'],
    startedAt: number,
    trace: StepTrace | undefined,
  ): StepRecord {
    const seq = resume?.seq ?? ++this.seq;
    return {
      id: resume?.stepId ?? `${this.id}:${seq}`,
      executionId: this.id,
      tenantId: this.record.tenantId,
      seq,
      nodeId: entry.node.id,
      nodeName: entry.node.name,
      nodeType: entry.node.type,
      scope: frame.scope,
      attempt: state.attempt,
      status: 'Completed',
      startedAt,
      endedAt: null,
      latencyMs: null,
      request: trace?.request === undefined ? null : redactDeep(trace.request, this.redact),
      response: trace?.response ?? null,
      output: null,
      handles: [],
      error: null,
      skipKind: null,
      branch: trace?.branch ?? null,
      wakeAt: null,
      state: null,
    };
  }

  private async commitSkip(frame: Frame, entry: CompiledNode, state: NodeState, skipKind: SkipKind): Promise<void> {
    const resume = state.resume;
    state.status = 'skipped';
    state.resume = undefined;
    state.wakeAt = undefined;
    const now = this.deps.clock.now();
    const step = this.baseStep(frame, entry, state, resume, resume?.startedAt ?? now, undefined);
    step.status = 'Skipped';
    step.skipKind = skipKind;
    step.endedAt = now;
    await this.commit(step, NO_PATCH);
  }

  /** Counted from the steps committed and replayed, the same way a view counts an unfinished run. */
  private counters(): Pick<ExecutionPatch, 'nodesExecuted' | 'nodesSkipped' | 'stepsExecuted'> {
    return countSteps([...this.committed.values()]);
  }

  private async commit(step: StepRecord, patch: ExecutionPatch): Promise<void> {
    if (patch.status === 'Running' || (patch.status === undefined && this.status === 'Waiting')) {
      this.status = 'Running';
      patch = { ...patch, status: 'Running', wakeAt: null };
    }
    // Counters are written when the run ends; until then a view counts them from the steps.
    await this.deps.store.executions.commitStep(step, patch);
    this.committed.set(step.id, step);
    if (patch !== NO_PATCH) this.current = { ...this.current, ...patch };
  }

  /**
   * Whether the node finishing in `frame` is the run's last work: every other node of the flow is
   * done or skipped, and nothing else runs, waits or loops. Its step then ends the run.
   */
  private isLastWork(frame: Frame): boolean {
    if (frame !== this.top || this.frames.size !== 1 || this.running !== 1 || this.loopsRunning !== 0) return false;
    if (this.failure !== null || this.cancelled || this.settled || this.timers.size > 0) return false;
    // Only the node finishing now is neither done nor skipped.
    let unfinished = 0;
    for (const other of frame.states.values()) {
      if (other.status !== 'done' && other.status !== 'skipped' && ++unfinished > 1) return false;
    }
    return unfinished === 1;
  }

  /**
   * Commits the run's last step and its end in one transaction: the run is Completed once that
   * step is stored, so the two need not be two commits. Flow outputs that do not resolve are left
   * to `complete`, which fails the run on them after the step is committed alone.
   */
  private async commitLastStep(
    step: StepRecord,
    state: NodeState,
    output: NodeOutput,
    handles: string[],
    setVariables: Record<string, unknown> | undefined,
  ): Promise<void> {
    // Nothing is left that could start on this node, so it is done before its step is stored:
    // the flow's outputs may read it.
    markDone(state, output, handles);
    this.applyVariables(setVariables);
    let outputs: Record<string, unknown> | null;
    try {
      outputs = this.resolveOutputs();
    } catch {
      await this.commit(step, NO_PATCH);
      return;
    }
    const patch = this.beginFinish(
      'Completed',
      null,
      outputs,
      countSteps([...new Map(this.committed).set(step.id, step).values()]),
    );
    await this.deps.store.executions.commitStep(step, patch);
    this.committed.set(step.id, step);
    this.endFinish(patch);
  }

  /** The execution and its steps as this run committed them: what the store holds, without reading it. */
  snapshot(): { record: ExecutionRecord; steps: StepRecord[] } {
    return { record: this.current, steps: [...this.committed.values()].sort((a, b) => a.seq - b.seq) };
  }

  /** Ends a run whose nodes all settled: its declared outputs are what a parent flow reads. */
  private async complete(): Promise<void> {
    let outputs: Record<string, unknown> | null;
    try {
      outputs = this.resolveOutputs();
    } catch (error) {
      await this.finish('Failed', {
        code: 'OUTPUTS_UNRESOLVED',
        message: `flow outputs: ${toErrorInfo(error).message}`,
      });
      return;
    }
    await this.finish('Completed', null, outputs);
  }

  /** The flow's declared outputs (null when it declares none); throws when one does not resolve. */
  private resolveOutputs(): Record<string, unknown> | null {
    const outputs = this.deps.resolve(this.compiled.flow.outputs, this.scopeOf(this.top)) as Record<string, unknown>;
    return Object.keys(outputs).length > 0 ? outputs : null;
  }

  private async finish(
    status: ExecutionStatus,
    error: ErrorInfo | null,
    outputs: Record<string, unknown> | null = null,
  ): Promise<void> {
    if (this.settled) return;
    const patch = this.beginFinish(status, error, outputs, this.counters());
    await this.deps.store.executions.update(this.record.tenantId, this.id, patch);
    this.endFinish(patch);
  }

  /** Settles the run in memory and answers the patch that ends its execution in the store. */
  private beginFinish(
    status: ExecutionStatus,
    error: ErrorInfo | null,
    outputs: Record<string, unknown> | null,
    counters: Pick<ExecutionPatch, 'nodesExecuted' | 'nodesSkipped' | 'stepsExecuted'>,
  ): ExecutionPatch {
    this.settled = true;
    this.clearTimers();
    for (const frame of this.frames) frame.close();
    const endedAt = this.deps.clock.now();
    const startedAt = this.record.startedAt ?? this.record.createdAt;
    this.status = status;
    return {
      status,
      error,
      outputs,
      endedAt,
      durationMs: Math.max(0, endedAt - startedAt),
      wakeAt: null,
      leaseOwner: null,
      leaseExpiresAt: null,
      ...counters,
    };
  }

  /** Once the end is stored: the run's record as committed, and its outcome. */
  private endFinish(patch: ExecutionPatch): void {
    this.current = { ...this.current, ...patch, updatedAt: patch.endedAt! };
    this.resolveOutcome({ kind: 'finished', status: patch.status! });
  }
}

/** One node in one loop scope: the key of its timer, its callback URL and its callback. */
function nodeKey(scope: string, nodeId: string): string {
  return `${scope}\u0000${nodeId}`;
}

/** The patch of a step that changes nothing on its execution. */
const NO_PATCH: ExecutionPatch = Object.freeze({});

/** A break condition holds when it yields true (or the text "true", from a mixed template). */
function isTrue(value: unknown): boolean {
  return value === true || value === 'true';
}
