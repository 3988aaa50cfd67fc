import { setMaxListeners } from 'node:events';
import { performance } from 'node:perf_hooks';
import type { Clock } from '../clock.js';
import { SvcError, toErrorInfo } from '../errors.js';
import type { ExpressionScope } from '../expressions/types.js';
import type { HttpClient } from '../http/types.js';
import type { Logger } from '../logger.js';
import type { JsSandbox, NodeContext, NodeOutput, NodeResult, StepTrace } from '../nodes/types.js';
import type { ErrorInfo, ExecutionPatch, ExecutionRecord, ExecutionStatus, SkipKind, StepRecord, Store } from '../store/types.js';
import type { CompiledFlow, CompiledNode } from './compile-flow.js';
import { createRedactor, redactDeep, type Redactor } from '../redaction.js';
import { compactResponse } from './step-response.js';

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
  /**
   * When every remaining node is waiting and the earliest wait is further away than this, the
   * run gives its lease back and leaves memory; a worker claims it again when it is due.
   * `Infinity` keeps every wait in this process.
   */
  releaseWaitsLongerThanMs: number;
}

/** How a run left this process: finished (terminal status), or suspended in the store. */
export type RunOutcome = { kind: 'finished'; status: ExecutionStatus } | { kind: 'suspended'; wakeAt: number };

type NodeStatus = 'pending' | 'running' | 'waiting' | 'done' | 'skipped';

interface NodeState {
  status: NodeStatus;
  attempt: number;
  handles: string[];
  output?: NodeOutput;
  /** Node-view exposed to expressions as `<Node>`, built once when the node is done. */
  view?: Record<string, unknown>;
  wakeAt?: number;
  /** Set while waiting on a `wait` result: the state to resume with and the step row to replace. */
  resume?: { state: unknown; stepId: string; seq: number; startedAt: number };
}

const TOP_SCOPE = '';

/**
 * Drives one execution of a compiled flow to its end, committing every finished step before
 * anything that depends on it starts. All of its state can be rebuilt from the store alone
 * (`resume`), so another process can take over after a crash.
 */
export class ExecutionRun {
  readonly id: string;
  private readonly states = new Map<string, NodeState>();
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private readonly abort = new AbortController();
  private readonly redact: Redactor;
  private readonly scope: ExpressionScope;
  private flowVars: Record<string, unknown> = {};
  private seq = 0;
  private running = 0;
  private pumping = false;
  private pumpAgain = false;
  private failure: ErrorInfo | null = null;
  private cancelled = false;
  private settled = false;
  private status: ExecutionStatus;
  private stepsExecuted = 0;
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
    // Every request in flight listens on this signal; a wide fan-out is not a leak.
    setMaxListeners(0, this.abort.signal);
    for (const entry of compiled.order) this.states.set(entry.node.id, { status: 'pending', attempt: 1, handles: [] });
    this.scope = {
      lookup: (root) => {
        if (root === 'flowVars') return this.flowVars;
        if (root === 'env') return this.record.env;
        if (root === 'execution') return { id: this.record.id, flowId: this.record.flowId, flowName: this.record.flowName };
        const entry = this.compiled.byName.get(root);
        return entry ? this.states.get(entry.node.id)!.view : undefined;
      },
      responseBinding: (name) => {
        const entry = this.compiled.byName.get(name);
        return entry ? this.states.get(entry.node.id)!.output : undefined;
      },
    };
  }

  /** Starts a new execution: initial variables, then the nodes with no incoming wires. */
  async start(): Promise<RunOutcome> {
    try {
      this.flowVars = {
        ...(this.deps.resolve(this.compiled.flow.variables, this.scope) as Record<string, unknown>),
        ...this.record.inputs,
      };
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
    this.flowVars = {
      ...(this.deps.resolve(this.compiled.flow.variables, this.scope) as Record<string, unknown>),
      ...this.record.inputs,
    };
    for (const step of steps) {
      this.committed.set(step.id, step);
      this.replay(step);
    }
    for (const [nodeId, state] of this.states) {
      if (state.status === 'waiting') this.scheduleWake(nodeId, state.wakeAt!);
    }
    void this.pump();
    return this.outcome;
  }

  /** Stops the run: in-flight requests are aborted, waits dropped, the execution ends Cancelled. */
  async cancel(): Promise<void> {
    if (this.settled) return;
    this.cancelled = true;
    this.abort.abort(new SvcError('CANCELLED', 'the execution was cancelled'));
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
    if (this.running === 0) await this.pump();
  }

  private replay(step: StepRecord): void {
    if (step.scope !== TOP_SCOPE) return;
    const entry = this.compiled.byId.get(step.nodeId);
    if (!entry) return;
    const state = this.states.get(step.nodeId)!;
    this.seq = Math.max(this.seq, step.seq);
    state.attempt = step.attempt;
    switch (step.status) {
      case 'Completed':
        this.stepsExecuted += 1;
        this.markDone(state, (step.output ?? {}) as NodeOutput, step.handles);
        this.applyVariables((step.state as { setVariables?: Record<string, unknown> } | null)?.setVariables);
        break;
      case 'Failed':
        this.stepsExecuted += 1;
        if (step.wakeAt !== null) {
          state.status = 'waiting';
          state.wakeAt = step.wakeAt;
          state.attempt = step.attempt + 1;
          state.resume = undefined;
        } else {
          this.markDone(state, (step.output ?? {}) as NodeOutput, step.handles);
          if (!entry.routesErrors && this.failure === null) this.failure = { ...step.error!, nodeId: entry.node.id, nodeName: entry.node.name };
        }
        break;
      case 'Skipped':
        state.status = 'skipped';
        break;
      case 'Waiting':
        state.status = 'waiting';
        state.wakeAt = step.wakeAt ?? this.deps.clock.now();
        state.resume = { state: step.state, stepId: step.id, seq: step.seq, startedAt: step.startedAt };
        break;
    }
  }

  private applyVariables(values: Record<string, unknown> | undefined): void {
    if (values) this.flowVars = { ...this.flowVars, ...values };
  }

  private markDone(state: NodeState, output: NodeOutput, handles: string[]): void {
    state.status = 'done';
    state.handles = handles;
    state.output = output;
    state.wakeAt = undefined;
    state.resume = undefined;
    state.view = { statusCode: output.statusCode, headers: output.headers, body: output.body, response: output };
  }

  /** 'run' when every incoming wire is settled and one is active; 'skip' when none is active. */
  private readiness(entry: CompiledNode): 'run' | 'skip' | 'blocked' {
    if (entry.incoming.length === 0) return 'run';
    let active = false;
    for (const wire of entry.incoming) {
      const source = this.states.get(wire.source)!;
      if (source.status === 'done') {
        if (source.handles.includes(wire.sourceHandle)) active = true;
      } else if (source.status !== 'skipped') {
        return 'blocked';
      }
    }
    return active ? 'run' : 'skip';
  }

  /**
   * Starts every node that became ready, records skips, and ends or suspends the run when
   * nothing is left to do. Re-entrant calls fold into one more pass.
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
          for (const entry of this.compiled.order) {
            const state = this.states.get(entry.node.id)!;
            if (state.status !== 'pending') continue;
            const readiness = this.readiness(entry);
            if (readiness === 'run') this.launch(entry, state);
            else if (readiness === 'skip') await this.commitSkip(entry, state, 'condition');
          }
        }
        await this.settleIfIdle();
      } while (this.pumpAgain && !this.settled);
    } catch (error) {
      this.deps.logger.error('execution run failed', { executionId: this.id, error: toErrorInfo(error) });
      if (!this.settled) await this.finish('Failed', { code: 'INTERNAL_ERROR', message: toErrorInfo(error).message }).catch(() => {});
    } finally {
      this.pumping = false;
    }
  }

  private async settleIfIdle(): Promise<void> {
    if (this.running > 0 || this.settled) return;
    if (this.cancelled || this.failure !== null) {
      for (const entry of this.compiled.order) {
        const state = this.states.get(entry.node.id)!;
        if (state.status === 'pending' || state.status === 'waiting') await this.commitSkip(entry, state, 'failure');
      }
      await this.finish(this.cancelled ? 'Cancelled' : 'Failed', this.cancelled ? { code: 'CANCELLED', message: 'the execution was cancelled' } : this.failure);
      return;
    }
    // Nothing runs and the pass before this started everything ready: nodes still pending wait
    // behind a waiting node, so the run is waiting, or else it is done.
    let earliestWake = Infinity;
    let pending = false;
    for (const state of this.states.values()) {
      if (state.status === 'pending') pending = true;
      else if (state.status === 'waiting') earliestWake = Math.min(earliestWake, state.wakeAt!);
    }
    if (earliestWake === Infinity) {
      if (!pending) await this.finish('Completed', null);
      return;
    }
    if (this.status !== 'Waiting') {
      this.status = 'Waiting';
      await this.deps.store.executions.update(this.record.tenantId, this.id, { status: 'Waiting', wakeAt: earliestWake });
    }
    if (earliestWake - this.deps.clock.now() > this.deps.releaseWaitsLongerThanMs) await this.suspend(earliestWake);
  }

  private async suspend(wakeAt: number): Promise<void> {
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
    this.settled = true;
    await this.deps.store.executions.update(this.record.tenantId, this.id, {
      status: 'Waiting',
      wakeAt,
      leaseOwner: null,
      leaseExpiresAt: null,
    });
    this.resolveOutcome({ kind: 'suspended', wakeAt });
  }

  private launch(entry: CompiledNode, state: NodeState): void {
    state.status = 'running';
    this.running += 1;
    void this.runNode(entry, state).finally(() => {
      this.running -= 1;
      void this.pump();
    });
  }

  private scheduleWake(nodeId: string, at: number): void {
    const delay = Math.max(0, at - this.deps.clock.now());
    const timer = setTimeout(() => {
      this.timers.delete(nodeId);
      const entry = this.compiled.byId.get(nodeId)!;
      const state = this.states.get(nodeId)!;
      if (this.settled || state.status !== 'waiting' || this.failure !== null || this.cancelled) return;
      this.launch(entry, state);
    }, delay);
    this.timers.set(nodeId, timer);
  }

  private async runNode(entry: CompiledNode, state: NodeState): Promise<void> {
    const { node } = entry;
    const resume = state.resume;
    const startedAt = resume?.startedAt ?? this.deps.clock.now();
    const started = performance.now();
    const context: NodeContext<unknown> = {
      execution: { id: this.id, tenantId: this.record.tenantId, flowId: this.record.flowId },
      node,
      config: entry.config,
      scope: TOP_SCOPE,
      attempt: state.attempt,
      ...(resume ? { resume: { state: resume.state } } : {}),
      resolve: (value) => this.deps.resolve(value, this.scope),
      expressionGlobals: () => this.expressionGlobals(),
      idempotencyKey: `${this.id}:${node.id}:${TOP_SCOPE}:${state.attempt}`,
      redact: this.redact,
      http: this.deps.http,
      sandbox: this.deps.sandbox,
      clock: this.deps.clock,
      limits: this.deps.limits,
      signal: this.abort.signal,
    };
    let result: NodeResult;
    try {
      result = await entry.definition.execute(context);
    } catch (error) {
      result = { kind: 'failed', error: toErrorInfo(error) };
    }
    const latencyMs = result.trace?.latencyMs ?? Math.round((performance.now() - started) * 1000) / 1000;
    if (this.settled) return;
    await this.recordResult(entry, state, result, { startedAt, latencyMs, resume });
  }

  /** Commits a node's result and moves its state; the step is stored before dependents start. */
  /**
   * Commits a node's result, then moves its state. Until the commit settles the node still counts
   * as running, so nothing that depends on it can start before its step is stored.
   */
  private async recordResult(
    entry: CompiledNode,
    state: NodeState,
    result: NodeResult,
    timing: { startedAt: number; latencyMs: number; resume: NodeState['resume'] },
  ): Promise<void> {
    const endedAt = this.deps.clock.now();
    const base = this.baseStep(entry, state, timing.resume, timing.startedAt, result.trace);
    if (result.kind === 'wait') {
      await this.commit({ ...base, status: 'Waiting', wakeAt: result.until, state: result.state ?? null }, { status: 'Running' });
      state.status = 'waiting';
      state.wakeAt = result.until;
      state.resume = { state: result.state ?? null, stepId: base.id, seq: base.seq, startedAt: timing.startedAt };
      this.scheduleWake(entry.node.id, result.until);
      return;
    }
    this.stepsExecuted += 1;
    const finished = {
      ...base,
      endedAt,
      latencyMs: timing.latencyMs,
      response: compactResponse(base.response, result.output),
      output: result.output ?? null,
    };
    if (result.kind === 'completed') {
      await this.commit(
        { ...finished, status: 'Completed', handles: result.handles, state: result.setVariables ? { setVariables: result.setVariables } : null },
        {},
      );
      this.markDone(state, result.output, result.handles);
      this.applyVariables(result.setVariables);
      return;
    }
    const error = { code: result.error.code, message: this.redact(result.error.message) };
    if (result.retryAt !== undefined && !this.cancelled) {
      await this.commit({ ...finished, status: 'Failed', error, wakeAt: result.retryAt }, {});
      state.status = 'waiting';
      state.wakeAt = result.retryAt;
      state.resume = undefined;
      state.attempt += 1;
      this.scheduleWake(entry.node.id, result.retryAt);
      return;
    }
    const handles = entry.routesErrors ? ['error'] : [];
    // Set at once, so that no further node starts while the failure is being stored.
    if (!entry.routesErrors && this.failure === null) this.failure = { ...error, nodeId: entry.node.id, nodeName: entry.node.name };
    await this.commit({ ...finished, status: 'Failed', error, handles }, {});
    this.markDone(state, result.output ?? {}, handles);
  }

  private baseStep(
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
      scope: TOP_SCOPE,
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

  private async commitSkip(entry: CompiledNode, state: NodeState, skipKind: SkipKind): Promise<void> {
    const resume = state.resume;
    state.status = 'skipped';
    state.resume = undefined;
    state.wakeAt = undefined;
    const now = this.deps.clock.now();
    const base = this.baseStep(entry, state, resume, resume?.startedAt ?? now, undefined);
    await this.commit({ ...base, status: 'Skipped', skipKind, endedAt: now }, {});
  }

  private counters(): Pick<ExecutionPatch, 'nodesExecuted' | 'nodesSkipped' | 'stepsExecuted'> {
    let nodesExecuted = 0;
    let nodesSkipped = 0;
    for (const state of this.states.values()) {
      if (state.status === 'done') nodesExecuted += 1;
      else if (state.status === 'skipped') nodesSkipped += 1;
    }
    return { nodesExecuted, nodesSkipped, stepsExecuted: this.stepsExecuted };
  }

  private async commit(step: StepRecord, patch: ExecutionPatch): Promise<void> {
    if (patch.status === 'Running' || (patch.status === undefined && this.status === 'Waiting')) {
      this.status = 'Running';
      patch = { ...patch, status: 'Running', wakeAt: null };
    }
    // Counters are written when the run ends; until then a view counts them from the steps.
    await this.deps.store.executions.commitStep(step, patch);
    this.committed.set(step.id, step);
    this.current = { ...this.current, ...patch };
  }

  /** The execution and its steps as this run committed them: what the store holds, without reading it. */
  snapshot(): { record: ExecutionRecord; steps: StepRecord[] } {
    return { record: this.current, steps: [...this.committed.values()].sort((a, b) => a.seq - b.seq) };
  }

  private async finish(status: ExecutionStatus, error: ErrorInfo | null): Promise<void> {
    if (this.settled) return;
    this.settled = true;
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
    const endedAt = this.deps.clock.now();
    const startedAt = this.record.startedAt ?? this.record.createdAt;
    this.status = status;
    const patch: ExecutionPatch = {
      status,
      error,
      endedAt,
      durationMs: Math.max(0, endedAt - startedAt),
      wakeAt: null,
      leaseOwner: null,
      leaseExpiresAt: null,
      ...this.counters(),
    };
    await this.deps.store.executions.update(this.record.tenantId, this.id, patch);
    this.current = { ...this.current, ...patch, updatedAt: endedAt };
    this.resolveOutcome({ kind: 'finished', status });
  }

  /** Plain data a sandboxed expression sees: `ResponseBinding`, `flowVars`, `env`, node names. */
  private expressionGlobals(): Record<string, unknown> {
    const bindings: Record<string, unknown> = {};
    const globals: Record<string, unknown> = {
      flowVars: this.flowVars,
      env: this.record.env,
      execution: { id: this.record.id, flowId: this.record.flowId, flowName: this.record.flowName },
      ResponseBinding: bindings,
    };
    for (const [name, entry] of this.compiled.byName) {
      const state = this.states.get(entry.node.id)!;
      if (state.status !== 'done') continue;
      bindings[name] = state.output;
      globals[name] = state.view;
    }
    return globals;
  }
}
