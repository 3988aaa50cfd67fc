import { performance } from 'node:perf_hooks';
import { isSvcError, type SvcError } from '../../errors.js';
import type { HttpRequest, HttpResponse } from '../../http/types.js';
import { type EndpointConfig, endpointConfigSchema } from '../../model/configs/endpoint-config.js';
import type { ErrorInfo } from '../../store/types.js';
import type { NodeContext, NodeOutput, NodeResult, NodeTypeDefinition, StepTrace } from '../types.js';
import { describeFailures, evaluateAssertions } from './assertions.js';
import { buildRequest } from './build-request.js';
import { decodeBody } from './read-response.js';
import { type ResolvedEndpoint, resolveEndpointConfig } from './resolve-config.js';
import { nextAttemptAt } from './retry-policy.js';
import { type RequestTrace, traceAssertions, traceRequest, traceResponse } from './trace.js';

/** Failures a later attempt may not see: the request never got an answer. */
const TRANSIENT_CODES = new Set(['NETWORK_ERROR', 'TIMEOUT']);

function roundMs(ms: number): number {
  return Math.round(ms * 10) / 10;
}

function failed(
  error: ErrorInfo,
  extra: { output?: NodeOutput; trace?: StepTrace; retryAt?: number | undefined } = {},
): NodeResult {
  const result: NodeResult = { kind: 'failed', error };
  if (extra.output !== undefined) result.output = extra.output;
  if (extra.trace !== undefined) result.trace = extra.trace;
  if (extra.retryAt !== undefined) result.retryAt = extra.retryAt;
  return result;
}

function prepare(context: NodeContext<EndpointConfig>): {
  resolved: ResolvedEndpoint;
  request: HttpRequest;
  sentBody: string | undefined;
} {
  const resolved = resolveEndpointConfig(context.config, (value) => context.resolve(value));
  const { request, sentBody } = buildRequest({
    method: resolved.method,
    url: resolved.url,
    query: resolved.query,
    headers: resolved.headers,
    body: resolved.body,
    bodyType: resolved.bodyType,
    timeoutMs: resolved.timeoutMs,
    ...(resolved.idempotencyKey ? { idempotencyKey: context.idempotencyKey } : {}),
    maxBodyBytes: context.limits.maxResponseBodyBytes,
    signal: context.signal,
  });
  return { resolved, request, sentBody };
}

/** Why a response fails the node, or undefined when it passes. */
function judge(options: {
  resolved: ResolvedEndpoint;
  request: HttpRequest;
  response: HttpResponse;
  /** `describeFailures` of the assertion results; empty when all passed. */
  failures: string;
  redact: (text: string) => string;
}): ErrorInfo | undefined {
  const { resolved, request, response, failures, redact } = options;
  // Without an opinion on the status, an error status fails the step; a statusCode assertion
  // takes that decision over, so that a test can expect a 404.
  const decidesStatus = resolved.assertions.some((assertion) => assertion.target === 'statusCode');
  if (!decidesStatus && response.status >= 400) {
    // The status is the root cause; failed body assertions are usually its consequence.
    const answered = `${request.method} ${request.url} answered ${response.status}`;
    return { code: 'HTTP_ERROR_STATUS', message: redact(failures === '' ? answered : `${answered}; ${failures}`) };
  }
  if (failures !== '') return { code: 'ASSERTION_FAILED', message: redact(failures) };
  return undefined;
}

async function execute(context: NodeContext<EndpointConfig>): Promise<NodeResult> {
  let prepared: ReturnType<typeof prepare>;
  try {
    prepared = prepare(context);
  } catch (error) {
    if (!isSvcError(error)) throw error;
    return failed({ code: error.code, message: context.redact(error.message) });
  }
  const { resolved, request, sentBody } = prepared;
  const { maxTracedBodyBytes } = context.limits;
  const { redact } = context;
  const requestTrace: RequestTrace = traceRequest({
    request,
    bodyValue: resolved.body,
    sentBody,
    maxBytes: maxTracedBodyBytes,
    redact,
  });

  const started = performance.now();
  let response: HttpResponse;
  try {
    response = await context.http.send(request);
  } catch (error) {
    if (!isSvcError(error)) throw error;
    return networkFailure(context, resolved, error, {
      request: requestTrace,
      latencyMs: roundMs(performance.now() - started),
    });
  }

  const latencyMs = roundMs(response.latencyMs);
  const body = decodeBody(response.body, response.headers['content-type']);
  const output: NodeOutput = { statusCode: response.status, headers: response.headers, body };
  const results = evaluateAssertions(resolved.assertions, {
    statusCode: response.status,
    latencyMs,
    headers: response.headers,
    body,
  });

  const responseTrace = traceResponse({ response, decodedBody: body, maxBytes: maxTracedBodyBytes, redact });
  if (results.length > 0) responseTrace.assertions = traceAssertions(results, maxTracedBodyBytes, redact);
  const trace: StepTrace = { request: requestTrace, response: responseTrace, latencyMs };

  const error = judge({ resolved, request, response, failures: describeFailures(results), redact });
  if (error === undefined) return { kind: 'completed', output, handles: ['out'], trace };

  // Retry repeats a failed attempt; an expected status (a passing statusCode assertion) is not
  // retried even when it is listed in onStatuses.
  const retryAt = nextAttemptAt(
    resolved.retry,
    context.attempt,
    { kind: 'status', status: response.status, retryAfter: response.headers['retry-after'] },
    context.clock.now(),
  );
  return failed(error, { output, trace, retryAt });
}

function networkFailure(
  context: NodeContext<EndpointConfig>,
  resolved: ResolvedEndpoint,
  error: SvcError,
  trace: StepTrace,
): NodeResult {
  const info: ErrorInfo = { code: error.code, message: context.redact(error.message) };
  const retryAt = TRANSIENT_CODES.has(error.code)
    ? nextAttemptAt(resolved.retry, context.attempt, { kind: 'network' }, context.clock.now())
    : undefined;
  return failed(info, { trace, retryAt });
}

/**
 * The `endpoint` node: one HTTP request, judged by its assertions (or, without a statusCode
 * assertion, by its status), retried by the runtime when its retry policy says so.
 * @example
 * const config = endpointNode.configSchema.parse({ method: 'GET', url: '{{env.baseUrl}}/health',
 *   assertions: [{ target: 'body.status', operator: '==', value: 'HEALTHY' }] });
 * const result = await endpointNode.execute!({ ...context, config });
 */
export const endpointNode: NodeTypeDefinition<EndpointConfig> = {
  type: 'endpoint',
  description:
    'Calls an HTTP endpoint (method, URL, query, headers, JSON/text/form body, timeout), checks assertions on the response, and retries with backoff on chosen statuses or network errors.',
  configSchema: endpointConfigSchema,
  outputHandles: () => ['out', 'error'],
  execute,
};
