import type { CatalogEntry, CatalogImportSummary, Roadmap, ScaffoldResult } from '@svc/discovery';
import {
  ERROR_CODES,
  isSvcError,
  SvcError,
  type AlertDeliveryView,
  type EnvironmentRecord,
  type ErrorCode,
  type ExecutionView,
  type FlowSummary,
  type JobRecord,
  type ScheduleView,
  type StoredFlow,
  type SuiteHealthView,
  type SuiteRecord,
  type SuiteRunResult,
  type SuiteSummary,
  type ValidationProblem,
} from '@svc/engine';
import {
  DEFAULT_RUN_WAIT_MS,
  LIST_ENDPOINTS_LIMIT,
  LIST_EXECUTIONS_LIMIT,
  LIST_FLOWS_LIMIT,
  LIST_SCHEDULES_LIMIT,
  LIST_SUITES_LIMIT,
  type SvcApi,
} from './svc-api.js';

export interface RemoteApiOptions {
  /** The service base address, e.g. `https://svc.example.com` (`SVC_API_URL`). */
  baseUrl: string;
  /** Sent as `X-API-Key` (`SVC_API_KEY`). */
  apiKey?: string;
  /** How long one HTTP call may take (default 10 s). A run's call gets its wait on top. */
  timeoutMs?: number;
  /** How long a run call asks the gateway to wait for the run's end (default 30 s). */
  runWaitMs?: number;
}

export const DEFAULT_TIMEOUT_MS = 10_000;

interface CallOptions {
  query?: Record<string, string | number | boolean | undefined>;
  body?: unknown;
  timeoutMs?: number;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The reason a fetch failed below HTTP: `ECONNREFUSED`, `ENOTFOUND`, a TLS error… */
function networkReason(error: unknown): string {
  const cause = (error as { cause?: { code?: unknown; message?: unknown } }).cause;
  if (typeof cause?.code === 'string') return cause.code;
  if (typeof cause?.message === 'string') return cause.message;
  return error instanceof Error ? error.message : String(error);
}

function isTimeout(error: unknown): boolean {
  return (
    error instanceof Error &&
    (error.name === 'TimeoutError' || (error.cause as Error | undefined)?.name === 'TimeoutError')
  );
}

/**
 * The svc API over the REST gateway, with `X-API-Key`. Every answer is the envelope
 * `{ success: true, data }` or `{ success: false, error: { code, message, details? } }`; a failure
 * becomes `SvcError(code, message)` with the HTTP status, so tools read the same errors as in
 * local mode. A gateway that cannot be reached is `SERVICE_UNREACHABLE`; one that does not answer
 * in time is `SERVICE_TIMEOUT`.
 * @example
 * const api = createRemoteApi({ baseUrl: 'https://svc.example.com', apiKey: process.env.SVC_API_KEY });
 * const { flows } = await api.listFlows({ search: 'checkout' });
 */
export function createRemoteApi(options: RemoteApiOptions): SvcApi {
  let base: URL;
  try {
    base = new URL(options.baseUrl);
  } catch {
    throw new SvcError(
      'CONFIG_ERROR',
      `SVC_API_URL "${options.baseUrl}" is not a URL; set it to the service base address, e.g. https://svc.example.com`,
    );
  }
  if (base.protocol !== 'http:' && base.protocol !== 'https:') {
    throw new SvcError('CONFIG_ERROR', `SVC_API_URL "${options.baseUrl}" must be an http or https address`);
  }
  const origin = base.href.replace(/\/+$/, '');
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const runWaitMs = options.runWaitMs ?? DEFAULT_RUN_WAIT_MS;

  async function call<T>(
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    path: string,
    callOptions: CallOptions = {},
  ): Promise<T> {
    const url = new URL(`${origin}${path}`);
    for (const [name, value] of Object.entries(callOptions.query ?? {})) {
      if (value !== undefined) url.searchParams.set(name, String(value));
    }
    const headers: Record<string, string> = { accept: 'application/json' };
    if (options.apiKey) headers['x-api-key'] = options.apiKey;
    if (callOptions.body !== undefined) headers['content-type'] = 'application/json';
    const limit = callOptions.timeoutMs ?? timeoutMs;
    const what = `${method} ${url.pathname}`;

    let status: number;
    let text: string;
    try {
      const response = await fetch(url, {
        method,
        headers,
        body: callOptions.body === undefined ? undefined : JSON.stringify(callOptions.body),
        signal: AbortSignal.timeout(limit),
      });
      status = response.status;
      text = await response.text();
    } catch (error) {
      if (isTimeout(error)) {
        throw new SvcError(
          'SERVICE_TIMEOUT',
          `the svc API at ${origin} did not answer ${what} within ${limit / 1000} s`,
          { retryable: true, cause: error },
        );
      }
      throw new SvcError(
        'SERVICE_UNREACHABLE',
        `cannot reach the svc API at ${origin} (${networkReason(error)}); check SVC_API_URL and that the gateway is running`,
        { retryable: true, cause: error },
      );
    }

    let envelope: unknown;
    try {
      envelope = JSON.parse(text);
    } catch {
      envelope = undefined;
    }
    if (!isObject(envelope) || typeof envelope.success !== 'boolean') {
      throw new SvcError(
        'INVALID_RESPONSE',
        `the svc API answered ${what} with HTTP ${status} and no svc envelope: ${text.slice(0, 200) || '(empty body)'}`,
        {
          retryable: status >= 500,
        },
      );
    }
    if (envelope.success) return envelope.data as T;
    const error = isObject(envelope.error) ? envelope.error : {};
    const message = typeof error.message === 'string' ? error.message : `${what} failed with HTTP ${status}`;
    // A code this build does not list (a newer gateway's) stays readable in the message.
    const known = (ERROR_CODES as readonly unknown[]).includes(error.code);
    throw new SvcError(
      known ? (error.code as ErrorCode) : 'UNKNOWN_ERROR',
      known || typeof error.code !== 'string' ? message : `${error.code}: ${message}`,
      { retryable: status === 429 || status >= 500, details: error.details },
    );
  }

  const getExecution = (executionId: string) =>
    call<ExecutionView>('GET', `/api/gateway/executions/${encodeURIComponent(executionId)}`);
  const flowPath = (flowId: string) => `/api/gateway/flows/${encodeURIComponent(flowId)}`;
  const getFlow = (flowId: string) => call<StoredFlow>('GET', flowPath(flowId));
  const schedulePath = (idOrName: string) => `/api/schedules/${encodeURIComponent(idOrName)}`;
  const environmentPath = (idOrName: string) => `/api/gateway/environments/${encodeURIComponent(idOrName)}`;
  const duplicateFlag = (options?: { allowDuplicateName?: boolean }) =>
    options?.allowDuplicateName ? { allowDuplicateName: true } : {};

  /** A name given where an id belongs: the one flow of exactly that name, as the local engine resolves it. */
  async function resolveFlow(idOrName: string): Promise<StoredFlow> {
    try {
      return await getFlow(idOrName);
    } catch (error) {
      if (!isSvcError(error) || error.code !== 'FLOW_NOT_FOUND') throw error;
      const page = await call<{ items?: FlowSummary[] }>('GET', '/api/gateway/flows', {
        query: { search: idOrName, limit: LIST_FLOWS_LIMIT },
      });
      const named = (page.items ?? []).filter((flow) => flow.name === idOrName);
      if (named.length === 1) return getFlow(named[0]!.id);
      if (named.length > 1) {
        throw new SvcError(
          'FLOW_NAME_AMBIGUOUS',
          `${named.length} flows are named "${idOrName}": ${named.map((flow) => flow.id).join(', ')}; give the id`,
          {
            details: { flowIds: named.map((flow) => flow.id) },
          },
        );
      }
      throw error;
    }
  }

  return {
    mode: 'remote',
    async listFlows(request = {}) {
      const data = await call<unknown>('GET', '/api/gateway/flows', {
        query: { search: request.search, folderId: request.folderId },
      });
      // The gateway's list shape is not fixed by the spec: a plain array or a page `{ items, nextCursor }`.
      if (Array.isArray(data)) return { flows: data as FlowSummary[], hasMore: false };
      if (isObject(data) && Array.isArray(data.items)) {
        return {
          flows: data.items as FlowSummary[],
          hasMore: typeof data.nextCursor === 'string' && data.nextCursor !== '',
        };
      }
      throw new SvcError(
        'INVALID_RESPONSE',
        'the svc API answered GET /api/gateway/flows with data that is neither a list nor a page of flows',
      );
    },
    getFlow,
    resolveFlow,
    createFlow: (document, options) =>
      call<StoredFlow>('POST', '/api/gateway/flows', { body: document, query: duplicateFlag(options) }),
    updateFlow: (flowId, document, options = {}) =>
      call<StoredFlow>('PUT', flowPath(flowId), {
        body: {
          ...document,
          ...(options.expectedVersion === undefined ? {} : { expectedVersion: options.expectedVersion }),
        },
        query: duplicateFlag(options),
      }),
    async deleteFlow(flowId) {
      await call<unknown>('DELETE', flowPath(flowId));
    },
    async validateFlow(document) {
      const data = await call<{ problems?: ValidationProblem[] }>('POST', '/api/gateway/flows/validate', {
        body: document,
      });
      return Array.isArray(data?.problems) ? data.problems : [];
    },
    async startRun(request) {
      // waitMs=0: the gateway answers 202 at once with the execution id; the caller follows it.
      const started = await call<ExecutionView>('POST', `${flowPath(request.flowId)}/run`, {
        query: { waitMs: 0 },
        body: {
          ...(request.env === undefined ? {} : { env: request.env }),
          ...(request.inputs === undefined ? {} : { inputs: request.inputs }),
        },
      });
      if (!isObject(started) || typeof started.executionId !== 'string') {
        throw new SvcError('INVALID_RESPONSE', 'the svc API answered a run without an executionId');
      }
      return started;
    },
    waitForExecution: (executionId, waitMs) =>
      call<ExecutionView>('GET', `/api/gateway/executions/${encodeURIComponent(executionId)}`, {
        query: { waitMs },
        timeoutMs: waitMs + timeoutMs,
      }),
    async listExecutions(flowId, page = {}) {
      const data = await call<{ items?: unknown; nextCursor?: unknown }>('GET', `${flowPath(flowId)}/executions`, {
        query: { limit: page.limit ?? LIST_EXECUTIONS_LIMIT, cursor: page.cursor },
      });
      if (!isObject(data) || !Array.isArray(data.items)) {
        throw new SvcError(
          'INVALID_RESPONSE',
          `the svc API answered GET ${flowPath(flowId)}/executions without a page of executions`,
        );
      }
      return {
        executions: data.items as ExecutionView[],
        nextCursor: typeof data.nextCursor === 'string' && data.nextCursor !== '' ? data.nextCursor : null,
      };
    },
    cancelExecution: (executionId) =>
      call<ExecutionView>('POST', `/api/gateway/executions/${encodeURIComponent(executionId)}/cancel`),
    getSuite: (suiteId) => call<SuiteRecord>('GET', `/api/gateway/suites/${encodeURIComponent(suiteId)}`),
    async runFlow(request) {
      const waitMs = request.waitMs ?? runWaitMs;
      const execution = await call<ExecutionView>(
        'POST',
        `/api/gateway/flows/${encodeURIComponent(request.flowId)}/run`,
        {
          query: { waitMs },
          body: {
            ...(request.env === undefined ? {} : { env: request.env }),
            ...(request.inputs === undefined ? {} : { inputs: request.inputs }),
          },
          // The gateway holds the call open while the run goes on, so the wait comes on top of the usual limit.
          timeoutMs: waitMs + timeoutMs,
        },
      );
      if (!isObject(execution) || typeof execution.executionId !== 'string') {
        throw new SvcError('INVALID_RESPONSE', 'the svc API answered a run without an executionId');
      }
      // The run answer may carry only the summary; the trace is on the execution.
      return Array.isArray(execution.steps) ? execution : getExecution(execution.executionId);
    },
    getExecution,
    importOpenApi: (request) => call<CatalogImportSummary>('POST', '/api/gateway/catalog/import', { body: request }),
    async listEndpoints(request = {}) {
      const page = await call<{ items?: unknown; nextCursor?: unknown }>('GET', '/api/gateway/catalog/endpoints', {
        query: { search: request.search, limit: LIST_ENDPOINTS_LIMIT },
      });
      if (!isObject(page) || !Array.isArray(page.items)) {
        throw new SvcError(
          'INVALID_RESPONSE',
          'the svc API answered GET /api/gateway/catalog/endpoints without a page of endpoints',
        );
      }
      return {
        endpoints: page.items as CatalogEntry[],
        hasMore: typeof page.nextCursor === 'string' && page.nextCursor !== '',
      };
    },
    // Over REST the service cannot reach this client's model, so a sample function is not sent: `sampling` answers SAMPLING_UNAVAILABLE.
    startTestGeneration: (request) => call<JobRecord>('POST', '/api/gateway/testgen/jobs', { body: request }),
    getJob: (jobId) => call<JobRecord>('GET', `/api/gateway/testgen/jobs/${encodeURIComponent(jobId)}`),
    async listSuites(request = {}) {
      const page = await call<{ items?: unknown; nextCursor?: unknown }>('GET', '/api/gateway/suites', {
        query: { search: request.search, limit: LIST_SUITES_LIMIT },
      });
      if (!isObject(page) || !Array.isArray(page.items)) {
        throw new SvcError('INVALID_RESPONSE', 'the svc API answered GET /api/gateway/suites without a page of suites');
      }
      return {
        suites: page.items as SuiteSummary[],
        hasMore: typeof page.nextCursor === 'string' && page.nextCursor !== '',
      };
    },
    // A suite run answers when its last flow ended: its flows may each take up to the run wait.
    runSuite: ({ suiteId, env, failFast }) =>
      call<SuiteRunResult>('POST', `/api/gateway/suites/${encodeURIComponent(suiteId)}/run`, {
        body: { ...(env !== undefined ? { env } : {}), ...(failFast !== undefined ? { failFast } : {}) },
        timeoutMs: 10 * 60_000,
      }),
    getSuiteHealth: (suiteId) =>
      call<SuiteHealthView>('GET', `/api/gateway/suites/${encodeURIComponent(suiteId)}/health`),
    async listSuiteAlerts(suiteId, request = {}) {
      const page = await call<{ items?: unknown }>('GET', `/api/gateway/suites/${encodeURIComponent(suiteId)}/alerts`, {
        query: { limit: request.limit ?? 20 },
      });
      if (!isObject(page) || !Array.isArray(page.items))
        throw new SvcError('INVALID_RESPONSE', 'the svc API answered GET …/alerts without a page of alert deliveries');
      return page.items as AlertDeliveryView[];
    },
    async listEnvironments() {
      const data = await call<{ items?: unknown }>('GET', '/api/gateway/environments');
      if (!isObject(data) || !Array.isArray(data.items))
        throw new SvcError(
          'INVALID_RESPONSE',
          'the svc API answered GET /api/gateway/environments without a list of environments',
        );
      return data.items as EnvironmentRecord[];
    },
    getEnvironment: (idOrName) => call<EnvironmentRecord>('GET', environmentPath(idOrName)),
    async setEnvironment(request) {
      let current: EnvironmentRecord | undefined;
      try {
        current = await call<EnvironmentRecord>('GET', environmentPath(request.name));
      } catch (error) {
        if (!isSvcError(error) || error.code !== 'ENVIRONMENT_NOT_FOUND') throw error;
      }
      const secrets = request.secrets ?? {};
      if (current === undefined) {
        const environment = await call<EnvironmentRecord>('POST', '/api/gateway/environments', {
          body: {
            name: request.name,
            ...(request.description === undefined ? {} : { description: request.description }),
            variables: { ...request.variables, ...secrets },
            secretKeys: Object.keys(secrets),
          },
        });
        return { environment, created: true };
      }
      // Stored secrets come back as ***; a PUT that sends *** for a secret key keeps its value.
      const removed = new Set([...(request.unset ?? []), ...Object.keys(request.variables ?? {})]);
      const variables = { ...current.variables };
      for (const key of request.unset ?? []) delete variables[key];
      Object.assign(variables, request.variables, secrets);
      const secretKeys = [
        ...new Set([...current.secretKeys.filter((key) => !removed.has(key)), ...Object.keys(secrets)]),
      ];
      const environment = await call<EnvironmentRecord>('PUT', environmentPath(current.id), {
        body: { name: current.name, description: request.description ?? current.description, variables, secretKeys },
      });
      return { environment, created: false };
    },
    async listSchedules(request = {}) {
      const page = await call<{ items?: unknown; nextCursor?: unknown }>('GET', '/api/schedules', {
        query: { all: request.all === true ? 'true' : undefined, limit: LIST_SCHEDULES_LIMIT },
      });
      if (!isObject(page) || !Array.isArray(page.items)) {
        throw new SvcError('INVALID_RESPONSE', 'the svc API answered GET /api/schedules without a page of schedules');
      }
      return {
        schedules: page.items as ScheduleView[],
        hasMore: typeof page.nextCursor === 'string' && page.nextCursor !== '',
      };
    },
    getSchedule: (idOrName) => call<ScheduleView>('GET', schedulePath(idOrName)),
    createSchedule: (body) => call<ScheduleView>('POST', '/api/schedules', { body }),
    updateSchedule: (idOrName, body) => call<ScheduleView>('PUT', schedulePath(idOrName), { body }),
    deleteSchedule: (idOrName) => call<{ id: string; name: string }>('DELETE', schedulePath(idOrName)),
    planRoadmap: (request) => call<Roadmap>('POST', '/api/gateway/discovery/roadmaps', { body: request }),
    scaffoldFlow: (request) => call<ScaffoldResult>('POST', '/api/gateway/discovery/scaffolds', { body: request }),
    async close() {},
  };
}
