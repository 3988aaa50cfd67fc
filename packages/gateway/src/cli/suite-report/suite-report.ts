import type { ErrorInfo, ExecutionView, StepView, SuiteFlowResult, SuiteRunResult } from '@svc/engine';

/** How much of a request's or a response's body a report quotes: enough to see what went wrong. */
export const BODY_EXCERPT_CHARS = 2000;
/** How much of the headers a report quotes. */
export const HEADERS_EXCERPT_CHARS = 1000;

/** The step a flow failed at, with what it sent and what came back (bodies cut to an excerpt). */
export interface FailedStep {
  seq: number;
  nodeName: string;
  nodeType: string;
  /** Loop scope, e.g. `Orders[2]`; empty at the top level. */
  scope: string;
  attempt: number;
  latencyMs: number | null;
  request: { method: string | null; url: string | null; headers: string | null; body: string | null } | null;
  response: { status: number | null; headers: string | null; body: string | null } | null;
}

/** Why a flow failed: its error, and the step where it happened when it ran that far. */
export interface FlowFailure {
  error: ErrorInfo;
  step: FailedStep | null;
}

export interface ReportedFlow extends SuiteFlowResult {
  /** The flow file, for a suite file's flows (as the suite file resolves it); null for a saved suite's. */
  file: string | null;
  failure: FlowFailure | null;
}

/** A suite run as the reporters print it: the run's KPIs and per-flow results, each failure with its step. */
export interface SuiteReport extends Omit<SuiteRunResult, 'flows'> {
  /** Where it ran: `the embedded store`, or the service's address. */
  ranOn: string;
  /** The suite file, when the run was of one. */
  suiteFile: string | null;
  flows: ReportedFlow[];
}

/** A value as text, cut past `max` characters with a note of how much was left out. */
export function excerpt(value: unknown, max: number): string | null {
  if (value === undefined || value === null) return null;
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  if (text === undefined) return null;
  return text.length <= max ? text : `${text.slice(0, max)}… (${text.length - max} more characters)`;
}

const field = (value: unknown, key: string): unknown =>
  typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined;
const stringOrNull = (value: unknown) => (typeof value === 'string' ? value : null);

/** The failing step of an execution: the last failed attempt of the node its error names, else the last failed step. */
function failingStep(execution: ExecutionView): StepView | undefined {
  const failed = (execution.steps ?? []).filter((step) => step.status === 'Failed');
  const named = execution.error?.nodeName;
  const ofNode = named === undefined ? [] : failed.filter((step) => step.nodeName === named);
  return (ofNode.length > 0 ? ofNode : failed).at(-1);
}

/** A flow's failure from its result and, when it ran, its execution's trace (secrets already redacted there). */
export function failureOf(flow: SuiteFlowResult, execution: ExecutionView | undefined): FlowFailure | null {
  if (flow.status !== 'failed') return null;
  const error = flow.error ?? execution?.error ?? { code: 'FLOW_FAILED', message: 'the flow did not complete' };
  const step = execution === undefined ? undefined : failingStep(execution);
  if (step === undefined) return { error, step: null };
  const request = step.request;
  const response = step.response;
  return {
    error: step.error ?? error,
    step: {
      seq: step.seq,
      nodeName: step.nodeName,
      nodeType: step.nodeType,
      scope: step.scope,
      attempt: step.attempt,
      latencyMs: step.latencyMs,
      request:
        typeof request === 'object' && request !== null
          ? {
              method: stringOrNull(field(request, 'method')),
              url: stringOrNull(field(request, 'url')),
              headers: excerpt(field(request, 'headers'), HEADERS_EXCERPT_CHARS),
              body: excerpt(field(request, 'body'), BODY_EXCERPT_CHARS),
            }
          : null,
      response:
        typeof response === 'object' && response !== null
          ? {
              status: typeof field(response, 'status') === 'number' ? (field(response, 'status') as number) : null,
              headers: excerpt(field(response, 'headers'), HEADERS_EXCERPT_CHARS),
              body: excerpt(field(response, 'body'), BODY_EXCERPT_CHARS),
            }
          : null,
    },
  };
}

/**
 * The report of a run: each failed flow's trace is read (by `readExecution`) for its failing step.
 * A trace that cannot be read (a client without `flows:read`, say) leaves the failure without its
 * step rather than failing the report.
 */
export async function buildSuiteReport(
  run: SuiteRunResult,
  context: {
    ranOn: string;
    suiteFile?: string;
    files?: readonly (string | null)[];
    readExecution(executionId: string): Promise<ExecutionView>;
  },
): Promise<SuiteReport> {
  const flows = await Promise.all(
    run.flows.map(async (flow, index): Promise<ReportedFlow> => {
      let execution: ExecutionView | undefined;
      if (flow.status === 'failed' && flow.executionId !== null) {
        execution = await context.readExecution(flow.executionId).catch(() => undefined);
      }
      return { ...flow, file: context.files?.[index] ?? null, failure: failureOf(flow, execution) };
    }),
  );
  const { flows: _flows, ...kpis } = run;
  return { ...kpis, ranOn: context.ranOn, suiteFile: context.suiteFile ?? null, flows };
}
