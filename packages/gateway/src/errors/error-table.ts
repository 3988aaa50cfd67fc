import type { ContentfulStatusCode } from 'hono/utils/http-status';

/**
 * Every error code the gateway answers, with its HTTP status: the one place where codes become
 * statuses. A code not listed here answers the status its `SvcError` carries, else 500.
 */
export const ERROR_STATUS = {
  VALIDATION_ERROR: 400,
  MALFORMED_JSON: 400,
  ENVIRONMENT_NOT_SUPPORTED: 400,
  INVALID_OPENAPI: 400,
  INVALID_ROADMAP: 400,
  UNAUTHORIZED: 401,
  INSUFFICIENT_SCOPE: 403,
  NOT_FOUND: 404,
  FLOW_NOT_FOUND: 404,
  EXECUTION_NOT_FOUND: 404,
  SUITE_NOT_FOUND: 404,
  JOB_NOT_FOUND: 404,
  TENANT_NOT_FOUND: 404,
  CLIENT_NOT_FOUND: 404,
  ENDPOINT_NOT_FOUND: 404,
  SPEC_NOT_FOUND: 404,
  CONFLICT: 409,
  FLOW_NAME_TAKEN: 409,
  FLOW_NAME_AMBIGUOUS: 409,
  ENDPOINT_AMBIGUOUS: 409,
  // The request is fine but the tenant's state cannot answer it yet: the same call works once a spec is imported.
  CATALOG_EMPTY: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  RATE_LIMITED: 429,
  INTERNAL_ERROR: 500,
  UNKNOWN_ENGINE: 400,
  SAMPLING_UNAVAILABLE: 400,
  SHUTTING_DOWN: 503,
} as const satisfies Record<string, ContentfulStatusCode>;

export type GatewayErrorCode = keyof typeof ERROR_STATUS;

/**
 * @example
 * statusForCode('FLOW_NOT_FOUND'); // 404
 * statusForCode('SOMETHING_NEW', 422); // 422: the error's own status when the table does not know the code
 */
export function statusForCode(code: string, fallback?: number): ContentfulStatusCode {
  const known = (ERROR_STATUS as Record<string, ContentfulStatusCode>)[code];
  if (known !== undefined) return known;
  // 204 and 304 carry no body, and an envelope always has one.
  if (fallback !== undefined && fallback >= 400 && fallback <= 599) return fallback as ContentfulStatusCode;
  return 500;
}
