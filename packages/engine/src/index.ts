/**
 * @svc/engine: flows, expressions, the durable runtime, node types and the store contracts.
 * The SQLite store is the subpath `@svc/engine/sqlite`.
 */
export { createEngine, type Engine, type EngineOptions, type RunFlowRequest } from './engine.js';
export { SvcError, isSvcError, toErrorInfo, type SvcErrorOptions } from './errors.js';
export { systemClock, createManualClock, type Clock } from './clock.js';
export { silentLogger, createStderrLogger, type Logger } from './logger.js';

export {
  flowDocumentSchema,
  flowNodeSchema,
  connectionSchema,
  canvasGroupSchema,
  annotationSchema,
  flowDataSchema,
  flowInputSchema,
  FRAME_COLORS,
  NODE_NAME_PATTERN,
  MAX_FLOW_NODES,
  MAX_FLOW_CONNECTIONS,
  type FlowDocument,
  type FlowDocumentInput,
  type FlowNode,
  type Connection,
  type CanvasGroup,
  type Annotation,
} from './model/flow-schema.js';
export { endpointConfigSchema, type EndpointConfig } from './model/configs/endpoint-config.js';
export { switchConfigSchema, type SwitchConfig } from './model/configs/switch-config.js';
export { variablesConfigSchema } from './model/configs/variables-config.js';
export { delayConfigSchema } from './model/configs/delay-config.js';
export { COMPARISON_OPERATORS, compare, type ComparisonOperator } from './model/operators.js';
export { parseDuration } from './model/duration.js';
export { validateFlow, assertValidFlow, type ValidationProblem, type ValidationResult } from './model/validate-flow.js';
export { renameNode } from './model/rename-node.js';
export { moveFrame } from './model/move-frame.js';
export { parseFlowText } from './model/parse-flow-text.js';
export {
  assertJsonDepth,
  checkJsonShape,
  describeJsonShapeProblem,
  MAX_JSON_DEPTH,
  yamlTextTooDeep,
  type JsonShapeLimits,
  type JsonShapeProblem,
} from './model/json-depth.js';

export { createNodeRegistry, BUILTIN_NODE_TYPES, type NodeRegistry, type AnyNodeType } from './nodes/registry.js';
export type { NodeTypeDefinition, NodeContext, NodeResult, NodeOutput, JsSandbox } from './nodes/types.js';
export { createUndiciHttpClient } from './http/undici-http-client.js';
export type { HttpClient, HttpRequest, HttpResponse } from './http/types.js';
export {
  createEgressPolicy,
  egressPolicyFromEnv,
  parseEgressRules,
  type EgressMode,
  type EgressPolicy,
  type EgressPolicyOptions,
  type EgressRule,
} from './http/egress-policy.js';
export { createQuickJsSandbox, parseTemplate } from './expressions/index.js';
export type { Template, TemplatePart, PathExpression, PathSegment } from './expressions/index.js';

export type { FlowService } from './flows/flow-service.js';
export {
  MAX_PROGRESS_LENGTH,
  type JobService,
  type JobContext,
  type JobWork,
  type StartJobRequest,
} from './jobs/job-service.js';
export {
  DEFAULT_FLOW_TIMEOUT_MS,
  type SuiteService,
  type RunSuiteOptions,
  type SuiteRunResult,
  type SuiteFlowResult,
} from './suites/suite-service.js';
export {
  suiteDefinitionSchema,
  runSuiteOptionsSchema,
  MAX_SUITE_FLOWS,
  DEFAULT_SUITE_CONCURRENCY,
  MAX_SUITE_CONCURRENCY,
  type SuiteDefinitionInput,
} from './suites/suite-schema.js';
export { percentile } from './suites/suite-kpis.js';
export type { StartExecutionRequest } from './runtime/executor.js';
export type { ExecutionView, StepView } from './runtime/execution-view.js';
export { stepTitle, stepNote, type DescribedStep } from './render/describe-step.js';
export { table, oneLine } from './render/text-table.js';
export {
  EXECUTION_STATUSES,
  STEP_STATUSES,
  TERMINAL_STATUSES,
  type Store,
  type StoredFlow,
  type FlowSummary,
  type ExecutionRecord,
  type ExecutionStatus,
  type StepRecord,
  type ErrorInfo,
  type Page,
  type ListFlowsQuery,
  type ListExecutionsQuery,
  type Tenant,
  type TenantRepository,
  type ApiClientRecord,
  type ApiClientRepository,
  type SigningKeyRecord,
  type SigningKeyRepository,
  type CatalogSpecRecord,
  type CatalogSpecSummary,
  type CatalogEndpointRecord,
  type CatalogEndpointInput,
  type CatalogSpecImport,
  type CatalogImportResult,
  type ListEndpointsQuery,
  type CatalogRepository,
  JOB_STATUSES,
  type JobStatus,
  type JobRecord,
  type ListJobsQuery,
  type JobRepository,
  SUITE_MODES,
  SUITE_KINDS,
  type SuiteMode,
  type SuiteKind,
  type SuiteDefinition,
  type SuiteRecord,
  type SuiteSummary,
  type ListSuitesQuery,
  type SuiteRepository,
} from './store/types.js';
