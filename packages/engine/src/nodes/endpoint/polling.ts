import { isSvcError, SvcError } from '../../errors.js';
import type { EndpointConfig } from '../../model/configs/endpoint-config.js';
import { MAX_REQUEST_TIMEOUT_MS } from '../../model/configs/request-fields.js';
import {
  MAX_POLLING_DURATION_MS,
  MAX_POLLING_INTERVAL_MS,
  MIN_POLLING_INTERVAL_MS,
  type PollingConfig,
} from '../../model/configs/polling-config.js';
import { formatDuration } from '../../model/duration.js';
import { redactDeep } from '../../redaction.js';
import type { ErrorInfo } from '../../store/types.js';
import type { NodeContext, NodeOutput, NodeResult, StepTrace } from '../types.js';
import { describeFailures, evaluateAssertions, showValue } from './assertions.js';
import { buildRequest } from './build-request.js';
import { exchange } from './exchange.js';
import { decide, describeRule, describeSeen } from './polling-rules.js';
import { durationWithinMs, record, resolveAssertions, resolveRetryPolicy } from './resolve-config.js';
import { nextAttemptAt, type RetryReason, TRANSIENT_CODES } from './retry-policy.js';
import { type RequestTrace, type ResponseTrace, traceAssertions } from './trace.js';

/*
 * Endpoint polling, as a node that waits between its runs:
 *
 *   submit ──▶ wait (due now) ──▶ poll ──▶ stopWhen ───────────▶ completed (output: the status response)
 *                                  ▲  │──▶ continueWhen ──▶ wait one interval (or fail: POLLING_TIMEOUT)
 *                                  └──┘──▶ neither ───────▶ failed: POLLING_UNEXPECTED_STATE
 *
 * Every sleep is a `wait` result, which the runtime stores with its due time and `state`: the
 * polling outlives the process that started it, and each run of the node sends one request.
 */

/** The durations of a polling, resolved once, before the submit. */
export interface PollingPlan {
  intervalMs: number;
  maxDurationMs: number;
}

/** One status request, as the trace shows the first and the last. */
export interface PollRecord {
  /** 1 for the first status request. */
  attempt: number;
  at: string;
  status?: number;
  latencyMs: number;
  /** The value at each rule's target. */
  seen?: Record<string, unknown>;
  /** Why the request got no usable answer (it is retried per the node's retry settings). */
  error?: ErrorInfo;
}

/** What the node keeps across its sleeps (the waiting step's `state`). */
export interface PollingState {
  kind: 'polling';
  submit: { output: NodeOutput; request: RequestTrace; response: ResponseTrace; latencyMs: number };
  startedAt: number;
  deadline: number;
  intervalMs: number;
  maxDurationMs: number;
  /** Status requests sent. */
  polls: number;
  /** Status requests in a row that got no usable answer: the attempt count the retry settings limit. */
  failures: number;
  first?: PollRecord;
  last?: PollRecord;
}

export function isPollingState(value: unknown): value is PollingState {
  return typeof value === 'object' && value !== null && (value as { kind?: unknown }).kind === 'polling';
}

/** Resolves `interval` and `maxDuration` (templates allowed) and checks their bounds. */
export function planPolling(polling: PollingConfig, resolve: (value: unknown) => unknown): PollingPlan {
  return {
    intervalMs: durationWithinMs(
      resolve(polling.interval),
      'polling.interval',
      MIN_POLLING_INTERVAL_MS,
      MAX_POLLING_INTERVAL_MS,
    ),
    maxDurationMs: durationWithinMs(resolve(polling.maxDuration), 'polling.maxDuration', 1, MAX_POLLING_DURATION_MS),
  };
}

/**
 * After an accepted submit: the node waits, due at once. The submit is committed with that wait,
 * so a process that dies from here on polls the job it started instead of starting another.
 */
export function startPolling(
  context: NodeContext<EndpointConfig>,
  plan: PollingPlan,
  submit: PollingState['submit'],
): NodeResult {
  const now = context.clock.now();
  const state: PollingState = {
    kind: 'polling',
    submit,
    startedAt: now,
    deadline: now + plan.maxDurationMs,
    intervalMs: plan.intervalMs,
    maxDurationMs: plan.maxDurationMs,
    polls: 0,
    failures: 0,
  };
  return { kind: 'wait', until: now, state, trace: traceOf(state, now) };
}

/** What `self` reads in the status request: the submit response, shaped like any node's view. */
function selfOf(submit: NodeOutput): Record<string, unknown> {
  return { statusCode: submit.statusCode, headers: submit.headers, body: submit.body, response: submit };
}

const MAX_SEEN_CHARS = 200;

/** A value seen at a rule's target, fit for the trace: short values as they are, long ones cut. */
function fitSeen(seen: Record<string, unknown>, redact: NodeContext<unknown>['redact']): Record<string, unknown> {
  const fitted: Record<string, unknown> = {};
  for (const [target, value] of Object.entries(seen)) {
    const text = value === undefined ? undefined : JSON.stringify(value);
    fitted[target] =
      text === undefined ? null : text.length <= MAX_SEEN_CHARS ? redactDeep(value, redact) : redact(showValue(value));
  }
  return fitted;
}

/**
 * The step's trace: the submit request as the step's request; as its response the last status
 * response (the submit's before the first poll), with a `polling` summary: how many polls, the
 * first and the last, and the submit response. One row however long the polling lasts.
 */
function traceOf(
  state: PollingState,
  now: number,
  latest?: { request: RequestTrace; response?: ResponseTrace },
): StepTrace {
  const { submit } = state;
  const polling: Record<string, unknown> = {
    polls: state.polls,
    elapsedMs: Math.max(0, now - state.startedAt),
    intervalMs: state.intervalMs,
    maxDurationMs: state.maxDurationMs,
    submit: { ...submit.response, latencyMs: submit.latencyMs },
  };
  if (state.first !== undefined) polling.first = state.first;
  if (state.last !== undefined) polling.last = state.last;
  if (latest !== undefined) polling.request = latest.request;
  return { request: submit.request, response: { ...(latest?.response ?? submit.response), polling } };
}

interface PollOutcome {
  state: PollingState;
  now: number;
  latest?: { request: RequestTrace; response?: ResponseTrace };
  output?: NodeOutput;
}

function failedWith(error: ErrorInfo, outcome: PollOutcome): NodeResult {
  const result: NodeResult = { kind: 'failed', error, trace: traceOf(outcome.state, outcome.now, outcome.latest) };
  if (outcome.output !== undefined) result.output = outcome.output;
  return result;
}

function timedOut(context: NodeContext<EndpointConfig>, outcome: PollOutcome, lastSeen: string): NodeResult {
  const { state } = outcome;
  const message =
    `the job was not done after ${formatDuration(state.maxDurationMs)} of polling ` +
    `(${state.polls} status request${state.polls === 1 ? '' : 's'}; the last: ${lastSeen})`;
  return failedWith({ code: 'POLLING_TIMEOUT', message: context.redact(message) }, outcome);
}

/** Sleeps until the next poll, never past the deadline, where one last poll decides. */
function sleepUntil(at: number, outcome: PollOutcome): NodeResult {
  const until = Math.min(at, outcome.state.deadline);
  return { kind: 'wait', until, state: outcome.state, trace: traceOf(outcome.state, outcome.now, outcome.latest) };
}

/**
 * A status request without a usable answer (no answer, or an error status no rule expects):
 * another try when the node's retry settings cover it and time is left, else the node fails.
 */
function pollFailed(
  context: NodeContext<EndpointConfig>,
  outcome: PollOutcome,
  error: ErrorInfo,
  reason: RetryReason | undefined,
): NodeResult {
  const { config } = context;
  const failures = outcome.state.failures + 1;
  const state = { ...outcome.state, failures };
  let retryAt: number | undefined;
  if (reason !== undefined && config.retry !== undefined) {
    try {
      const policy = resolveRetryPolicy(config.retry, (value) => context.resolve(value));
      retryAt = nextAttemptAt(policy, failures, reason, outcome.now);
    } catch (problem) {
      if (!isSvcError(problem)) throw problem;
      return failedWith({ code: problem.code, message: context.redact(problem.message) }, { ...outcome, state });
    }
  }
  if (retryAt === undefined) return failedWith(error, { ...outcome, state });
  if (outcome.now >= state.deadline) return timedOut(context, { ...outcome, state }, `${error.code}: ${error.message}`);
  return sleepUntil(retryAt, { ...outcome, state });
}

function prepareStatusRequest(
  context: NodeContext<EndpointConfig>,
  polling: PollingConfig,
  state: PollingState,
): ReturnType<typeof buildRequest> & { body: unknown } {
  const { config } = context;
  const spec = context.resolve(polling.request, { self: selfOf(state.submit.output) }) as PollingConfig['request'];
  let url: unknown = spec.url;
  if (typeof url !== 'string' || url.trim() === '')
    throw new SvcError('VALIDATION_ERROR', 'polling.request.url must resolve to a non-empty string');
  if (!/^https?:\/\//i.test(url.trimStart())) {
    // A relative status URL (a `Location: /jobs/7` header) is read against the submit URL, as a
    // browser reads a redirect.
    const base = context.resolve(config.url);
    try {
      url = new URL(url, String(base)).href;
    } catch {
      throw new SvcError('INVALID_URL', `polling.request.url ${JSON.stringify(url)} is not a URL`);
    }
  }
  const built = buildRequest({
    method: spec.method,
    url: url as string,
    query: record(spec.query, 'polling.request.query'),
    headers: record(spec.headers, 'polling.request.headers'),
    body: spec.body,
    bodyType: spec.bodyType,
    timeoutMs: durationWithinMs(
      spec.timeout ?? context.resolve(config.timeout),
      'polling.request.timeout',
      0,
      MAX_REQUEST_TIMEOUT_MS,
    ),
    ...(config.idempotencyKey ? { idempotencyKey: `${context.idempotencyKey}:poll:${state.polls + 1}` } : {}),
    maxBodyBytes: context.limits.maxResponseBodyBytes,
    signal: context.signal,
  });
  return { ...built, body: spec.body };
}

/**
 * One run of a polling node after the submit: sends the status request once and decides
 * (complete, sleep and poll again, or fail) from the rules, the deadline and the retry settings.
 */
export async function poll(context: NodeContext<EndpointConfig>, polling: PollingConfig): Promise<NodeResult> {
  const previous = context.resume!.state as PollingState;
  const attempt = previous.polls + 1;
  const { redact } = context;
  let prepared: ReturnType<typeof prepareStatusRequest>;
  try {
    prepared = prepareStatusRequest(context, polling, previous);
  } catch (error) {
    if (!isSvcError(error)) throw error;
    return failedWith(
      { code: error.code, message: redact(`polling: ${error.message}`) },
      {
        state: previous,
        now: context.clock.now(),
      },
    );
  }
  const { request } = prepared;
  const at = context.clock.now();
  const sent = await exchange(context, { request, bodyValue: prepared.body, sentBody: prepared.sentBody });
  const now = context.clock.now();
  const where = `${request.method} ${request.url}`;

  if (!sent.ok) {
    // The client's message names the method and URL already.
    const error: ErrorInfo = { code: sent.error.code, message: redact(`polling: ${sent.error.message}`) };
    const entry: PollRecord = { attempt, at: new Date(at).toISOString(), latencyMs: sent.latencyMs, error };
    const state: PollingState = { ...previous, polls: attempt, first: previous.first ?? entry, last: entry };
    const outcome: PollOutcome = { state, now, latest: { request: sent.requestTrace } };
    return pollFailed(context, outcome, error, TRANSIENT_CODES.has(sent.error.code) ? { kind: 'network' } : undefined);
  }

  const { response, output, latencyMs, responseTrace } = sent;
  const subject = { statusCode: response.status, latencyMs, headers: response.headers, body: output.body };
  let decision: ReturnType<typeof decide>;
  let rules: Pick<PollingConfig, 'continueWhen' | 'stopWhen'>;
  try {
    // Rule values may be templates (`{{flowVars.doneState}}`); targets are plain paths.
    rules = context.resolve({ continueWhen: polling.continueWhen, stopWhen: polling.stopWhen }) as typeof rules;
    decision = decide(rules, subject);
  } catch (error) {
    if (!isSvcError(error)) throw error;
    return failedWith(
      { code: error.code, message: redact(error.message) },
      {
        state: previous,
        now,
        latest: { request: sent.requestTrace, response: responseTrace },
        output,
      },
    );
  }
  const entry: PollRecord = {
    attempt,
    at: new Date(at).toISOString(),
    status: response.status,
    latencyMs,
    seen: fitSeen(decision.seen, redact),
  };
  const polled: PollingState = { ...previous, polls: attempt, first: previous.first ?? entry, last: entry };
  const outcome: PollOutcome = {
    state: polled,
    now,
    latest: { request: sent.requestTrace, response: responseTrace },
    output,
  };

  // An error status is a failed poll unless a rule on statusCode expects it (a 404 that means
  // "gone, hence done", say); a rule on the body alone does not make a 500 page a job status.
  const decidesStatus = [...rules.continueWhen, ...rules.stopWhen].some((rule) => rule.target === 'statusCode');
  if (response.status >= 400 && !(decidesStatus && decision.matched)) {
    const error: ErrorInfo = {
      code: 'HTTP_ERROR_STATUS',
      message: redact(`polling ${where} answered ${response.status}`),
    };
    return pollFailed(context, outcome, error, {
      kind: 'status',
      status: response.status,
      retryAfter: response.headers['retry-after'],
    });
  }
  const state: PollingState = { ...polled, failures: 0 };
  const settled: PollOutcome = { ...outcome, state };

  switch (decision.kind) {
    case 'stop':
      return finish(context, settled, subject);
    case 'continue':
      if (now >= state.deadline)
        return timedOut(context, settled, describeSeen(decision.seen) || `status ${response.status}`);
      return sleepUntil(now + state.intervalMs, settled);
    case 'unexpected': {
      const expected = [
        `continueWhen ${rules.continueWhen.map(describeRule).join(' or ')}`,
        `stopWhen ${rules.stopWhen.map(describeRule).join(' or ')}`,
      ].join('; ');
      const message = `polling ${where}: ${describeSeen(decision.seen)}, which no rule expects (${expected})`;
      return failedWith({ code: 'POLLING_UNEXPECTED_STATE', message: redact(message) }, settled);
    }
  }
}

/** The job is done: the node's assertions judge the last status response, which is its output. */
function finish(
  context: NodeContext<EndpointConfig>,
  outcome: PollOutcome,
  subject: Parameters<typeof evaluateAssertions>[1],
): NodeResult {
  const { redact } = context;
  let results: ReturnType<typeof evaluateAssertions>;
  try {
    results = evaluateAssertions(
      resolveAssertions(context.config.assertions, (value) => context.resolve(value)),
      subject,
    );
  } catch (error) {
    if (!isSvcError(error)) throw error;
    return failedWith({ code: error.code, message: redact(error.message) }, outcome);
  }
  const response = outcome.latest?.response;
  if (response !== undefined && results.length > 0)
    response.assertions = traceAssertions(results, context.limits.maxTracedBodyBytes, redact);
  const failures = describeFailures(results);
  if (failures !== '') return failedWith({ code: 'ASSERTION_FAILED', message: redact(failures) }, outcome);
  // No `latencyMs` in the trace: the step's latency is the whole run, from the submit to now.
  const trace = traceOf(outcome.state, outcome.now, outcome.latest);
  return { kind: 'completed', output: outcome.output!, handles: ['out'], trace };
}
