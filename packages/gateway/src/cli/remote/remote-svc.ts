import {
  isSvcError,
  SvcError,
  TERMINAL_STATUSES,
  type EnvironmentRecord,
  type ExecutionStatus,
  type ExecutionView,
  type FlowSummary,
  type Page,
  type StoredFlow,
  type SuiteRecord,
  type SuiteRunResult,
  type SuiteSummary,
} from '@svc/engine';
import type { ApiTarget } from './api-target.js';
import { createRestClient, type RestClient } from './rest-client.js';

/** What a run's request body may carry (the REST run bodies). */
export interface RemoteRunBody {
  env?: Record<string, string>;
  environment?: string;
  inputs?: Record<string, string>;
}

/** The longest `svc serve` holds a read open waiting for an execution's end (its `?waitMs=` cap). */
const WAIT_SLICE_MS = 60_000;
const PAGE = 200;

const encode = encodeURIComponent;

/** Pages through a list endpoint (`{ items, nextCursor }`). */
async function allPages<T>(
  client: RestClient,
  path: string,
  query: Record<string, string | number | undefined>,
): Promise<T[]> {
  const items: T[] = [];
  let cursor: string | undefined;
  do {
    const page = await client.call<Page<T>>('GET', path, { query: { ...query, limit: PAGE, cursor } });
    if (!Array.isArray(page?.items))
      throw new SvcError('INVALID_RESPONSE', `the svc API answered GET ${path} without a page of items`);
    items.push(...page.items);
    cursor = page.nextCursor ?? undefined;
  } while (cursor !== undefined);
  return items;
}

/**
 * What `svc` asks of a running `svc serve` in remote mode, over its REST API: the same reads and
 * runs the commands make on the embedded store, with the same errors (`FLOW_NOT_FOUND`, …).
 * @example
 * const svc = createRemoteSvc({ url: 'https://svc.example.com', apiKey: process.env.SVC_API_KEY });
 * const flow = await svc.resolveFlow('order-lifecycle');
 */
export function createRemoteSvc(target: ApiTarget) {
  const client = createRestClient({ baseUrl: target.url, ...(target.apiKey ? { apiKey: target.apiKey } : {}) });

  /** An id, else the one item of exactly that name; as the local commands find flows and suites. */
  async function byIdOrName<T extends { id: string }>(
    reference: string,
    get: (id: string) => Promise<T>,
    notFound: string,
    list: () => Promise<{ id: string; name: string }[]>,
    what: string,
  ): Promise<T> {
    try {
      return await get(reference);
    } catch (error) {
      if (!isSvcError(error) || error.code !== notFound) throw error;
    }
    const named = (await list()).filter((item) => item.name === reference);
    if (named.length === 1) return get(named[0]!.id);
    if (named.length > 1 && what === 'flow')
      throw new SvcError(
        'FLOW_NAME_AMBIGUOUS',
        `${named.length} flows are named "${reference}": ${named.map((item) => item.id).join(', ')}; give the id`,
        { details: { flowIds: named.map((item) => item.id) } },
      );
    throw new SvcError(
      notFound as 'FLOW_NOT_FOUND',
      `no ${what} on ${client.origin} has the id or name "${reference}" (svc ${what === 'flow' ? 'flows' : 'suites'} list shows them)`,
    );
  }

  const getFlow = (id: string) => client.call<StoredFlow>('GET', `/api/gateway/flows/${encode(id)}`);
  const getSuite = (id: string) => client.call<SuiteRecord>('GET', `/api/gateway/suites/${encode(id)}`);
  const getExecution = (id: string) => client.call<ExecutionView>('GET', `/api/gateway/executions/${encode(id)}`);
  const listFlows = (search?: string) =>
    allPages<FlowSummary>(client, '/api/gateway/flows', search === undefined ? {} : { search });
  const listSuites = (search?: string) =>
    allPages<SuiteSummary>(client, '/api/gateway/suites', search === undefined ? {} : { search });

  return {
    where: client.origin,
    listFlows,
    resolveFlow: (reference: string) =>
      byIdOrName(reference, getFlow, 'FLOW_NOT_FOUND', () => listFlows(reference), 'flow'),
    resolveSuite: (reference: string) =>
      byIdOrName(reference, getSuite, 'SUITE_NOT_FOUND', () => listSuites(reference), 'suite'),
    listExecutions: (query: { flowId?: string; status?: ExecutionStatus; limit: number }) =>
      client.call<Page<ExecutionView>>('GET', '/api/gateway/executions', { query }),
    getExecution,
    /** Follows an execution until it ends (or, with `untilWaiting`, until it waits), a long-held read at a time. */
    async followExecution(id: string, options: { untilWaiting?: boolean } = {}): Promise<ExecutionView> {
      for (;;) {
        const execution = await client.call<ExecutionView>('GET', `/api/gateway/executions/${encode(id)}`, {
          query: { waitMs: WAIT_SLICE_MS },
          timeoutMs: WAIT_SLICE_MS + 30_000,
        });
        const ended = TERMINAL_STATUSES.has(execution.status);
        if (ended || (options.untilWaiting === true && execution.status === 'Waiting')) return getExecution(id);
      }
    },
    async listEnvironments(): Promise<EnvironmentRecord[]> {
      const data = await client.call<{ items?: EnvironmentRecord[] }>('GET', '/api/gateway/environments');
      if (!Array.isArray(data?.items))
        throw new SvcError('INVALID_RESPONSE', 'the svc API answered GET /api/gateway/environments without items');
      return data.items;
    },
    /** Saves a flow file's document by name: a new version only when it changed. */
    upsertFlow: (document: unknown) =>
      client.call<StoredFlow>('POST', '/api/gateway/flows', { query: { upsert: true }, body: document }),
    upsertSuite: (definition: { name: string; description: string; mode: string; flowIds: string[] }) =>
      client.call<SuiteRecord>('POST', '/api/gateway/suites', { query: { upsert: true }, body: definition }),
    /** Starts a run and answers at once with its execution id. */
    startRun: (flowId: string, body: RemoteRunBody) =>
      client.call<ExecutionView>('POST', `/api/gateway/flows/${encode(flowId)}/run`, {
        query: { waitMs: 0 },
        body,
      }),
    /** Answered when the suite's last flow ended, however long that takes. */
    runSuite: (suiteId: string, body: RemoteRunBody & { failFast?: boolean; concurrency?: number }) =>
      client.call<SuiteRunResult>('POST', `/api/gateway/suites/${encode(suiteId)}/run`, { body, timeoutMs: 0 }),
  };
}

export type RemoteSvc = ReturnType<typeof createRemoteSvc>;
