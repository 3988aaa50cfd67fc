import type { ErrorCode } from '@svc/engine';
import type { ContentfulStatusCode } from 'hono/utils/http-status';

/**
 * Every error code of svc with the HTTP status the gateway answers it with: the one place where
 * codes become statuses. Typed over the engine's `ERROR_CODES`, so a code without a status here
 * does not compile.
 */
export const ERROR_STATUS = {
  BAD_REQUEST: 400,
  VALIDATION_ERROR: 400,
  MALFORMED_JSON: 400,
  INVALID_REQUEST: 400,
  INVALID_INPUTS: 400,
  INVALID_FLOW_FILE: 400,
  INVALID_OPENAPI: 400,
  INVALID_ROADMAP: 400,
  // A run or suite run whose flows read env keys the call did not give.
  MISSING_ENV: 400,
  EXPRESSION_SYNTAX: 400,
  UNKNOWN_ENGINE: 400,
  SAMPLING_UNAVAILABLE: 400,
  PATH_NOT_SUPPORTED: 400,
  FILE_NOT_READABLE: 400,
  TESTGEN_NOT_CONFIGURED: 400,
  TESTGEN_TEMPLATE_IN_VALUE: 400,
  UNAUTHORIZED: 401,
  WEBHOOK_UNVERIFIED: 401,
  INSUFFICIENT_SCOPE: 403,
  // A client asked to grant (or to manage a client holding) a scope its own credential does not grant.
  SCOPE_NOT_GRANTABLE: 403,
  NOT_FOUND: 404,
  FLOW_NOT_FOUND: 404,
  EXECUTION_NOT_FOUND: 404,
  SUITE_NOT_FOUND: 404,
  ENVIRONMENT_NOT_FOUND: 404,
  JOB_NOT_FOUND: 404,
  TENANT_NOT_FOUND: 404,
  CLIENT_NOT_FOUND: 404,
  ENDPOINT_NOT_FOUND: 404,
  SPEC_NOT_FOUND: 404,
  NODE_NOT_FOUND: 404,
  FRAME_NOT_FOUND: 404,
  WEBHOOK_NOT_FOUND: 404,
  SCHEDULE_NOT_FOUND: 404,
  ALERT_CHANNEL_NOT_FOUND: 404,
  CONFLICT: 409,
  FLOW_NAME_TAKEN: 409,
  FLOW_NAME_AMBIGUOUS: 409,
  ENDPOINT_AMBIGUOUS: 409,
  // The request is fine but the tenant's state cannot answer it yet: the same call works once a spec is imported.
  CATALOG_EMPTY: 409,
  // Rotating or revoking a revoked client: it stays revoked, so a new secret would never work.
  CLIENT_REVOKED: 409,
  CANCELLED: 409,
  JOB_CANCELLED: 409,
  WEBHOOK_PATH_TAKEN: 409,
  WEBHOOK_TOKEN_USED: 409,
  WEBHOOK_IN_PROGRESS: 409,
  WEBHOOK_GONE: 410,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  PAYLOAD_INVALID: 422,
  // The request was well formed, but what the flow's data gave a node cannot be used.
  EXPRESSION_UNRESOLVED: 422,
  EXPRESSION_NOT_BOOLEAN: 422,
  SANDBOX_ERROR: 422,
  SANDBOX_TIMEOUT: 422,
  SANDBOX_MEMORY: 422,
  COLLECT_NOT_AN_OBJECT: 422,
  LOOP_NOT_AN_ARRAY: 422,
  INVALID_COUNT: 422,
  INVALID_DURATION: 422,
  INVALID_PATH: 422,
  INVALID_URL: 422,
  SUBFLOW_DEPTH_EXCEEDED: 422,
  TESTGEN_NO_CASES: 422,
  RATE_LIMITED: 429,
  // The egress policy refuses the address: the caller asked svc to reach a place it may not, so
  // 403 (refused, and retrying will not help) rather than 502, which would blame the other service.
  EGRESS_DENIED: 403,
  // How a run ended, carried in an execution's or step's `error` (normally inside a 200 body): a
  // run whose checks or parts failed is 422 like the data errors above, a step's upstream answering
  // an error status is 502, svc failing to resume its own execution is 500, a suite's flow
  // running out of time is 504. A polled job in a state no rule expects (FAILED) is 422; one
  // still not done when polling's maxDuration passes is 504.
  ASSERTION_FAILED: 422,
  POLLING_UNEXPECTED_STATE: 422,
  POLLING_TIMEOUT: 504,
  LOOP_FAILED: 422,
  SUBFLOW_FAILED: 422,
  FLOW_FAILED: 422,
  OUTPUTS_UNRESOLVED: 422,
  HTTP_ERROR_STATUS: 502,
  RESUME_FAILED: 500,
  SUITE_FLOW_TIMEOUT: 504,
  // A webhook wait whose callback did not come in time.
  WEBHOOK_TIMEOUT: 504,
  INTERNAL_ERROR: 500,
  CONFIG_ERROR: 500,
  SECRET_UNREADABLE: 500,
  CATALOG_NOT_AVAILABLE: 501,
  NETWORK_ERROR: 502,
  SERVICE_UNREACHABLE: 502,
  INVALID_RESPONSE: 502,
  UNKNOWN_ERROR: 502,
  TESTGEN_MODEL_UNREACHABLE: 502,
  TESTGEN_MODEL_HTTP_ERROR: 502,
  TESTGEN_MODEL_FAILED: 502,
  TESTGEN_MODEL_OUTPUT_INVALID: 502,
  STORE_UNAVAILABLE: 503,
  SHUTTING_DOWN: 503,
  JOB_INTERRUPTED: 503,
  TIMEOUT: 504,
  SERVICE_TIMEOUT: 504,
  TESTGEN_MODEL_TIMEOUT: 504,
} as const satisfies Record<ErrorCode, ContentfulStatusCode>;

export type GatewayErrorCode = keyof typeof ERROR_STATUS;

/**
 * The status of a code; a code outside the table (only possible for one relayed from elsewhere)
 * answers 500.
 * @example
 * statusForCode('FLOW_NOT_FOUND'); // 404
 */
export function statusForCode(code: string): ContentfulStatusCode {
  return (ERROR_STATUS as Record<string, ContentfulStatusCode>)[code] ?? 500;
}
