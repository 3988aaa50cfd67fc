import type { EnvironmentRecord, ExecutionStatus, ExecutionView, FlowSummary, Page, StoredFlow } from '@svc/engine';
import { resolveApiTarget } from './remote/api-target.js';
import { reportFailure } from './report-failure.js';

/**
 * What the reading commands (`svc flows list|get`, `svc executions list|get`, `svc env list`)
 * read, from the embedded store or from a running `svc serve`: each command is written once.
 */
export interface CliReader {
  listFlows(search?: string): Promise<FlowSummary[]>;
  /** By id, else by exact name; `FLOW_NOT_FOUND` when neither. */
  findFlow(reference: string): Promise<StoredFlow>;
  /** Newest first; `flow` is an id or a name. */
  listExecutions(query: { flow?: string; status?: ExecutionStatus; limit: number }): Promise<Page<ExecutionView>>;
  getExecution(executionId: string): Promise<ExecutionView>;
  listEnvironments(): Promise<EnvironmentRecord[]>;
  close(): Promise<void>;
}

async function localReader(): Promise<CliReader> {
  const [{ LOCAL_TENANT, openLocalEngine }, { findFlow }] = await Promise.all([
    import('./local-engine.js'),
    import('./find-flow.js'),
  ]);
  const { engine, store, close } = await openLocalEngine();
  return {
    async listFlows(search) {
      const items: FlowSummary[] = [];
      let cursor: string | undefined;
      do {
        const page = await store.flows.list(LOCAL_TENANT, {
          limit: 200,
          ...(search ? { search } : {}),
          ...(cursor ? { cursor } : {}),
        });
        items.push(...page.items);
        cursor = page.nextCursor ?? undefined;
      } while (cursor !== undefined);
      return items;
    },
    findFlow: (reference) => findFlow(store, reference),
    async listExecutions({ flow, status, limit }) {
      const flowId = flow === undefined ? undefined : (await findFlow(store, flow)).id;
      return engine.listExecutions(LOCAL_TENANT, {
        limit,
        ...(flowId ? { flowId } : {}),
        ...(status ? { status } : {}),
      });
    },
    getExecution: (executionId) => engine.getExecution(LOCAL_TENANT, executionId),
    listEnvironments: () => engine.environments.list(LOCAL_TENANT),
    close,
  };
}

async function remoteReader(target: NonNullable<ReturnType<typeof resolveApiTarget>>): Promise<CliReader> {
  const { createRemoteSvc } = await import('./remote/remote-svc.js');
  const svc = createRemoteSvc(target);
  return {
    listFlows: (search) => svc.listFlows(search),
    findFlow: (reference) => svc.resolveFlow(reference),
    async listExecutions({ flow, status, limit }) {
      const flowId = flow === undefined ? undefined : (await svc.resolveFlow(flow)).id;
      return svc.listExecutions({ limit, ...(flowId ? { flowId } : {}), ...(status ? { status } : {}) });
    },
    getExecution: (executionId) => svc.getExecution(executionId),
    listEnvironments: () => svc.listEnvironments(),
    async close() {},
  };
}

/**
 * The reader for a command: the service `--api-url` (or `SVC_API_URL`) names, else the embedded
 * store (tenant `default`). Only the side used is loaded: remote mode opens no SQLite file.
 */
export async function openReader(apiUrl: string | undefined): Promise<CliReader> {
  const target = resolveApiTarget(apiUrl, (line) => process.stderr.write(line));
  return target === undefined ? localReader() : remoteReader(target);
}

/** Opens the reader of `--api-url` (or the embedded store), runs `work`, and reports an `SvcError` as `svc: CODE: message`. */
export async function withReader(
  apiUrl: string | undefined,
  work: (reader: CliReader) => Promise<number>,
): Promise<number> {
  try {
    const reader = await openReader(apiUrl);
    try {
      return await work(reader);
    } finally {
      await reader.close();
    }
  } catch (error) {
    return reportFailure(error);
  }
}
