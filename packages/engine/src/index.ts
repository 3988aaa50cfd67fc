/**
 * @svc/engine: flows, expressions, the durable runtime, node types and the store contracts.
 * The SQLite store is the subpath `@svc/engine/sqlite`; text tables for CLI output `@svc/engine/text-table`.
 */
export { createEngine, type Engine, type EngineOptions, type RunFlowRequest } from './engine.js';
export { SvcError, isSvcError, toErrorInfo, type SvcErrorOptions } from './errors.js';
export { ERROR_CODES, type ErrorCode } from './error-codes.js';
export { systemClock, createManualClock, type Clock } from './clock.js';
export {
  silentLogger,
  createLogger,
  createStderrLogger,
  type Logger,
  type LoggerOptions,
  type LogLevel,
  type LogFormat,
} from './logger.js';
export { loadConfig, type SvcConfig, type ConfigEnv } from './config/load-config.js';

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
export { timerDelay } from './timer-delay.js';
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
  egressPolicyOf,
  parseEgressRules,
  type EgressMode,
  type EgressPolicy,
  type EgressPolicyOptions,
  type EgressRule,
} from './http/egress-policy.js';
export { webhookConfigSchema, type WebhookConfig, type WebhookVerification } from './model/configs/webhook-config.js';
export {
  verifyWebhook,
  DEFAULT_SIGNATURE_HEADER,
  DEFAULT_TOLERANCE_SECONDS,
  PRE_SCRIPT_GLOBALS,
  type InboundWebhook,
  type VerificationOutcome,
  type VerifyWebhookDeps,
} from './webhooks/verify-webhook.js';
export {
  createPayloadValidator,
  checkPayloadSchema,
  MAX_PAYLOAD_SCHEMA_BYTES,
  MAX_PAYLOAD_SCHEMA_DEPTH,
  MAX_EXPANDED_SUBSCHEMAS,
  MAX_PAYLOAD_PROBLEMS,
  type PayloadProblem,
} from './webhooks/payload-schema.js';
export { createQuickJsSandbox, parseTemplate } from './expressions/index.js';
export { createInThreadQuickJsSandbox, type QuickJsSandbox, type QuickJsSandboxOptions } from './expressions/index.js';
export type { Template, TemplatePart, PathExpression, PathSegment } from './expressions/index.js';

export type { FlowService, SaveFlowOptions } from './flows/flow-service.js';
export { deleteFlow } from './flows/delete-flow.js';
export type { SavedTarget } from './flows/unattended-runs.js';
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
export type { HealthService, SuiteHealthView, CheckView, AlertDeliveryView } from './health/health-service.js';
export type { AlertChannelService, AlertChannelView } from './health/alert-channel-service.js';
export {
  alertChannelBodySchema,
  MAX_ALERT_CHANNELS,
  PAGERDUTY_EVENTS_URL,
  PAGERDUTY_SEVERITIES,
  type AlertChannelBody,
  type AlertChannelBodyInput,
} from './health/alert-channel-schema.js';
export { backoffDelay, type AlertDeliveryOptions, type DeliveryPassSummary } from './health/alert-dispatcher.js';
export { signStandardWebhook } from './health/sign-alert.js';
export { decideCheck, type CheckObservation, type CheckDecision, type AlertTarget } from './health/check-transition.js';
export {
  parseSuiteFile,
  locateProblems,
  lineInMessage,
  suiteFileSchema,
  MAX_SUITE_FILE_BYTES,
  MAX_FLOW_FILE_BYTES,
  type SuiteFile,
  type FileProblem,
} from './suites/suite-file.js';
export { createLineLocator, parseJsonPath } from './model/locate-json-path.js';
export type { EnvironmentService, RunEnvironment, RunEnvironmentRequest } from './environments/environment-service.js';
export {
  environmentBodySchema,
  setEnvironmentSchema,
  parseEnvironmentInput,
  environmentNameSchema,
  variableKeySchema,
  MAX_ENVIRONMENT_VARIABLES,
  type EnvironmentBody,
  type EnvironmentBodyInput,
  type SetEnvironmentRequest,
} from './environments/environment-schema.js';
export { createSecretCipher, parseSecretKey, type SecretCipher } from './environments/secret-cipher.js';
export type { StartExecutionRequest } from './runtime/executor.js';
export { DEFAULT_PUBLIC_URL } from './engine.js';
export type { WebhookService, InboundRequest, FlowTrigger } from './webhooks/webhook-service.js';
export type { ExecutionView, StepView, WaitView } from './runtime/execution-view.js';
export { stepTitle, stepNote, type DescribedStep } from './render/describe-step.js';
export type {
  ScheduleService,
  ScheduleView,
  ScheduleRunView,
  FiredRun,
  ListSchedulesOptions,
} from './schedules/schedule-service.js';
export { MAX_SCHEDULES_PER_TENANT } from './schedules/schedule-service.js';
export {
  createScheduler,
  DEFAULT_SCHEDULER_INTERVAL_MS,
  type Scheduler,
  type SchedulerOptions,
} from './schedules/scheduler.js';
export {
  scheduleBodySchema,
  cronExpressionSchema,
  timezoneSchema,
  UPCOMING_DUE_TIMES,
  type ScheduleBody,
  type ScheduleBodyInput,
} from './schedules/schedule-schema.js';
export { cronProblem, isTimeZone, nextCronTimes, MAX_COUNTED_SLOTS } from './schedules/cron.js';
export * from './store/index.js';
