import {
  stepNote,
  stepTitle,
  type DescribedStep,
  type ExecutionRecord,
  type StepRecord,
  type Store,
} from '@svc/engine';

/** What a command hears of a run while it goes on. */
export interface RunListener {
  /** An execution was created: the one the command started, then any child (Subflow) of it. */
  created(execution: ExecutionRecord): void;
  /** A step was committed: finished, or Waiting. */
  step(step: StepRecord): void;
}

type ExecutionRepository = Store['executions'];

/**
 * The store, with `listener` told of each execution it creates and each step once it is
 * committed: a command reports a step as it finishes, where the execution's view arrives only at
 * the end of the run.
 */
export function observeRuns(store: Store, listener: RunListener): Store {
  const executions = store.executions;
  const observed = forwardingProxy(executions, {
    create: async (record: ExecutionRecord) => {
      await executions.create(record);
      listener.created(record);
    },
    commitStep: async (step: StepRecord, patch: Parameters<ExecutionRepository['commitStep']>[1]) => {
      await executions.commitStep(step, patch);
      listener.step(step);
    },
  });
  return forwardingProxy(store, { executions: observed });
}

/** `target` with some members replaced; its own methods stay bound to it. */
function forwardingProxy<T extends object>(target: T, overrides: Record<string, unknown>): T {
  return new Proxy(target, {
    get(object, key) {
      if (typeof key === 'string' && Object.hasOwn(overrides, key)) return overrides[key];
      const value: unknown = Reflect.get(object, key, object);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(object) : value;
    },
  });
}

/**
 * Writes one line per finished step, as it finishes: `    3 CreateOrder  Completed 201  12 ms`.
 * Steps of a child execution (a Subflow's) are indented further; a Waiting step prints when its
 * wait starts, and again when it ends. A step that waits again and again (a polling endpoint,
 * one wait per poll) prints its first wait only, not a line per poll.
 */
export function createStepLinePrinter(write: (line: string) => void): RunListener {
  let rootExecutionId: string | undefined;
  /** Steps whose wait was printed and has not ended yet. */
  const waiting = new Set<string>();
  return {
    created(execution) {
      // The command starts one execution; every later one is a child of it.
      rootExecutionId ??= execution.id;
    },
    step(step) {
      if (step.status === 'Waiting') {
        if (waiting.has(step.id)) return;
        waiting.add(step.id);
      } else {
        waiting.delete(step.id);
      }
      const described = { ...step, wakeAt: step.wakeAt === null ? null : new Date(step.wakeAt).toISOString() };
      write(formatStepLine(described, step.executionId === rootExecutionId ? '  ' : '      '));
    },
  };
}

/** `    3 CreateOrder  Completed 201  12 ms  …`: a step's line, as it is printed when it finishes. */
export function formatStepLine(step: DescribedStep & { seq: number; latencyMs: number | null }, indent = '  '): string {
  const response = step.response as { status?: unknown } | null | undefined;
  const parts = [
    `${indent}${String(step.seq).padStart(3)} ${stepTitle(step)}`,
    typeof response?.status === 'number' ? `${step.status} ${response.status}` : step.status,
  ];
  if (step.latencyMs !== null) parts.push(`${Math.round(step.latencyMs)} ms`);
  const note = stepNote(step, { message: 120, url: 100 });
  if (note !== '') parts.push(note);
  return `${parts.join('  ')}\n`;
}
