import type {
  CatalogEntry,
  CatalogImportSummary,
  PlanRoadmapBody,
  Roadmap,
  SampleFunction,
  ScaffoldFlowBody,
  ScaffoldResult,
  StartTestGenerationRequest,
} from '@svc/discovery';
import type {
  AlertDeliveryView,
  EnvironmentRecord,
  ExecutionView,
  ScheduleBodyInput,
  ScheduleView,
  FlowDocumentInput,
  SetEnvironmentRequest,
  FlowSummary,
  JobRecord,
  StoredFlow,
  SuiteFlowResult,
  SuiteHealthView,
  SuiteRecord,
  SuiteRunResult,
  SuiteSummary,
  ValidationProblem,
} from '@svc/engine';

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
  /** The run's environment, read as `{{env.X}}`: an object, or the name of a stored environment. */
  env?: string | Record<string, unknown>;
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
  /** The environment every flow of the run reads as `{{env.X}}`, e.g. `{ baseUrl: "http://localhost:4010" }`, or a stored environment's name. */
  env?: string | Record<string, unknown>;
  /** Stop starting flows after the first failure; the rest count as skipped. */
  failFast?: boolean;
}

export interface SaveOptions {
  /** Save even when another flow of the folder has the name (else `FLOW_NAME_TAKEN`). */
  allowDuplicateName?: boolean;
}

export interface UpdateFlowOptions extends SaveOptions {
  /** The version last read; a newer saved version makes the update `CONFLICT` (409). */
  expectedVersion?: number;
}

export interface ExecutionList {
  /** Newest first. */
  executions: ExecutionView[];
  /** Pass as `cursor` for the next page; null on the last. */
  nextCursor: string | null;
}

export interface RunSuiteHooks {
  /** Called as each flow of the run ends (local only: over REST the run answers once, at its end). */
  onFlowResult?: (result: SuiteFlowResult, index: number) => void;
  /** Stops starting flows and cancels those running (local only). */
  signal?: AbortSignal;
}

export interface ScheduleList {
  /** Oldest first, each with its next three due times. */
  schedules: ScheduleView[];
  hasMore: boolean;
}

export interface SvcApi {
  readonly mode: 'local' | 'remote';
  listFlows(request?: ListFlowsRequest): Promise<FlowList>;
  getFlow(flowId: string): Promise<StoredFlow>;
  /** The flow with this id, else the one flow with exactly this name (`FLOW_NAME_AMBIGUOUS` when several). */
  resolveFlow(idOrName: string): Promise<StoredFlow>;
  /** Validates the whole document and saves it as a new flow (version 1). */
  createFlow(document: FlowDocumentInput, options?: SaveOptions): Promise<StoredFlow>;
  /** Validates the whole document and saves it as the flow's next version. */
  updateFlow(flowId: string, document: FlowDocumentInput, options?: UpdateFlowOptions): Promise<StoredFlow>;
  deleteFlow(flowId: string): Promise<void>;
  /** Every problem of the document with its path; nothing is saved. Empty when it would save. */
  validateFlow(document: unknown): Promise<ValidationProblem[]>;
  /** Starts a run and answers at once (no steps yet). */
  startRun(request: Omit<RunFlowRequest, 'waitMs'>): Promise<ExecutionView>;
  /** The execution with its steps once it ended, or as it is after `waitMs`. */
  waitForExecution(executionId: string, waitMs: number): Promise<ExecutionView>;
  /** A flow's executions, newest first, without their steps. */
  listExecutions(flowId: string, page?: { limit?: number; cursor?: string }): Promise<ExecutionList>;
  /** Cancels a running or waiting execution; an ended one is answered as it is. */
  cancelExecution(executionId: string): Promise<ExecutionView>;
  getSuite(suiteId: string): Promise<SuiteRecord>;
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
  runSuite(request: RunSuiteRequest, hooks?: RunSuiteHooks): Promise<SuiteRunResult>;
  /** A health-check suite's checks: healthy or failing, since when, the last failure. */
  getSuiteHealth(suiteId: string): Promise<SuiteHealthView>;
  /** The suite's latest alert deliveries, newest first (status, attempts, last error). */
  listSuiteAlerts(suiteId: string, request?: { limit?: number }): Promise<AlertDeliveryView[]>;
  /** The tenant's stored environments by name; secret values read `***`. */
  listEnvironments(): Promise<EnvironmentRecord[]>;
  /** By id or name; `ENVIRONMENT_NOT_FOUND` otherwise. */
  getEnvironment(idOrName: string): Promise<EnvironmentRecord>;
  /** Writes the variables given (creating the environment when missing), keeps the others. */
  setEnvironment(request: SetEnvironmentRequest): Promise<{ environment: EnvironmentRecord; created: boolean }>;
  /** Enabled schedules; with `all`, paused ones too. */
  listSchedules(request?: { all?: boolean }): Promise<ScheduleList>;
  /** By id or name; `SCHEDULE_NOT_FOUND` otherwise. */
  getSchedule(idOrName: string): Promise<ScheduleView>;
  /** Validates the whole schedule (cron, time zone, target, environment) and saves it. */
  createSchedule(body: ScheduleBodyInput): Promise<ScheduleView>;
  /** Replaces a schedule's definition (validated as on create). */
  updateSchedule(idOrName: string, body: ScheduleBodyInput): Promise<ScheduleView>;
  deleteSchedule(idOrName: string): Promise<{ id: string; name: string }>;
  close(): Promise<void>;
}

/** The bound the REST run endpoint waits for a run's end by default; the tools use the same. */
export const DEFAULT_RUN_WAIT_MS = 30_000;

/** Executions one svc_list_executions page holds by default. */
export const LIST_EXECUTIONS_LIMIT = 20;

/** The most flows one list call answers: the store's largest page. */
export const LIST_FLOWS_LIMIT = 200;

/** The most suites one list call answers: the store's largest page. */
export const LIST_SUITES_LIMIT = 200;

/** The most schedules one list call answers: the store's largest page. */
export const LIST_SCHEDULES_LIMIT = 200;

/** The most endpoints one list call answers: the store's largest page. */
export const LIST_ENDPOINTS_LIMIT = 200;
