import type { CatalogEntry, CatalogImportSummary, PlanRoadmapBody, Roadmap, SampleFunction, ScaffoldFlowBody, ScaffoldResult, StartTestGenerationRequest } from '@svc/discovery';
import type { ExecutionView, FlowDocumentInput, FlowSummary, JobRecord, StoredFlow, SuiteRunResult, SuiteSummary } from '@svc/engine';

export interface ListFlowsRequest {
  /** Case-insensitive match on name and description. */
  search?: string;
  folderId?: string;
}

export interface FlowList {
  /** Most recently modified first. */
  flows: FlowSummary[];
  /** More flows match than were returned; a narrower search finds them. */
  hasMore: boolean;
}

export interface RunFlowRequest {
  flowId: string;
  /**
   * The run's environment, read as `{{env.X}}`: an object of variables, or the name of a stored
   * environment (a local engine does not have stored environments yet and refuses a name).
   */
  env?: Record<string, unknown> | string;
  /** The flow's input parameters, read as `{{flowVars.X}}` over the flow's variable defaults. */
  inputs?: Record<string, unknown>;
  /** How long to wait for the end before answering the current status; the run goes on. */
  waitMs?: number;
}

/**
 * What the MCP tools need from svc. Two implementations: the engine in this process on the
 * embedded store (`createLocalApi`), and the REST gateway (`createRemoteApi`). Failures are
 * `SvcError`s with the engine's codes (`FLOW_NOT_FOUND`, `VALIDATION_ERROR` with
 * `details.problems`, `EXECUTION_NOT_FOUND`, …), whichever side produced them.
 */
export interface ImportOpenApiRequest {
  /** The document's text (JSON or YAML). */
  document: string;
  /** The spec's name in the catalog; default `info.title`. */
  name?: string;
  fileName?: string;
}

export interface ListEndpointsRequest {
  search?: string;
}

export interface EndpointList {
  /** By spec, then in the order each spec lists its operations. */
  endpoints: CatalogEntry[];
  /** More endpoints match than were returned; a narrower search finds them. */
  hasMore: boolean;
}

export interface SuiteList {
  /** Most recently updated first. */
  suites: SuiteSummary[];
  hasMore: boolean;
}

export interface StartTestGenerationOptions {
  /**
   * The calling MCP client's model, for the `sampling` engine. Only a local API can use it: over
   * REST the service has no way back to the client, so `sampling` answers `SAMPLING_UNAVAILABLE`.
   */
  sample?: SampleFunction;
}

export interface RunSuiteRequest {
  suiteId: string;
  /** The environment every flow of the run reads as `{{env.X}}`, e.g. `{ baseUrl: "http://localhost:4010" }`. */
  env?: Record<string, unknown>;
  /** Stop starting flows after the first failure; the rest count as skipped. */
  failFast?: boolean;
}

export interface SvcApi {
  readonly mode: 'local' | 'remote';
  listFlows(request?: ListFlowsRequest): Promise<FlowList>;
  getFlow(flowId: string): Promise<StoredFlow>;
  /** Validates the whole document and saves it as a new flow (version 1). */
  createFlow(document: FlowDocumentInput): Promise<StoredFlow>;
  /** Starts a run and waits up to `waitMs` for its end; answers the execution with its steps. */
  runFlow(request: RunFlowRequest): Promise<ExecutionView>;
  /** The execution with its steps. */
  getExecution(executionId: string): Promise<ExecutionView>;
  /** Imports (or replaces) a spec in the catalog; an invalid document is `INVALID_OPENAPI` with every problem. */
  importOpenApi(request: ImportOpenApiRequest): Promise<CatalogImportSummary>;
  listEndpoints(request?: ListEndpointsRequest): Promise<EndpointList>;
  /** Starts a test generation job for a catalog endpoint; answers the job at once. */
  startTestGeneration(request: StartTestGenerationRequest, options?: StartTestGenerationOptions): Promise<JobRecord>;
  /** A test generation job: status, progress, result or error. */
  getJob(jobId: string): Promise<JobRecord>;
  listSuites(request?: { search?: string }): Promise<SuiteList>;
  /** Plans a requirement against the catalog; `CATALOG_EMPTY` while the catalog has no endpoint. */
  planRoadmap(request: PlanRoadmapBody): Promise<Roadmap>;
  /** Scaffolds a roadmap (or a requirement, planned first) into a saved flow. */
  scaffoldFlow(request: ScaffoldFlowBody): Promise<ScaffoldResult>;
  /** Runs every flow of the suite and answers the KPIs once the last one ended. */
  runSuite(request: RunSuiteRequest): Promise<SuiteRunResult>;
  close(): Promise<void>;
}

/** The bound the REST run endpoint waits for a run's end by default; the tools use the same. */
export const DEFAULT_RUN_WAIT_MS = 30_000;

/** The most flows one list call answers: the store's largest page. */
export const LIST_FLOWS_LIMIT = 200;

/** The most suites one list call answers: the store's largest page. */
export const LIST_SUITES_LIMIT = 200;

/** The most endpoints one list call answers: the store's largest page. */
export const LIST_ENDPOINTS_LIMIT = 200;
