import { EXECUTION_STATUSES, type ErrorInfo, type ExecutionView, type StepView } from '@svc/engine';
import { z } from 'zod';
import { MAX_STEP_BODY_CHARS } from './limits.js';

const errorInfoSchema = z.object({
  code: z.string().describe('e.g. ASSERTION_FAILED, HTTP_ERROR_STATUS, NETWORK_ERROR, TIMEOUT'),
  message: z.string(),
  nodeId: z.string().optional(),
  nodeName: z.string().optional(),
});

const bodyFields = {
  body: z.unknown().optional().describe(`The body; past ${MAX_STEP_BODY_CHARS} characters of JSON, a cut text`),
  bodyTruncated: z.boolean().optional(),
};

export const stepResultSchema = z.object({
  seq: z.number().describe('Order in which the step was recorded, from 1'),
  nodeId: z.string(),
  nodeName: z.string(),
  nodeType: z.string(),
  scope: z.string().describe('Loop scope, e.g. ForItems[2]; empty at the top level'),
  attempt: z.number().describe('1 for the first try; higher for retries'),
  status: z.string().describe('Completed, Failed, Skipped or Waiting'),
  statusCode: z.number().nullable().describe('HTTP status of the response, when the step made a request'),
  latencyMs: z.number().nullable(),
  startedAt: z.string(),
  endedAt: z.string().nullable(),
  error: errorInfoSchema.nullable(),
  skipKind: z.string().nullable().describe('condition: a branch not taken; failure: not run because the execution failed'),
  branch: z.string().nullable().describe('Switch: the label of the branch taken'),
  wakeAt: z.string().nullable().describe('A waiting step, or a failed attempt to be retried: when it runs next'),
  request: z.object({ method: z.string(), url: z.string(), ...bodyFields }).nullable().describe('The request as sent, secrets redacted'),
  response: z.object({ status: z.number(), ...bodyFields }).nullable(),
  output: z.unknown().optional().describe('What later nodes read from a step that made no request (e.g. variables)'),
  childExecutionId: z.string().optional().describe('Subflow: the child execution; read it with svc_get_execution'),
});

export const executionResultSchema = z.object({
  executionId: z.string().describe('UUID; the executionId of svc_get_execution'),
  status: z.enum(EXECUTION_STATUSES),
  durationMs: z.number().nullable(),
  nodesExecuted: z.number(),
  nodesSkipped: z.number(),
  stepsExecuted: z.number().describe('Node runs, retries included'),
  flowId: z.string(),
  flowName: z.string(),
  flowVersion: z.number(),
  createdAt: z.string(),
  startedAt: z.string().nullable(),
  endedAt: z.string().nullable(),
  error: errorInfoSchema.nullable().describe('Why the execution failed, with the failing node'),
  outputs: z.record(z.string(), z.unknown()).nullable().describe("The flow's declared outputs, once it completed"),
  steps: z.array(stepResultSchema).describe('The trace, one entry per node run'),
});

export type StepResult = z.infer<typeof stepResultSchema>;
export type ExecutionResult = z.infer<typeof executionResultSchema>;

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

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
  return { method: request.method, url: request.url, ...body, ...(request.bodyTruncated === true ? { bodyTruncated: true } : {}) };
}

function responseOf(step: StepView): StepResult['response'] {
  const response = step.response;
  if (!isObject(response) || typeof response.status !== 'number') return null;
  const body = fit(response.body);
  return { status: response.status, ...body, ...(response.bodyTruncated === true ? { bodyTruncated: true } : {}) };
}

export function toStepResult(step: StepView): StepResult {
  const response = responseOf(step);
  const output = response === null && step.output !== null && step.output !== undefined ? fit(step.output).body : undefined;
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
    ...(output === undefined ? {} : { output }),
    ...(isObject(step.response) && typeof step.response.childExecutionId === 'string' ? { childExecutionId: step.response.childExecutionId } : {}),
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
    steps: (execution.steps ?? []).map(toStepResult),
  };
}
