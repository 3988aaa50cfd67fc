import { EXECUTION_STATUSES, type ErrorInfo, type ExecutionView, type StepView } from '@svc/engine';
import { z } from 'zod';
import { MAX_STEP_BODY_CHARS } from './limits.js';

const errorInfoSchema = z.object({
  code: z.string(),
  message: z.string(),
  nodeId: z.string().optional(),
  nodeName: z.string().optional(),
});

const bodyFields = {
  body: z.unknown().optional(),
  bodyTruncated: z.boolean().optional(),
};

const assertionResultSchema = z.object({
  target: z.string(),
  operator: z.string(),
  expected: z.unknown().optional(),
  actual: z.unknown().optional(),
  passed: z.boolean(),
});

export const stepResultSchema = z.object({
  seq: z.number(),
  nodeId: z.string(),
  nodeName: z.string(),
  nodeType: z.string(),
  scope: z.string(),
  attempt: z.number(),
  status: z.string(),
  statusCode: z.number().nullable(),
  latencyMs: z.number().nullable(),
  startedAt: z.string(),
  endedAt: z.string().nullable(),
  error: errorInfoSchema.nullable(),
  skipKind: z.string().nullable(),
  branch: z.string().nullable(),
  wakeAt: z.string().nullable(),
  request: z.object({ method: z.string(), url: z.string(), ...bodyFields }).nullable(),
  response: z.object({ status: z.number(), ...bodyFields }).nullable(),
  assertions: z.array(assertionResultSchema).optional(),
  output: z.unknown().optional(),
  childExecutionId: z.string().optional(),
});

/** What a Waiting execution waits for: a webhook callback (with the URL that resumes it) or a timer. */
export const waitResultSchema = z.object({
  nodeName: z.string(),
  scope: z.string(),
  kind: z.enum(['callback', 'timer']),
  until: z.string().nullable(),
  callbackUrl: z.string().optional(),
});

export const executionResultSchema = z.object({
  executionId: z.string(),
  status: z.enum(EXECUTION_STATUSES),
  durationMs: z.number().nullable(),
  nodesExecuted: z.number(),
  nodesSkipped: z.number(),
  stepsExecuted: z.number(),
  flowId: z.string(),
  flowName: z.string(),
  flowVersion: z.number(),
  createdAt: z.string(),
  startedAt: z.string().nullable(),
  endedAt: z.string().nullable(),
  error: errorInfoSchema.nullable(),
  outputs: z.record(z.string(), z.unknown()).nullable(),
  waits: z.array(waitResultSchema).optional(),
  steps: z.array(stepResultSchema),
});

export type StepResult = z.infer<typeof stepResultSchema>;
export type ExecutionResult = z.infer<typeof executionResultSchema>;

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A value as tool output shows it: itself when small, else the start of its JSON with a marker. */
function fit(value: unknown): { body?: unknown; bodyTruncated?: boolean } {
  if (value === undefined) return {};
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  if (text === undefined || text.length <= MAX_STEP_BODY_CHARS) return { body: value };
  return { body: `${text.slice(0, MAX_STEP_BODY_CHARS)}…[truncated: ${text.length} characters]`, bodyTruncated: true };
}

function errorInfo(error: ErrorInfo | null | undefined): ExecutionResult['error'] {
  if (!error) return null;
  return {
    code: error.code,
    message: error.message,
    ...(error.nodeId === undefined ? {} : { nodeId: error.nodeId }),
    ...(error.nodeName === undefined ? {} : { nodeName: error.nodeName }),
  };
}

function requestOf(step: StepView): StepResult['request'] {
  const request = step.request;
  if (!isObject(request) || typeof request.method !== 'string' || typeof request.url !== 'string') return null;
  const body = fit(request.body);
  return {
    method: request.method,
    url: request.url,
    ...body,
    ...(request.bodyTruncated === true ? { bodyTruncated: true } : {}),
  };
}

function assertionsOf(step: StepView): StepResult['assertions'] {
  const response = step.response;
  if (!isObject(response) || !Array.isArray(response.assertions)) return undefined;
  return response.assertions.filter(isObject).map((assertion) => ({
    target: String(assertion.target),
    operator: String(assertion.operator),
    ...(assertion.expected === undefined ? {} : { expected: fit(assertion.expected).body }),
    ...(assertion.actual === undefined ? {} : { actual: fit(assertion.actual).body }),
    passed: assertion.passed === true,
  }));
}

function responseOf(step: StepView): StepResult['response'] {
  const response = step.response;
  if (!isObject(response) || typeof response.status !== 'number') return null;
  const body = fit(response.body);
  return { status: response.status, ...body, ...(response.bodyTruncated === true ? { bodyTruncated: true } : {}) };
}

export function toStepResult(step: StepView): StepResult {
  const response = responseOf(step);
  const assertions = assertionsOf(step);
  const output =
    response === null && step.output !== null && step.output !== undefined ? fit(step.output).body : undefined;
  return {
    seq: step.seq,
    nodeId: step.nodeId,
    nodeName: step.nodeName,
    nodeType: step.nodeType,
    scope: step.scope ?? '',
    attempt: step.attempt,
    status: step.status,
    statusCode: response?.status ?? null,
    latencyMs: step.latencyMs ?? null,
    startedAt: step.startedAt,
    endedAt: step.endedAt ?? null,
    error: errorInfo(step.error),
    skipKind: step.skipKind ?? null,
    branch: step.branch ?? null,
    wakeAt: step.wakeAt ?? null,
    request: requestOf(step),
    response,
    ...(assertions === undefined ? {} : { assertions }),
    ...(output === undefined ? {} : { output }),
    ...(isObject(step.response) && typeof step.response.childExecutionId === 'string'
      ? { childExecutionId: step.response.childExecutionId }
      : {}),
  };
}

/** The execution as tools answer it: its summary and a trace cut to a size an assistant can read. */
export function toExecutionResult(execution: ExecutionView): ExecutionResult {
  return {
    executionId: execution.executionId,
    status: execution.status,
    durationMs: execution.durationMs ?? null,
    nodesExecuted: execution.nodesExecuted,
    nodesSkipped: execution.nodesSkipped,
    stepsExecuted: execution.stepsExecuted,
    flowId: execution.flowId,
    flowName: execution.flowName,
    flowVersion: execution.flowVersion,
    createdAt: execution.createdAt,
    startedAt: execution.startedAt ?? null,
    endedAt: execution.endedAt ?? null,
    error: errorInfo(execution.error),
    outputs: execution.outputs ?? null,
    ...(execution.waits === undefined
      ? {}
      : {
          waits: execution.waits.map((wait) => ({
            nodeName: wait.nodeName,
            scope: wait.scope,
            kind: wait.kind,
            until: wait.until,
            ...(wait.callbackUrl === undefined ? {} : { callbackUrl: wait.callbackUrl }),
          })),
        }),
    steps: (execution.steps ?? []).map(toStepResult),
  };
}

/**
 * What the tools' output schemas promise of an execution: its summary, and per step the fields a
 * client keys on. Answers carry every field of `executionResultSchema`; the schema stays short
 * because a client reads every tool's schemas into its context.
 */
export const executionOutputViewSchema = z.looseObject({
  executionId: z.string(),
  status: z.enum(EXECUTION_STATUSES),
  durationMs: z.number().nullable(),
  steps: z.array(z.looseObject({ nodeName: z.string(), status: z.string() })),
});
