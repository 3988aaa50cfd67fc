/**
 * Every code an `SvcError` of any svc package carries: the one list the gateway's error table
 * must map in full (its type is `Record<ErrorCode, …>`), so a new code without an HTTP status is
 * a type error there, and a test fails on any code thrown that is not listed here.
 */
export const ERROR_CODES = [
  // The request or document is wrong.
  'BAD_REQUEST',
  'VALIDATION_ERROR',
  'MALFORMED_JSON',
  'INVALID_REQUEST',
  'INVALID_INPUTS',
  'INVALID_FLOW_FILE',
  'INVALID_OPENAPI',
  'INVALID_ROADMAP',
  'MISSING_ENV',
  'EXPRESSION_SYNTAX',
  'UNKNOWN_ENGINE',
  'SAMPLING_UNAVAILABLE',
  'PATH_NOT_SUPPORTED',
  'FILE_NOT_READABLE',
  'TESTGEN_NOT_CONFIGURED',
  'TESTGEN_TEMPLATE_IN_VALUE',
  'PAYLOAD_TOO_LARGE',
  'UNSUPPORTED_MEDIA_TYPE',
  // An inbound webhook's body fails the node's payloadSchema.
  'PAYLOAD_INVALID',
  // An inbound webhook fails its node's verification (signature, token, header, pre-script).
  'WEBHOOK_UNVERIFIED',
  // Who is asking.
  'UNAUTHORIZED',
  'INSUFFICIENT_SCOPE',
  'SCOPE_NOT_GRANTABLE',
  'RATE_LIMITED',
  // The egress policy refuses the address a request or a step would reach.
  'EGRESS_DENIED',
  // What is asked for does not exist (in the caller's tenant).
  'NOT_FOUND',
  'FLOW_NOT_FOUND',
  'EXECUTION_NOT_FOUND',
  'SUITE_NOT_FOUND',
  'ENVIRONMENT_NOT_FOUND',
  'JOB_NOT_FOUND',
  'TENANT_NOT_FOUND',
  'CLIENT_NOT_FOUND',
  'ENDPOINT_NOT_FOUND',
  'SPEC_NOT_FOUND',
  'NODE_NOT_FOUND',
  'FRAME_NOT_FOUND',
  'WEBHOOK_NOT_FOUND',
  'SCHEDULE_NOT_FOUND',
  // An alert channel id unknown in the suite (or deleted before its alert was sent).
  'ALERT_CHANNEL_NOT_FOUND',
  // The state does not allow it (now).
  'CONFLICT',
  'CATALOG_EMPTY',
  'CLIENT_REVOKED',
  'FLOW_NAME_TAKEN',
  'FLOW_NAME_AMBIGUOUS',
  'ENDPOINT_AMBIGUOUS',
  'CANCELLED',
  'JOB_CANCELLED',
  'WEBHOOK_PATH_TAKEN',
  'WEBHOOK_TOKEN_USED',
  // A trigger request whose twin (same id or signature) is being taken by another request now.
  'WEBHOOK_IN_PROGRESS',
  // A callback token whose wait ended (timed out, skipped) or whose execution ended.
  'WEBHOOK_GONE',
  // A flow's data does not fit what a node needs, found while running it.
  'EXPRESSION_UNRESOLVED',
  'EXPRESSION_NOT_BOOLEAN',
  'SANDBOX_ERROR',
  'SANDBOX_TIMEOUT',
  'SANDBOX_MEMORY',
  'COLLECT_NOT_AN_OBJECT',
  'LOOP_NOT_AN_ARRAY',
  'INVALID_COUNT',
  'INVALID_DURATION',
  'INVALID_PATH',
  'INVALID_URL',
  'SUBFLOW_DEPTH_EXCEEDED',
  'TESTGEN_NO_CASES',
  // How a run ended: codes an execution, a step or a suite's flow result carries in its `error`.
  'ASSERTION_FAILED',
  'LOOP_FAILED',
  'SUBFLOW_FAILED',
  'FLOW_FAILED',
  'OUTPUTS_UNRESOLVED',
  'RESUME_FAILED',
  'SUITE_FLOW_TIMEOUT',
  'HTTP_ERROR_STATUS',
  'WEBHOOK_TIMEOUT',
  'POLLING_TIMEOUT',
  'POLLING_UNEXPECTED_STATE',
  // A service svc depends on failed or did not answer.
  'NETWORK_ERROR',
  'TIMEOUT',
  'SERVICE_UNREACHABLE',
  'SERVICE_TIMEOUT',
  'INVALID_RESPONSE',
  'UNKNOWN_ERROR',
  'TESTGEN_MODEL_UNREACHABLE',
  'TESTGEN_MODEL_TIMEOUT',
  'TESTGEN_MODEL_HTTP_ERROR',
  'TESTGEN_MODEL_FAILED',
  'TESTGEN_MODEL_OUTPUT_INVALID',
  // svc itself cannot answer.
  'INTERNAL_ERROR',
  'CONFIG_ERROR',
  // A stored secret cannot be decrypted: the store's key is not the one it was written with.
  'SECRET_UNREADABLE',
  'CATALOG_NOT_AVAILABLE',
  'STORE_UNAVAILABLE',
  'SHUTTING_DOWN',
  'JOB_INTERRUPTED',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];
