import { createRedactor, redactDeep, type Redactor } from '../redaction.js';
import { expandResponse } from './step-response.js';
import { isoTime } from './iso-time.js';
import {
  TERMINAL_STATUSES,
  type ErrorInfo,
  type ExecutionRecord,
  type ExecutionStatus,
  type StepRecord,
} from '../store/types.js';

/**
 * One step of an execution's trace, as clients read it: the stored step (`StepRecord`, whose
 * fields say what each means) without what only the store needs, its id as `stepId` and its
 * times as ISO strings.
 */
export type StepView = Pick<
  StepRecord,
  | 'seq'
  | 'nodeId'
  | 'nodeName'
  | 'nodeType'
  | 'scope'
  | 'attempt'
  | 'status'
  | 'latencyMs'
  | 'request'
  | 'response'
  | 'output'
  | 'error'
  | 'skipKind'
  | 'branch'
> & {
  stepId: string;
  startedAt: string;
  endedAt: string | null;
  /** For a waiting step: when it is due; for a failed attempt that will be retried: when. */
  wakeAt: string | null;
};

/** An execution as clients read it: the spec's fields first, then the trace. */
export interface ExecutionView {
  executionId: string;
  status: ExecutionStatus;
  durationMs: number | null;
  nodesExecuted: number;
  nodesSkipped: number;
  stepsExecuted: number;
  flowId: string;
  flowName: string;
  flowVersion: number;
  trigger: ExecutionRecord['trigger'];
  parentExecutionId: string | null;
  createdAt: string;
  startedAt: string | null;
  endedAt: string | null;
  error: ErrorInfo | null;
  /** The flow's declared outputs, once it completed. */
  outputs: Record<string, unknown> | null;
  /** What a Waiting execution waits for (with its steps only). */
  waits?: WaitView[];
  steps?: StepView[];
}

/** One wait of an execution: a webhook callback, a delay, a polling sleep or a retry backoff. */
export interface WaitView {
  nodeId: string;
  nodeName: string;
  scope: string;
  /** `callback`: until a verified POST to `callbackUrl`; `timer`: until `until`. */
  kind: 'callback' | 'timer';
  /** When the wait ends on its own (a callback wait's timeout). */
  until: string | null;
  callbackUrl?: string;
}

function waitsOf(steps: readonly StepRecord[]): WaitView[] {
  return steps
    .filter((step) => step.status === 'Waiting')
    .map((step) => {
      const callbackUrl = (step.request as { callbackUrl?: unknown } | null)?.callbackUrl;
      const callback = step.nodeType === 'component-webhook' && typeof callbackUrl === 'string';
      return {
        nodeId: step.nodeId,
        nodeName: step.nodeName,
        scope: step.scope,
        kind: callback ? 'callback' : 'timer',
        until: iso(step.wakeAt),
        ...(callback ? { callbackUrl } : {}),
      };
    });
}

const iso = (ms: number | null): string | null => (ms === null ? null : isoTime(ms));

export function toStepView(step: StepRecord, redact: Redactor = createRedactor({}, [])): StepView {
  const output = redactDeep(step.output, redact);
  return {
    stepId: step.id,
    seq: step.seq,
    nodeId: step.nodeId,
    nodeName: step.nodeName,
    nodeType: step.nodeType,
    scope: step.scope,
    attempt: step.attempt,
    status: step.status,
    startedAt: iso(step.startedAt)!,
    endedAt: iso(step.endedAt),
    latencyMs: step.latencyMs,
    request: step.request,
    response: expandResponse(step.response, output),
    output,
    error: step.error === null ? null : { ...step.error, message: redact(step.error.message) },
    skipKind: step.skipKind,
    branch: step.branch,
    wakeAt: iso(step.wakeAt),
  };
}

/**
 * Distinct nodes that ran and that were skipped, and node runs (attempts), from a trace. A run
 * writes these onto the execution when it ends; while it goes on, they are counted here.
 */
export function countSteps(steps: readonly StepRecord[]): {
  nodesExecuted: number;
  nodesSkipped: number;
  stepsExecuted: number;
} {
  const executed = new Set<string>();
  const skipped = new Set<string>();
  let stepsExecuted = 0;
  for (const step of steps) {
    if (step.status === 'Completed' || step.status === 'Failed') {
      stepsExecuted += 1;
      // A failed attempt that will be retried has not finished its node yet.
      if (step.status === 'Completed' || step.wakeAt === null) executed.add(step.nodeId);
    } else if (step.status === 'Skipped') {
      skipped.add(step.nodeId);
    }
  }
  const nodesSkipped = [...skipped].filter((id) => !executed.has(id)).length;
  return { nodesExecuted: executed.size, nodesSkipped, stepsExecuted };
}

/**
 * What a client reads of an execution. A step's output is what later expressions read, so it is
 * kept with the real values; every view of it has the run's secret values replaced by `***`
 * (the request and response of the trace are redacted when written).
 */
export function toExecutionView(record: ExecutionRecord, steps?: StepRecord[]): ExecutionView {
  const redact = createRedactor(record.env, record.secretKeys);
  const counts = steps && !TERMINAL_STATUSES.has(record.status) ? countSteps(steps) : record;
  return {
    executionId: record.id,
    status: record.status,
    durationMs: record.durationMs,
    nodesExecuted: counts.nodesExecuted,
    nodesSkipped: counts.nodesSkipped,
    stepsExecuted: counts.stepsExecuted,
    flowId: record.flowId,
    flowName: record.flowName,
    flowVersion: record.flowVersion,
    // A webhook trigger's request is the trigger node's output, shown in its step; not repeated here.
    trigger: withoutRequest(record.trigger),
    parentExecutionId: record.parentExecutionId,
    createdAt: iso(record.createdAt)!,
    startedAt: iso(record.startedAt),
    endedAt: iso(record.endedAt),
    error: record.error === null ? null : { ...record.error, message: redact(record.error.message) },
    outputs: record.outputs === null ? null : (redactDeep(record.outputs, redact) as Record<string, unknown>),
    ...(steps && record.status === 'Waiting' ? { waits: waitsOf(steps) } : {}),
    ...(steps ? { steps: steps.map((step) => toStepView(step, redact)) } : {}),
  };
}

function withoutRequest(trigger: ExecutionRecord['trigger']): ExecutionRecord['trigger'] {
  if (!('request' in trigger)) return trigger;
  const { request: _request, ...rest } = trigger;
  return rest as ExecutionRecord['trigger'];
}
