import {
  createEgressPolicy,
  createEngine,
  type Engine,
  type EngineOptions,
  type ExecutionView,
  type FlowDocumentInput,
} from '@svc/engine';
import { openSqliteStore } from '@svc/engine/sqlite';
import { startDemoApi, type DemoApi } from '../../../../examples/demo-api/server.js';

export const TENANT = 'tenant-test';

export interface Harness {
  api: DemoApi;
  engine: Engine;
  /** Saves the flow and runs it to its end with `env.baseUrl` pointing at the demo API. */
  run(flow: FlowDocumentInput, env?: Record<string, unknown>): Promise<ExecutionView>;
  close(): Promise<void>;
}

/** A demo API on a free port and an engine on an in-memory SQLite store. */
export async function startHarness(options: Partial<EngineOptions> = {}): Promise<Harness> {
  const api = await startDemoApi({ port: 0 });
  const ownStore = options.store === undefined ? openSqliteStore({ path: ':memory:' }) : undefined;
  const store = options.store ?? ownStore!;
  // The demo API listens on loopback, which a developer's local policy allows.
  const engine = await createEngine({ egress: createEgressPolicy({ mode: 'local' }), ...options, store });
  return {
    api,
    engine,
    async run(flow, env = {}) {
      // Tests run variants of one flow under one name; the name check has its own tests.
      const saved = await engine.flows.create(TENANT, flow, { allowDuplicateName: true });
      return engine.runFlow({ tenantId: TENANT, flowId: saved.id, env: { baseUrl: api.url, ...env }, waitMs: 20_000 });
    },
    async close() {
      await engine.stop();
      await ownStore?.close();
      await api.close();
    },
  };
}

/** Steps by node name (the last step of each node). */
export function stepsByName(execution: ExecutionView): Record<string, NonNullable<ExecutionView['steps']>[number]> {
  return Object.fromEntries((execution.steps ?? []).map((step) => [step.nodeName, step]));
}
