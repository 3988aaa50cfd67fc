import { isSvcError, type SvcError } from '../../errors.js';
import type { HttpRequest, HttpResponse } from '../../http/types.js';
import { type Assertion, type EndpointConfig, endpointConfigSchema } from '../../model/configs/endpoint-config.js';
import type { ErrorInfo } from '../../store/types.js';
import type { NodeContext, NodeOutput, NodeResult, NodeTypeDefinition, StepTrace } from '../types.js';
import { describeFailures, evaluateAssertions } from './assertions.js';
import { buildRequest } from './build-request.js';
import { exchange } from './exchange.js';
import { isPollingState, planPolling, poll, type PollingPlan, startPolling } from './polling.js';
import { type ResolvedEndpoint, resolveEndpointConfig } from './resolve-config.js';
import { nextAttemptAt, TRANSIENT_CODES } from './retry-policy.js';
import { traceAssertions } from './trace.js';

export function failed(
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
  assertions: readonly Assertion[];
  request: HttpRequest;
  response: HttpResponse;
  /** `describeFailures` of the assertion results; empty when all passed. */
  failures: string;
  redact: (text: string) => string;
}): ErrorInfo | undefined {
  const { assertions, request, response, failures, redact } = options;
  // Without an opinion on the status, an error status fails the step; a statusCode assertion
  // takes that decision over, so that a test can expect a 404.
  const decidesStatus = assertions.some((assertion) => assertion.target === 'statusCode');
  if (!decidesStatus && response.status >= 400) {
    // The status is the root cause; failed body assertions are usually its consequence.
    const answered = `${request.method} ${request.url} answered ${response.status}`;
    return { code: 'HTTP_ERROR_STATUS', message: redact(failures === '' ? answered : `${answered}; ${failures}`) };
  }
  if (failures !== '') return { code: 'ASSERTION_FAILED', message: redact(failures) };
  return undefined;
}

async function execute(context: NodeContext<EndpointConfig>): Promise<NodeResult> {
  const polling = context.config.polling?.enabled ? context.config.polling : undefined;
  if (polling !== undefined && isPollingState(context.resume?.state)) return poll(context, polling);

  let prepared: ReturnType<typeof prepare>;
  let plan: PollingPlan | undefined;
  try {
    // Polling durations are read before the submit: a bad one must not leave a job started.
    if (polling !== undefined) plan = planPolling(polling, (value) => context.resolve(value));
    prepared = prepare(context);
  } catch (error) {
    if (!isSvcError(error)) throw error;
    return failed({ code: error.code, message: context.redact(error.message) });
  }
  const { resolved, request, sentBody } = prepared;
  const { redact } = context;

  const sent = await exchange(context, { request, bodyValue: resolved.body, sentBody });
  if (!sent.ok) {
    return networkFailure(context, resolved, sent.error, { request: sent.requestTrace, latencyMs: sent.latencyMs });
  }
  const { response, output, latencyMs, responseTrace } = sent;
  // With polling, the assertions judge the last status response, not the submit.
  const assertions = plan === undefined ? resolved.assertions : [];
  const results = evaluateAssertions(assertions, {
    statusCode: response.status,
    latencyMs,
    headers: response.headers,
    body: output.body,
  });
  if (results.length > 0)
    responseTrace.assertions = traceAssertions(results, context.limits.maxTracedBodyBytes, redact);
  const trace: StepTrace = { request: sent.requestTrace, response: responseTrace, latencyMs };

  const error = judge({ assertions, request, response, failures: describeFailures(results), redact });
  if (error === undefined) {
    if (plan !== undefined)
      return startPolling(context, plan, { output, request: sent.requestTrace, response: responseTrace, latencyMs });
    return { kind: 'completed', output, handles: ['out'], trace };
  }

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
    'Calls an HTTP endpoint (method, URL, query, headers, JSON/text/form body, timeout), checks assertions on the response, and retries with backoff on chosen statuses or network errors; optional polling of a job.',
  configSchema: endpointConfigSchema,
  outputHandles: () => ['out', 'error'],
  selfFields: [['polling', 'request']],
  execute,
};
