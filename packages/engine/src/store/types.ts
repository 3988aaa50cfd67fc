import type { FlowDocument } from '../model/flow-schema.js';
import type { AlertChannelRepository, HealthRepository } from './health-types.js';

/**
 * Repository interfaces of the engine. The embedded store implements them on SQLite; a
 * PostgreSQL store can implement the same, and `test/store-contract/contract.ts` is the one suite that
 * checks any implementation. Every method is tenant-scoped except the worker's claim
 * operations, which hand out work across tenants.
 */

export const EXECUTION_STATUSES = [
  'Queued',
  'Running',
  'Waiting',
  'Completed',
  'Failed',
  'TimedOut',
  'Cancelled',
] as const;
export type ExecutionStatus = (typeof EXECUTION_STATUSES)[number];
export const TERMINAL_STATUSES: ReadonlySet<ExecutionStatus> = new Set([
  'Completed',
  'Failed',
  'TimedOut',
  'Cancelled',
]);

export const STEP_STATUSES = ['Completed', 'Failed', 'Skipped', 'Waiting'] as const;
export type StepStatus = (typeof STEP_STATUSES)[number];
export type SkipKind = 'condition' | 'failure';

export interface ErrorInfo {
  code: string;
  message: string;
  nodeId?: string;
  nodeName?: string;
}

/** A saved flow: the document with its id, version and timestamps filled in. */
export type StoredFlow = FlowDocument & { id: string; version: number; updatedAt: string; createdAt: string };

export interface FlowSummary {
  id: string;
  name: string;
  description: string;
  folderId: string | null;
  version: number;
  nodeCount: number;
  updatedAt: string;
  createdAt: string;
}

export interface ListFlowsQuery {
  /** Case-insensitive match on name and description. */
  search?: string;
  folderId?: string;
  /** Page size, 1–200; default 50. */
  limit?: number;
  /** Opaque cursor from the previous page's `nextCursor`. */
  cursor?: string;
}

/**
 * A cursor the store did not issue makes a list call throw `SvcError('VALIDATION_ERROR')`.
 * Cursors are keyset positions, so rows saved while a client pages do not shift later pages.
 */
export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

export interface FlowRepository {
  /**
   * Saves a new flow as version 1; assigns an id (`flw_…`) when the document has none.
   * An id a live flow of the tenant holds throws `SvcError('CONFLICT')`. The id of a deleted flow
   * is free again: the new flow, created now, takes the version after the deleted flow's last one,
   * whose versions stay readable by `getVersion`.
   */
  create(tenantId: string, document: FlowDocument): Promise<StoredFlow>;
  get(tenantId: string, id: string): Promise<StoredFlow | undefined>;
  /** Each saved version is kept: an execution reads the exact version it started with. */
  getVersion(tenantId: string, id: string, version: number): Promise<StoredFlow | undefined>;
  /** The current version number, without reading the document; undefined for a missing or deleted flow. */
  currentVersion(tenantId: string, id: string): Promise<number | undefined>;
  findByName(tenantId: string, name: string): Promise<StoredFlow | undefined>;
  /**
   * Saves a new version. With `expectedVersion`, a stale version throws `SvcError('CONFLICT')`.
   * A missing flow throws `SvcError('FLOW_NOT_FOUND')`.
   */
  update(
    tenantId: string,
    id: string,
    document: FlowDocument,
    options?: { expectedVersion?: number },
  ): Promise<StoredFlow>;
  /** True when a flow was deleted. Its versions and executions stay readable by id. */
  delete(tenantId: string, id: string): Promise<boolean>;
  list(tenantId: string, query?: ListFlowsQuery): Promise<Page<FlowSummary>>;
}

export interface ExecutionRecord {
  /** UUID. */
  id: string;
  tenantId: string;
  flowId: string;
  flowVersion: number;
  flowName: string;
  status: ExecutionStatus;
  /** What started it: `{ type: 'cli' | 'api' | 'mcp' | 'schedule' | 'webhook' | 'suite' | 'subflow', … }`. */
  trigger: { type: string } & Record<string, unknown>;
  /** The environment the run reads as `env.*`. Stored so that another process can resume it. */
  env: Record<string, unknown>;
  /** Names in `env` whose values are secret: redacted in traces and output. */
  secretKeys: string[];
  /** Input parameters (read as `flowVars` on top of the flow's variable defaults). */
  inputs: Record<string, unknown>;
  parentExecutionId: string | null;
  error: ErrorInfo | null;
  /** The flow's declared `outputs`, evaluated when the run completed (what a parent flow reads). */
  outputs: Record<string, unknown> | null;
  createdAt: number;
  startedAt: number | null;
  endedAt: number | null;
  durationMs: number | null;
  nodesExecuted: number;
  nodesSkipped: number;
  stepsExecuted: number;
  /** Earliest due time of a stored wait (delay, retry backoff, …) while status is Waiting. */
  wakeAt: number | null;
  /** The worker running it now, and until when that claim holds without renewal. */
  leaseOwner: string | null;
  leaseExpiresAt: number | null;
  updatedAt: number;
}

/**
 * The fields of an execution that a patch may change, in a fixed order: the stores build their
 * UPDATE statements from it.
 */
export const EXECUTION_PATCH_FIELDS = [
  'status',
  'error',
  'outputs',
  'startedAt',
  'endedAt',
  'durationMs',
  'nodesExecuted',
  'nodesSkipped',
  'stepsExecuted',
  'wakeAt',
  'leaseOwner',
  'leaseExpiresAt',
] as const satisfies readonly (keyof ExecutionRecord)[];

export type ExecutionPatch = Partial<Pick<ExecutionRecord, (typeof EXECUTION_PATCH_FIELDS)[number]>>;

/** One run of one node (per loop scope and attempt). */
export interface StepRecord {
  /** Unique; `${executionId}:${seq}` is a fine choice. */
  id: string;
  executionId: string;
  tenantId: string;
  /** Order in which steps were first recorded within the execution, from 1. */
  seq: number;
  nodeId: string;
  nodeName: string;
  nodeType: string;
  /** Loop scope, e.g. `ForItems[2]/Retries[0]`; empty at the top level. */
  scope: string;
  attempt: number;
  status: StepStatus;
  startedAt: number;
  endedAt: number | null;
  latencyMs: number | null;
  /** The resolved request, secrets redacted. */
  request: unknown;
  /** The response: status, headers, body (truncated past a limit). */
  response: unknown;
  /** What expressions read as `<Node>` / `ResponseBinding.<Node>`. */
  output: unknown;
  /** Output handles this step activated (`out`, `case-1`, `error`, …). */
  handles: string[];
  error: ErrorInfo | null;
  skipKind: SkipKind | null;
  /** Switch: the label of the chosen branch. */
  branch: string | null;
  /** Due time of a wait (a Waiting step), or of the next attempt (a Failed step to retry). */
  wakeAt: number | null;
  /** Node-private state kept across a wait. */
  state: unknown;
}

export interface ListExecutionsQuery {
  flowId?: string;
  status?: ExecutionStatus;
  limit?: number;
  cursor?: string;
}

export interface ClaimOptions {
  owner: string;
  now: number;
  leaseMs: number;
  limit: number;
  /** Also take executions whose lease is held by these owners (known dead), expired or not. */
  takeOverFrom?: string[];
  /** Take Waiting executions whose wait is due by this time (default `now`). */
  dueBy?: number;
}

export interface ExecutionRepository {
  /** An id already used in the tenant throws `SvcError('CONFLICT')`. */
  create(record: ExecutionRecord): Promise<void>;
  get(tenantId: string, id: string): Promise<ExecutionRecord | undefined>;
  list(tenantId: string, query?: ListExecutionsQuery): Promise<Page<ExecutionRecord>>;
  /**
   * Applies the fields `patch` names and stamps `updatedAt`. A missing execution (or one of
   * another tenant) throws `SvcError('EXECUTION_NOT_FOUND')`.
   */
  update(tenantId: string, id: string, patch: ExecutionPatch): Promise<void>;
  /**
   * Writes one step (insert, or replace the row of the same execution and `seq`, as a waiting
   * step is when it finishes) and applies `patch` to its execution, atomically: a step is either
   * committed with its effect on the execution or not. When the execution does not exist in
   * `step.tenantId`, nothing is written and it throws `SvcError('EXECUTION_NOT_FOUND')`.
   * The promise settles once the step is durable; a store may commit concurrent calls together.
   */
  commitStep(step: StepRecord, patch: ExecutionPatch): Promise<void>;
  /** Steps in `seq` order. */
  listSteps(tenantId: string, executionId: string): Promise<StepRecord[]>;
  /**
   * Atomically takes up to `limit` executions that need a worker: not terminal, lease free or
   * expired (or held by `takeOverFrom`), and not Waiting on a wait due after `dueBy`.
   * Sets `leaseOwner`/`leaseExpiresAt` on them and returns them.
   */
  claim(options: ClaimOptions): Promise<ExecutionRecord[]>;
  /** Extends every lease held by `owner` to `leaseExpiresAt`. */
  renewLeases(owner: string, leaseExpiresAt: number): Promise<void>;
  /** Owners holding leases on executions that are not terminal. */
  listLeaseOwners(): Promise<string[]>;
}

/** A workspace: flows, executions and API clients belong to exactly one. */
export interface Tenant {
  id: string;
  name: string;
  createdAt: number;
}

export interface TenantRepository {
  /** An id already used throws `SvcError('CONFLICT')`. */
  create(tenant: Tenant): Promise<void>;
  get(id: string): Promise<Tenant | undefined>;
  /** Every tenant, oldest first: the backoffice's view, and how a first start finds an empty store. */
  list(): Promise<Tenant[]>;
}

/**
 * An OAuth2 client of a tenant. Its secret is never stored: only a hash of it, so that a copy of
 * the database does not hand out credentials. Times are milliseconds since the epoch and come
 * from the caller (the gateway's clock), so expiry can be tested with a moved clock.
 */
export interface ApiClientRecord {
  /** Unique across tenants: a token request names the client before any tenant is known. */
  clientId: string;
  tenantId: string;
  name: string;
  scopes: string[];
  /** A developer trial credential; it stops working at `expiresAt`. */
  trial: boolean;
  expiresAt: number | null;
  secretHash: string;
  /** The secret before the last rotation keeps working until `previousSecretExpiresAt`. */
  previousSecretHash: string | null;
  previousSecretExpiresAt: number | null;
  /** Set once: a revoked client's secrets and the tokens issued to it stop working at once. */
  revokedAt: number | null;
  createdAt: number;
}

export interface ApiClientRepository {
  /**
   * A client id or secret hash already used throws `SvcError('CONFLICT')`; a tenant that does not
   * exist throws `SvcError('TENANT_NOT_FOUND')`.
   */
  create(client: ApiClientRecord): Promise<void>;
  get(tenantId: string, clientId: string): Promise<ApiClientRecord | undefined>;
  /**
   * The credential lookups run before the tenant is known, so they are the only ones not scoped
   * by tenant: the record they answer carries its tenant, and everything after is scoped by it.
   */
  findByClientId(clientId: string): Promise<ApiClientRecord | undefined>;
  /** The client whose current or previous secret has this hash (whether or not it is still valid). */
  findBySecretHash(secretHash: string): Promise<ApiClientRecord | undefined>;
  /** Clients of one tenant, oldest first. */
  list(tenantId: string): Promise<ApiClientRecord[]>;
  /**
   * Makes `secretHash` the current secret and the current one the previous, valid until
   * `previousSecretExpiresAt`. A missing client (or one of another tenant) throws
   * `SvcError('CLIENT_NOT_FOUND')`.
   */
  rotateSecret(
    tenantId: string,
    clientId: string,
    rotation: { secretHash: string; previousSecretExpiresAt: number },
  ): Promise<ApiClientRecord>;
  /** Sets `revokedAt` (the first revocation's time stays). Missing: `SvcError('CLIENT_NOT_FOUND')`. */
  revoke(tenantId: string, clientId: string, at: number): Promise<ApiClientRecord>;
  /** Replaces the client's scopes (upgrades of stored clients). Missing: `SvcError('CLIENT_NOT_FOUND')`. */
  setScopes(tenantId: string, clientId: string, scopes: string[]): Promise<ApiClientRecord>;
}

/**
 * A key that signs access tokens. Keys belong to the service, not to a tenant: a token names its
 * tenant in a claim, and one key set lets any process of the service verify any token.
 */
export interface SigningKeyRecord {
  /** Key id, sent as the JWT header's `kid`. */
  kid: string;
  /** The JWS algorithm the key is for, e.g. `EdDSA`; verification accepts only this one. */
  algorithm: string;
  /** The private key as a JWK, JSON text (its public half is derived from it). */
  jwk: string;
  createdAt: number;
}

export interface SigningKeyRepository {
  /** A kid already used throws `SvcError('CONFLICT')`. */
  create(key: SigningKeyRecord): Promise<void>;
  get(kid: string): Promise<SigningKeyRecord | undefined>;
  /** Newest first: the first one signs, the others still verify tokens they signed. */
  list(): Promise<SigningKeyRecord[]>;
}

/** An imported API description of a tenant's catalog (its current version only). */
export interface CatalogSpecRecord {
  tenantId: string;
  /** Chosen by the importer; importing again with the same id replaces the spec. */
  id: string;
  name: string;
  /** `info.title` of the document. */
  title: string;
  /** `info.version` of the document. */
  version: string;
  /** The format it came in: `2.0` (Swagger), `3.0` or `3.1`. */
  sourceVersion: string;
  /** The document as given, parsed from JSON or YAML. */
  document: unknown;
  endpointCount: number;
  importedAt: number;
}

export type CatalogSpecSummary = Omit<CatalogSpecRecord, 'document'>;

/** One operation of a spec. The engine keeps `endpoint` as opaque JSON; discovery gives it its shape. */
export interface CatalogEndpointRecord {
  tenantId: string;
  specId: string;
  /** Unique within its spec: the operationId, or the method and path. */
  endpointId: string;
  method: string;
  path: string;
  summary: string;
  tags: string[];
  endpoint: Record<string, unknown>;
}

export type CatalogEndpointInput = Omit<CatalogEndpointRecord, 'tenantId' | 'specId'>;

export interface CatalogSpecImport {
  id: string;
  name: string;
  title: string;
  version: string;
  sourceVersion: string;
  document: unknown;
  importedAt: number;
  endpoints: CatalogEndpointInput[];
}

/** What an import changed, by endpoint id, compared with the spec's previous version. */
export interface CatalogImportResult {
  spec: CatalogSpecSummary;
  added: string[];
  removed: string[];
  /** Kept ids whose endpoint JSON differs. */
  changed: string[];
  unchanged: number;
}

export interface ListEndpointsQuery {
  /** Case-insensitive match on endpoint id, method and path, summary and tags. */
  search?: string;
  specId?: string;
  limit?: number;
  cursor?: string;
}

export interface CatalogRepository {
  /**
   * Replaces the spec `spec.id` (or adds it) with its endpoints in one transaction: a failing
   * import leaves the previous version whole. Two endpoints with the same id throw
   * `SvcError('VALIDATION_ERROR')`.
   */
  importSpec(tenantId: string, spec: CatalogSpecImport): Promise<CatalogImportResult>;
  getSpec(tenantId: string, id: string): Promise<CatalogSpecRecord | undefined>;
  /** By id. */
  listSpecs(tenantId: string): Promise<CatalogSpecSummary[]>;
  /** By spec id, then in the order the spec lists its operations. */
  listEndpoints(tenantId: string, query?: ListEndpointsQuery): Promise<Page<CatalogEndpointRecord>>;
  /**
   * By endpoint id; when several specs have one, the first by spec id. `specId:endpointId` names
   * the spec too.
   */
  getEndpoint(tenantId: string, id: string): Promise<CatalogEndpointRecord | undefined>;
}

/*
 * Jobs: long-running background work (test generation, …) run by the process that started it.
 * The work itself is code in that process, so a job is not resumed elsewhere: a job whose
 * process died (its lease expired unrenewed) is marked Failed with `JOB_INTERRUPTED`.
 */
export const JOB_STATUSES = ['Queued', 'Running', 'Completed', 'Failed'] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];
export const ACTIVE_JOB_STATUSES: readonly JobStatus[] = ['Queued', 'Running'];

export interface JobRecord {
  /** `job_` and a version 7 UUID, so ids sort by creation time. */
  id: string;
  tenantId: string;
  /** What the job does, e.g. `testgen`; the job service is generic over it. */
  kind: string;
  status: JobStatus;
  /** What the job was started with (JSON). */
  input: unknown;
  /** A short line the work reports while it runs, e.g. `3 of 8 endpoints`. */
  progress: string | null;
  /** What the work answered, once Completed (JSON). */
  result: unknown;
  error: { code: string; message: string } | null;
  createdAt: number;
  startedAt: number | null;
  endedAt: number | null;
  updatedAt: number;
  /** The process running it, and until when that holds without renewal. */
  owner: string | null;
  leaseExpiresAt: number | null;
}

export type JobPatch = Partial<
  Pick<JobRecord, 'status' | 'progress' | 'result' | 'error' | 'startedAt' | 'endedAt' | 'owner' | 'leaseExpiresAt'>
>;

export interface ListJobsQuery {
  kind?: string;
  status?: JobStatus;
  limit?: number;
  cursor?: string;
}

export interface InterruptJobsOptions {
  /** Active jobs whose lease expired by this time are interrupted. */
  now: number;
  /** Also jobs held by these owners (known dead), expired or not. */
  deadOwners?: string[];
  /** What the interrupted jobs answer as their error. */
  error: { code: string; message: string };
}

export interface JobRepository {
  /** An id already used in the tenant throws `SvcError('CONFLICT')`. */
  create(record: JobRecord): Promise<void>;
  get(tenantId: string, id: string): Promise<JobRecord | undefined>;
  /** Newest first. */
  list(tenantId: string, query?: ListJobsQuery): Promise<Page<JobRecord>>;
  /**
   * Applies `patch` to a job that is still Queued or Running and stamps `updatedAt`; answers the
   * job as it is afterwards. A finished job is left as it is (the first end wins: a job marked
   * interrupted stays so when its work answers late). A missing job (or one of another tenant)
   * throws `SvcError('JOB_NOT_FOUND')`.
   */
  updateActive(tenantId: string, id: string, patch: JobPatch): Promise<{ record: JobRecord; applied: boolean }>;
  /** Extends the lease of every active job held by `owner`. */
  renewLeases(owner: string, leaseExpiresAt: number): Promise<void>;
  /** Owners holding active jobs. */
  listLeaseOwners(): Promise<string[]>;
  /**
   * Atomically marks Failed, with `error`, every active job (of any tenant) whose lease expired
   * by `now` or whose owner is one of `deadOwners`; answers the jobs it marked.
   */
  interruptOrphans(options: InterruptJobsOptions): Promise<JobRecord[]>;
}

/*
 * Suites: flows run as one unit (a CI gate, a regression set, generated tests).
 */
export const SUITE_MODES = ['sequential', 'parallel'] as const;
export type SuiteMode = (typeof SUITE_MODES)[number];
/** `health-check`: each flow is a check whose state (healthy/failing) every run updates, alerting on changes. */
export const SUITE_KINDS = ['regression', 'generated', 'health-check'] as const;
export type SuiteKind = (typeof SUITE_KINDS)[number];

/** What a suite is made of, as a client sends it. */
export interface SuiteDefinition {
  name: string;
  description: string;
  mode: SuiteMode;
  /** Run in this order (sequential), or started in this order (parallel). */
  flowIds: string[];
  kind: SuiteKind;
  /** Where a generated suite came from, e.g. `{ endpointId, engine, jobId }` (JSON); else null. */
  source: Record<string, unknown> | null;
}

export type SuiteRecord = SuiteDefinition & {
  /** `ste_` and 20 base32 characters. */
  id: string;
  tenantId: string;
  /** ISO 8601, stamped by the store. */
  createdAt: string;
  updatedAt: string;
};

export interface SuiteSummary {
  id: string;
  name: string;
  description: string;
  mode: SuiteMode;
  kind: SuiteKind;
  flowCount: number;
  createdAt: string;
  updatedAt: string;
}

export interface ListSuitesQuery {
  /** Case-insensitive match on name and description. */
  search?: string;
  kind?: SuiteKind;
  limit?: number;
  cursor?: string;
}

export interface SuiteRepository {
  /**
   * Saves a suite with a new `ste_` id (or `id` when given). A name or id already used in the
   * tenant throws `SvcError('CONFLICT')`.
   */
  create(tenantId: string, definition: SuiteDefinition, options?: { id?: string }): Promise<SuiteRecord>;
  get(tenantId: string, id: string): Promise<SuiteRecord | undefined>;
  /** Exact, case-sensitive name. */
  findByName(tenantId: string, name: string): Promise<SuiteRecord | undefined>;
  /** Replaces the definition. Missing: `SvcError('SUITE_NOT_FOUND')`; a name taken by another suite: `CONFLICT`. */
  update(tenantId: string, id: string, definition: SuiteDefinition): Promise<SuiteRecord>;
  /** True when a suite was deleted. */
  delete(tenantId: string, id: string): Promise<boolean>;
  /** Most recently updated first. */
  list(tenantId: string, query?: ListSuitesQuery): Promise<Page<SuiteSummary>>;
}

/*
 * Environments: named sets of variables a run reads as `env.*` (`staging`, `prod`, …). Values
 * marked secret are encrypted at rest; no read of the repository answers them except `resolve`,
 * which a run uses.
 */

/** What a secret value reads as everywhere but inside a run. */
export const SECRET_MASK = '***';

/** What an environment is made of, as a client sends it. */
export interface EnvironmentDefinition {
  name: string;
  description: string;
  /** Plain variables. */
  variables: Record<string, unknown>;
  /** Secret variables: encrypted at rest, read back as `***`. A key is in one of the two maps. */
  secrets: Record<string, unknown>;
}

export interface EnvironmentRecord {
  /** `envr_` and 20 base32 characters. */
  id: string;
  tenantId: string;
  name: string;
  description: string;
  /** Every variable; the value of each secret one is `***`. */
  variables: Record<string, unknown>;
  /** The names in `variables` whose values are secret, sorted. */
  secretKeys: string[];
  /** ISO 8601, stamped by the store. */
  createdAt: string;
  updatedAt: string;
}

export interface EnvironmentPatch {
  description?: string;
  variables?: Record<string, unknown>;
  secrets?: Record<string, unknown>;
  unset?: string[];
}

/** An environment as a run reads it: secret values decrypted. */
export interface ResolvedEnvironment {
  id: string;
  name: string;
  values: Record<string, unknown>;
  secretKeys: string[];
}

export interface EnvironmentRepository {
  /** A name or id already used in the tenant throws `SvcError('CONFLICT')`. */
  create(tenantId: string, definition: EnvironmentDefinition, options?: { id?: string }): Promise<EnvironmentRecord>;
  get(tenantId: string, id: string): Promise<EnvironmentRecord | undefined>;
  /** Exact, case-sensitive name. */
  findByName(tenantId: string, name: string): Promise<EnvironmentRecord | undefined>;
  /**
   * Replaces the definition; the secrets named in `keepSecrets` keep their stored values. Missing
   * (or another tenant's): `SvcError('ENVIRONMENT_NOT_FOUND')`; a name taken by another
   * environment: `CONFLICT`.
   */
  update(
    tenantId: string,
    id: string,
    definition: EnvironmentDefinition,
    options?: { keepSecrets?: string[] },
  ): Promise<EnvironmentRecord>;
  /**
   * Writes the variables and secrets given and removes `unset`, keeping every other variable, in
   * one transaction. Missing: `ENVIRONMENT_NOT_FOUND`.
   */
  patch(tenantId: string, id: string, patch: EnvironmentPatch): Promise<EnvironmentRecord>;
  /** True when an environment was deleted. */
  delete(tenantId: string, id: string): Promise<boolean>;
  /** By name. */
  list(tenantId: string): Promise<EnvironmentRecord[]>;
  /** The values with secrets decrypted; `SvcError('SECRET_UNREADABLE')` under another key. */
  resolve(tenantId: string, id: string): Promise<ResolvedEnvironment | undefined>;
  /** `resolve` by exact, case-sensitive name. */
  resolveByName(tenantId: string, name: string): Promise<ResolvedEnvironment | undefined>;
}

/**
 * A public trigger path of a flow (a `component-webhook` node in `trigger` mode). Paths are
 * unique across the service, not per tenant: the path alone finds the flow.
 */
export interface WebhookTriggerRecord {
  path: string;
  tenantId: string;
  flowId: string;
  nodeId: string;
  createdAt: number;
}

/** A verified callback for one wait (execution, node, loop scope), kept until the wait reads it. */
export interface CallbackDeliveryRecord {
  /** SHA-256 of the callback token, hex: the token itself is never stored. */
  tokenHash: string;
  tenantId: string;
  executionId: string;
  nodeId: string;
  scope: string;
  body: unknown;
  headers: Record<string, string>;
  receivedAt: number;
}

/**
 * A trigger request taken once: the replay key of a verified request (a hash of its Standard
 * Webhooks id or of its timestamped signature) on a tenant's trigger path, and the execution it
 * started. Kept until `expiresAt`, when the request's timestamp falls out of its tolerance.
 */
export interface WebhookReceipt {
  tenantId: string;
  path: string;
  key: string;
  executionId: string;
  claimedAt: number;
  expiresAt: number;
}

export interface WebhookRepository {
  /**
   * Stores `receipt` unless a live one holds its key (tenant, path, key), and answers the
   * execution of the receipt that holds the key now: `claimed` when it is `receipt`'s own. An
   * expired receipt is replaced, and so is one claimed before `abandonedBefore` whose execution
   * does not exist (the process that claimed it stopped before creating it). Each call also deletes
   * a few expired receipts.
   */
  claimReceipt(
    receipt: WebhookReceipt,
    options: { abandonedBefore: number },
  ): Promise<{ claimed: boolean; executionId: string }>;
  /** Deletes the receipt of (tenant, path, key) while it names `executionId` (its run did not start). */
  releaseReceipt(receipt: Pick<WebhookReceipt, 'tenantId' | 'path' | 'key' | 'executionId'>): Promise<void>;
  /** The flow a trigger path starts, in any tenant. */
  findTrigger(path: string): Promise<WebhookTriggerRecord | undefined>;
  /** The trigger paths of one flow, or of every flow of the tenant when no flow is named; by flow, then node. */
  listTriggers(tenantId: string, flowId?: string): Promise<WebhookTriggerRecord[]>;
  /**
   * Makes `triggers` the flow's whole set of trigger paths, in one transaction: paths the flow no
   * longer names are freed. A path another flow holds throws `SvcError('WEBHOOK_PATH_TAKEN')`
   * and changes nothing.
   */
  replaceTriggers(tenantId: string, flowId: string, triggers: { nodeId: string; path: string }[]): Promise<void>;
  /**
   * Stores a delivery and, when its execution is Waiting, makes it due at
   * `wakeAt`, in one transaction. A delivery already stored for the token throws
   * `SvcError('WEBHOOK_TOKEN_USED')`.
   */
  addDelivery(delivery: CallbackDeliveryRecord, options: { wakeAt: number }): Promise<void>;
  getDelivery(tenantId: string, tokenHash: string): Promise<CallbackDeliveryRecord | undefined>;
  /** Deliveries stored for these executions (any tenant): what their waits may read now. */
  listDeliveries(executionIds: readonly string[]): Promise<CallbackDeliveryRecord[]>;
}

/*
 * Schedules: a flow or a suite run by a five-field cron expression. `nextDueAt` is both the time
 * the next run is due and the key of its claim: a process fires a due run only if it moved
 * `nextDueAt` on from the value it read (a conditional update), so each due run fires once
 * whatever the number of processes on the store.
 */
export const SCHEDULE_TARGET_TYPES = ['flow', 'suite'] as const;
export type ScheduleTargetType = (typeof SCHEDULE_TARGET_TYPES)[number];
export const OVERLAP_POLICIES = ['skip', 'allow'] as const;
export type OverlapPolicy = (typeof OVERLAP_POLICIES)[number];
/** `running` until a suite run ends; a flow run's outcome is read from its execution. */
export const SCHEDULE_RUN_OUTCOMES = ['running', 'passed', 'failed'] as const;
export type ScheduleRunOutcome = (typeof SCHEDULE_RUN_OUTCOMES)[number];

/** What a schedule is made of, once validated (target ids resolved). */
export interface ScheduleDefinition {
  name: string;
  description: string;
  target: { type: ScheduleTargetType; id: string };
  /** Five fields: minute hour day-of-month month day-of-week. */
  cron: string;
  /** `UTC` or an IANA zone name, e.g. `Europe/Zurich`. */
  timezone: string;
  /** The stored environment the runs read as `env.*`; null for none. */
  environment: string | null;
  enabled: boolean;
  /** `skip`: a due run is skipped (and counted) while the previous run is still going. */
  overlap: OverlapPolicy;
}

/** The last run a schedule fired. */
export interface ScheduleLastRun {
  /** When it was fired (ms since the epoch). */
  at: number;
  /** The slot it was fired for (ms); for a run asked by hand, the time it was asked. */
  dueAt: number;
  /** The execution id (flow target) or the suite run id (suite target). */
  runId: string;
  outcome: ScheduleRunOutcome;
  error: ErrorInfo | null;
  endedAt: number | null;
  /** Due runs that were not fired because the service was down: fired once, counted here. */
  missed: number;
  /** Asked by hand (`POST /api/schedules/{id}/run`), not by the clock. */
  manual: boolean;
}

export interface ScheduleRecord extends ScheduleDefinition {
  /** `sch_` and 20 base32 characters. */
  id: string;
  tenantId: string;
  /** When the next run is due (ms); null while paused. */
  nextDueAt: number | null;
  lastRun: ScheduleLastRun | null;
  /** Due runs skipped because the previous run was still going (`overlap: skip`). */
  skippedRuns: number;
  lastSkippedAt: number | null;
  /** Due runs missed while no scheduler ran, over the schedule's life. */
  missedRuns: number;
  createdAt: number;
  updatedAt: number;
}

export interface ListSchedulesQuery {
  /** Only enabled schedules (the default of the REST list); false lists paused ones too. */
  enabledOnly?: boolean;
  limit?: number;
  cursor?: string;
}

/** How a claimed due run goes: fired with this run, or skipped. */
export type ScheduleClaimOutcome = { fire: ScheduleLastRun } | { skip: { at: number; missed: number } };

export interface ScheduleClaim {
  tenantId: string;
  id: string;
  /** The `nextDueAt` the claimer read: the claim holds only while it is still stored. */
  dueAt: number;
  /** What `nextDueAt` becomes. */
  nextDueAt: number | null;
  outcome: ScheduleClaimOutcome;
}

export interface ScheduleRepository {
  /** Saves a schedule with a new `sch_` id (or `id`). A name or id in use in the tenant: `CONFLICT`. */
  create(
    tenantId: string,
    definition: ScheduleDefinition,
    options: { nextDueAt: number | null; id?: string },
  ): Promise<ScheduleRecord>;
  get(tenantId: string, id: string): Promise<ScheduleRecord | undefined>;
  /** Exact, case-sensitive name. */
  findByName(tenantId: string, name: string): Promise<ScheduleRecord | undefined>;
  /**
   * Replaces the definition and `nextDueAt`, keeping the run history. Missing (or another
   * tenant's): `SvcError('SCHEDULE_NOT_FOUND')`; a name taken by another schedule: `CONFLICT`.
   */
  update(
    tenantId: string,
    id: string,
    definition: ScheduleDefinition,
    options: { nextDueAt: number | null },
  ): Promise<ScheduleRecord>;
  /** True when a schedule was deleted. */
  delete(tenantId: string, id: string): Promise<boolean>;
  /** Oldest first (by creation time, then id). */
  list(tenantId: string, query?: ListSchedulesQuery): Promise<Page<ScheduleRecord>>;
  /** How many schedules the tenant has, paused ones included. */
  count(tenantId: string): Promise<number>;
  /**
   * Enabled schedules of every tenant whose `nextDueAt` is at or before `now`, earliest first:
   * the scheduler's read, which (like the execution claim) works across tenants.
   */
  listDue(now: number, limit: number): Promise<ScheduleRecord[]>;
  /**
   * Moves `nextDueAt` from `claim.dueAt` to `claim.nextDueAt` and records the outcome, in one
   * conditional update: true for the one caller that found `dueAt` still stored (and the
   * schedule enabled), false for every other. `missed` adds to `missedRuns`; a skip adds one
   * to `skippedRuns`.
   */
  claim(claim: ScheduleClaim): Promise<boolean>;
  /** Records a run asked by hand as the last run. Missing: `SCHEDULE_NOT_FOUND`. */
  recordRun(tenantId: string, id: string, run: ScheduleLastRun): Promise<void>;
  /**
   * Sets the outcome of the last run if it is still `runId` (a later run is left alone); true
   * when it was.
   */
  finishRun(
    tenantId: string,
    id: string,
    runId: string,
    end: { outcome: ScheduleRunOutcome; error: ErrorInfo | null; endedAt: number },
  ): Promise<boolean>;
}

export interface Store {
  flows: FlowRepository;
  executions: ExecutionRepository;
  tenants: TenantRepository;
  clients: ApiClientRepository;
  signingKeys: SigningKeyRepository;
  catalog: CatalogRepository;
  jobs: JobRepository;
  suites: SuiteRepository;
  environments: EnvironmentRepository;
  webhooks: WebhookRepository;
  schedules: ScheduleRepository;
  /** Alert channels of health-check suites (secret parts sealed). */
  alertChannels: AlertChannelRepository;
  /** Health-check states and the alert deliveries their changes raise. */
  health: HealthRepository;
  /**
   * A 32-byte key for `purpose`, derived from the store's secret key: every process on the store
   * derives the same one (callback tokens any of them can open).
   */
  deriveKey(purpose: string): Buffer;
  /**
   * Calls `listener` when some process announces work that any worker may claim now (a queued
   * run, a run let go, a callback for a released wait); answers a function that stops the calls.
   * Absent where the store has no such channel (workers then find work by polling alone).
   */
  onWorkAvailable?(listener: () => void): () => void;
  close(): Promise<void>;
}
