import {
  createCatalogService,
  createDiscoveryService,
  createTestGenerationService,
  openAiConfigOf,
  type CatalogService,
  type DiscoveryService,
  type OpenAiTestGenConfig,
} from '@svc/discovery';
import {
  createEngine,
  createStderrLogger,
  egressPolicyOf,
  loadConfig,
  SvcError,
  type Engine,
  type Logger,
  type StoredFlow,
  type SvcConfig,
} from '@svc/engine';
import { openConfiguredStore } from '@svc/engine/open-store';
import {
  DEFAULT_RUN_WAIT_MS,
  LIST_ENDPOINTS_LIMIT,
  LIST_EXECUTIONS_LIMIT,
  LIST_FLOWS_LIMIT,
  LIST_SCHEDULES_LIMIT,
  LIST_SUITES_LIMIT,
  type SvcApi,
} from './svc-api.js';

/** The most alerts a local suite run sends itself. */
const LOCAL_ALERT_LIMIT = 32;

/** The tenant of the embedded store, as the `svc` command line uses it. */
export const LOCAL_TENANT = 'default';

export interface LocalApiOptions {
  engine: Engine;
  /** The tenant's OpenAPI catalog; without it the catalog calls answer `CATALOG_NOT_AVAILABLE`. */
  catalog?: CatalogService;
  /** Default `default`. */
  tenantId?: string;
  /** How long `runFlow` waits for a run's end unless the request says (default 30 s). */
  runWaitMs?: number;
  /** The `openai` test generation engine's settings (`openAiConfigOf`); without them it answers why it cannot run. */
  openai?: OpenAiTestGenConfig;
  /** Runs on `close()`: the opener of the engine and store releases them here. */
  onClose?: () => Promise<void>;
}

/**
 * The svc API on an engine in this process. The engine is passed in, so tests hand it an
 * in-memory store and the binary hands it the embedded SQLite file (`openLocalApi`).
 * @example
 * const engine = await createEngine({ store: openSqliteStore({ path: ':memory:' }) });
 * const server = buildServer(createLocalApi({ engine }));
 */
export function createLocalApi(options: LocalApiOptions): SvcApi {
  const { engine } = options;
  const tenantId = options.tenantId ?? LOCAL_TENANT;
  const runWaitMs = options.runWaitMs ?? DEFAULT_RUN_WAIT_MS;
  // One discovery service for the API's life, so its planner index is built once per catalog revision.
  let discovery: DiscoveryService | undefined;
  const discoveryOf = () =>
    (discovery ??= createDiscoveryService({ catalog: catalogOf(options), flows: engine.flows }));
  /** A flow with a webhook trigger is read with its public URL, as the REST API answers it. */
  const withTriggers = (flow: StoredFlow): Promise<StoredFlow> => engine.webhooks.withTriggers(tenantId, flow);
  return {
    mode: 'local',
    async listFlows(request = {}) {
      const page = await engine.flows.list(tenantId, { ...request, limit: LIST_FLOWS_LIMIT });
      return { flows: page.items, hasMore: page.nextCursor !== null };
    },
    getFlow: async (flowId) => withTriggers(await engine.flows.get(tenantId, flowId)),
    resolveFlow: async (idOrName) => withTriggers(await engine.flows.resolve(tenantId, idOrName)),
    createFlow: async (document, saveOptions) =>
      withTriggers(await engine.flows.create(tenantId, document, saveOptions)),
    updateFlow: async (flowId, document, updateOptions) =>
      withTriggers(await engine.flows.update(tenantId, flowId, document, updateOptions)),
    deleteFlow: (flowId) => engine.flows.delete(tenantId, flowId),
    async validateFlow(document) {
      return engine.flows.validate(document).problems;
    },
    async runFlow(request) {
      return engine.runFlow({
        tenantId,
        flowId: request.flowId,
        ...(await engine.environments.resolveRun(tenantId, { env: request.env })),
        inputs: request.inputs ?? {},
        trigger: { type: 'mcp' },
        waitMs: request.waitMs ?? runWaitMs,
      });
    },
    async startRun(request) {
      const { env, secretKeys } = await engine.environments.resolveRun(tenantId, { env: request.env });
      const record = await engine.startExecution({
        tenantId,
        flowId: request.flowId,
        env,
        secretKeys,
        inputs: request.inputs ?? {},
        trigger: { type: 'mcp' },
      });
      return engine.getExecution(tenantId, record.id, { steps: false });
    },
    waitForExecution: (executionId, waitMs) => engine.waitForExecution(tenantId, executionId, waitMs),
    async listExecutions(flowId, page = {}) {
      await engine.flows.get(tenantId, flowId);
      const listed = await engine.listExecutions(tenantId, {
        flowId,
        limit: page.limit ?? LIST_EXECUTIONS_LIMIT,
        ...(page.cursor ? { cursor: page.cursor } : {}),
      });
      return { executions: listed.items, nextCursor: listed.nextCursor };
    },
    cancelExecution: (executionId) => engine.cancelExecution(tenantId, executionId),
    getSuite: (suiteId) => engine.suites.get(tenantId, suiteId),
    getExecution: (executionId) => engine.getExecution(tenantId, executionId),
    importOpenApi(request) {
      return catalogOf(options).importOpenApi(tenantId, request.document, {
        name: request.name,
        fileName: request.fileName,
      });
    },
    async listEndpoints(request = {}) {
      const page = await catalogOf(options).listEndpoints(tenantId, {
        search: request.search,
        limit: LIST_ENDPOINTS_LIMIT,
      });
      return { endpoints: page.items, hasMore: page.nextCursor !== null };
    },
    async startTestGeneration(request, generateOptions = {}) {
      return testgenOf(options).start(tenantId, request, {
        ...(generateOptions.sample !== undefined ? { sample: generateOptions.sample } : {}),
        ...(options.openai !== undefined ? { openai: options.openai } : {}),
      });
    },
    async getJob(jobId) {
      return testgenOf(options).get(tenantId, jobId);
    },
    async listSuites(request = {}) {
      const page = await engine.suites.list(tenantId, {
        ...(request.search ? { search: request.search } : {}),
        limit: LIST_SUITES_LIMIT,
      });
      return { suites: page.items, hasMore: page.nextCursor !== null };
    },
    async runSuite(request, hooks = {}) {
      const result = await engine.suites.run(tenantId, request.suiteId, {
        trigger: { type: 'mcp' },
        ...(hooks.onFlowResult ? { onFlowResult: hooks.onFlowResult } : {}),
        ...(hooks.signal ? { signal: hooks.signal } : {}),
        ...(await engine.environments.resolveRun(tenantId, { env: request.env })),
        ...(request.failFast !== undefined ? { failFast: request.failFast } : {}),
      });
      // A health-check suite's alerts go out in the background (no worker runs here); `svc serve` retries failures.
      engine.health.deliverDue({ limit: LOCAL_ALERT_LIMIT }).catch(() => undefined);
      return result;
    },
    getSuiteHealth: (suiteId) => engine.health.get(tenantId, suiteId),
    async listSuiteAlerts(suiteId, request = {}) {
      return (await engine.health.listAlerts(tenantId, suiteId, { limit: request.limit ?? 20 })).items;
    },
    listEnvironments: () => engine.environments.list(tenantId),
    getEnvironment: (idOrName) => engine.environments.get(tenantId, idOrName),
    setEnvironment: (request) => engine.environments.set(tenantId, request),
    async listSchedules(request = {}) {
      const page = await engine.schedules.list(tenantId, { all: request.all === true, limit: LIST_SCHEDULES_LIMIT });
      return { schedules: page.items, hasMore: page.nextCursor !== null };
    },
    getSchedule: (idOrName) => engine.schedules.get(tenantId, idOrName),
    createSchedule: (body) => engine.schedules.create(tenantId, body),
    updateSchedule: (idOrName, body) => engine.schedules.update(tenantId, idOrName, body),
    deleteSchedule: (idOrName) => engine.schedules.delete(tenantId, idOrName),
    async planRoadmap(request) {
      return discoveryOf().plan(tenantId, request);
    },
    async scaffoldFlow(request) {
      return discoveryOf().scaffold(tenantId, request);
    },
    async close() {
      await options.onClose?.();
    },
  };
}

function catalogOf(options: LocalApiOptions): CatalogService {
  if (options.catalog === undefined) {
    throw new SvcError('CATALOG_NOT_AVAILABLE', 'this svc API was started without an OpenAPI catalog');
  }
  return options.catalog;
}

function testgenOf(options: LocalApiOptions) {
  const { engine } = options;
  return createTestGenerationService({
    catalog: catalogOf(options),
    jobs: engine.jobs,
    flows: engine.flows,
    suites: engine.suites,
  });
}

/**
 * The svc API on the store `SVC_DB` names (else the embedded `./.svc/svc.db`), tenant `default`:
 * what `svc-mcp` uses when no `SVC_API_URL` is set. `close()` stops the engine and the store.
 * @example
 * const api = await openLocalApi(loadConfig({ SVC_DB: '/tmp/svc.db' }));
 * const { flows } = await api.listFlows();
 * await api.close();
 */
export async function openLocalApi(
  config: SvcConfig = loadConfig(process.env),
  logger: Logger = createStderrLogger({ level: config.logLevel, format: config.logFormat }),
): Promise<SvcApi> {
  const store = await openConfiguredStore(config, logger);
  try {
    // Local svc-mcp is a developer's tool like `svc run`: loopback and private addresses allowed.
    const engine = await createEngine({
      store,
      logger,
      leaseMs: config.leaseMs,
      ...(config.publicUrl === undefined ? {} : { publicUrl: config.publicUrl }),
      egress: egressPolicyOf(config, 'local'),
    });
    return createLocalApi({
      engine,
      catalog: createCatalogService({ repository: store.catalog }),
      openai: openAiConfigOf(config),
      async onClose() {
        // Steps in flight commit before the store closes; an unfinished run is resumed later by `svc resume`.
        await engine.stop({ graceMs: 5_000 });
        await store.close();
      },
    });
  } catch (error) {
    await store.close();
    throw error;
  }
}
