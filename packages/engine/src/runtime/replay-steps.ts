import type { NodeOutput } from '../nodes/types.js';
import type { ErrorInfo, StepRecord } from '../store/types.js';
import type { CompiledFlow } from './compile-flow.js';
import { markDone, type Frame } from './frame.js';
import type { LoopStepState } from './loop-driver.js';

/** Committed steps by scope (`''`, `Orders[2]`, …), each list in commit order. */
export function groupStepsByScope(steps: readonly StepRecord[]): Map<string, StepRecord[]> {
  const byScope = new Map<string, StepRecord[]>();
  for (const step of steps) {
    const list = byScope.get(step.scope);
    if (list) list.push(step);
    else byScope.set(step.scope, [step]);
  }
  return byScope;
}

/** What replaying a frame's steps changes beyond the frame itself. */
export interface ReplayEffects {
  /** Variables the replayed steps set, merged in commit order. */
  setVariables: Record<string, unknown> | undefined;
  /** The first failure that no error wire routed, which ends the run. */
  failure: ErrorInfo | undefined;
}

/**
 * Puts a frame's nodes back in the state their committed steps left them in: done, skipped, or
 * waiting (a wait or a retry, due at the step's `wakeAt`). A resumed run never runs a node whose
 * step is committed again; a loop's step keeps what its gatherers published.
 */
export function replayFrame(
  frame: Frame,
  steps: readonly StepRecord[],
  compiled: CompiledFlow,
  now: () => number,
): ReplayEffects {
  const effects: ReplayEffects = { setVariables: undefined, failure: undefined };
  for (const step of steps) {
    const entry = compiled.byId.get(step.nodeId);
    const state = frame.states.get(step.nodeId);
    if (!entry || !state) continue;
    state.attempt = step.attempt;
    switch (step.status) {
      case 'Completed': {
        markDone(state, (step.output ?? {}) as NodeOutput, step.handles);
        const kept = step.state as ({ setVariables?: Record<string, unknown> } & LoopStepState) | null;
        if (kept?.setVariables) effects.setVariables = { ...effects.setVariables, ...kept.setVariables };
        for (const [name, output] of Object.entries(kept?.exports ?? {})) frame.exports.set(name, output);
        break;
      }
      case 'Failed':
        if (step.wakeAt !== null) {
          state.status = 'waiting';
          state.wakeAt = step.wakeAt;
          state.attempt = step.attempt + 1;
          state.resume = undefined;
        } else {
          markDone(state, (step.output ?? {}) as NodeOutput, step.handles);
          if (!entry.routesErrors && effects.failure === undefined)
            effects.failure = { ...step.error!, nodeId: entry.node.id, nodeName: entry.node.name };
        }
        break;
      case 'Skipped':
        state.status = 'skipped';
        break;
      case 'Waiting':
        state.status = 'waiting';
        state.wakeAt = step.wakeAt ?? now();
        state.resume = { state: step.state, stepId: step.id, seq: step.seq, startedAt: step.startedAt };
        break;
    }
  }
  return effects;
}
