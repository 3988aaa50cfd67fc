import { performance } from 'node:perf_hooks';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import type { Clock } from '../clock.js';
import { toErrorInfo } from '../errors.js';
import type { LoopPlan, NodeContext, NodeOutput, NodeResult } from '../nodes/types.js';
import type { ErrorInfo } from '../store/types.js';
import type { CompiledFlow, CompiledNode } from './compile-flow.js';
import { childScope, Frame, type NodeState } from './frame.js';

/**
 * A loop whose iterations answer at once (each awaits only settled promises) would hold the event
 * loop for all of them; it lets other work run after this much of its own.
 */
const LOOP_SLICE_MS = 10;

/** What a finished loop node keeps in its step, so that a resumed run need not run it again. */
export interface LoopStepState {
  exports?: Record<string, NodeOutput>;
}

/** A node's result, or a loop's completion with what its gatherers published. */
export type RecordedResult =
  | NodeResult
  | {
      kind: 'completed';
      output: NodeOutput;
      handles: string[];
      loopState?: LoopStepState;
      trace?: undefined;
      setVariables?: undefined;
    };

export interface RecordTiming {
  startedAt: number;
  latencyMs: number;
  resume: NodeState['resume'];
}

/** What a loop needs of the run that drives it. */
export interface LoopHost {
  compiled: CompiledFlow;
  clock: Clock;
  /** True once the run finished or suspended: an iteration left unfinished then gathers nothing. */
  isSettled(): boolean;
  /** Why no further iteration may start (the run's failure, or its cancellation), else null. */
  stopReason(): ErrorInfo | null;
  context(frame: Frame, entry: CompiledNode, state: NodeState): NodeContext<unknown>;
  /** Adds an iteration's frame to the run (replaying its committed steps) and starts its ready nodes. */
  openIteration(iteration: Frame): void;
  breakHolds(condition: string, iteration: Frame): Promise<boolean>;
  recordResult(
    frame: Frame,
    entry: CompiledNode,
    state: NodeState,
    result: RecordedResult,
    timing: RecordTiming,
  ): Promise<void>;
}

/**
 * Runs a loop node: its body once per iteration, each in a frame of its own, `concurrency` at a
 * time; then publishes what the body's gatherers collected and completes on `D`. A resumed
 * loop replays the iterations already committed instead of running them again.
 */
export async function driveLoop(host: LoopHost, frame: Frame, entry: CompiledNode, state: NodeState): Promise<void> {
  const startedAt = host.clock.now();
  const started = performance.now();
  let plan: LoopPlan;
  try {
    plan = entry.definition.loop!.plan(host.context(frame, entry, state));
  } catch (error) {
    await host.recordResult(
      frame,
      entry,
      state,
      { kind: 'failed', error: toErrorInfo(error) },
      { startedAt, latencyMs: 0, resume: undefined },
    );
    return;
  }
  const body = host.compiled.levels.get(entry.node.id) ?? [];
  const gatherers = body.filter((member) => member.definition.aggregate !== undefined);
  const gathered = new Map<string, NodeOutput[]>(gatherers.map((member) => [member.node.id, []]));
  let next = 0;
  let ran = 0;
  let stopped = false;
  let failedAt: { index: number } | undefined;

  const runIteration = async (index: number) => {
    const iteration = new Frame(childScope(frame, entry.node.name, index), body, frame, {
      entry,
      alias: entry.definition.loop!.alias,
      index,
      context: plan.contextAt(index),
    });
    host.openIteration(iteration);
    await iteration.finished;
    // A run that suspended or ended left this iteration unfinished: nothing to gather.
    if (host.isSettled()) return;
    ran += 1;
    if (host.stopReason() !== null) {
      failedAt ??= { index };
      return;
    }
    for (const member of gatherers) {
      const output = iteration.states.get(member.node.id)!.output;
      if (output) gathered.get(member.node.id)![index] = output;
    }
    if (plan.breakWhen !== undefined && (await host.breakHolds(plan.breakWhen, iteration))) stopped = true;
  };

  let sliceStarted = performance.now();
  await Promise.all(
    Array.from({ length: Math.min(plan.concurrency, plan.total) }, async () => {
      while (!stopped && next < plan.total && host.stopReason() === null && !host.isSettled()) {
        const index = next;
        next += 1;
        await runIteration(index);
        if (performance.now() - sliceStarted >= LOOP_SLICE_MS) {
          await yieldToEventLoop();
          sliceStarted = performance.now();
        }
      }
    }),
  );
  if (host.isSettled()) return;
  const stopReason = host.stopReason();
  if (failedAt !== undefined || stopReason !== null) {
    const cause = stopReason ?? { code: 'CANCELLED', message: 'the execution was cancelled' };
    const error = {
      code: 'LOOP_FAILED',
      message: `iteration ${failedAt?.index ?? next} of ${entry.node.name} did not complete: ${cause.code}: ${cause.message}`,
    };
    await host.recordResult(
      frame,
      entry,
      state,
      { kind: 'failed', error },
      { startedAt, latencyMs: performance.now() - started, resume: undefined },
    );
    return;
  }
  const exports: Record<string, NodeOutput> = {};
  for (const member of gatherers) {
    exports[member.node.name] = member.definition.aggregate!(
      member.config,
      gathered.get(member.node.id)!.filter(Boolean),
    );
  }
  for (const [name, output] of Object.entries(exports)) frame.exports.set(name, output);
  const output: NodeOutput = { body: { total: plan.total, iterations: ran, stopped } };
  await host.recordResult(
    frame,
    entry,
    state,
    gatherers.length > 0
      ? { kind: 'completed', output, handles: ['D'], loopState: { exports } }
      : { kind: 'completed', output, handles: ['D'] },
    { startedAt, latencyMs: Math.round((performance.now() - started) * 1000) / 1000, resume: undefined },
  );
}
