import { z } from 'zod';
import { durationSchema } from '../duration.js';
import { comparisonOperatorSchema } from '../operators.js';
import { pollingConfigSchema } from './polling-config.js';
import {
  bodyTypeSchema,
  headersSchema,
  httpMethodSchema,
  querySchema,
  requestTimeoutSchema,
  responseTargetSchema,
} from './request-fields.js';

export { HTTP_METHODS } from './request-fields.js';

export const retryConfigSchema = z.strictObject({
  maxAttempts: z.number().int().min(1).max(20).default(3),
  initialDelay: durationSchema.default('200ms'),
  maxDelay: durationSchema.default('5s'),
  factor: z.number().min(1).max(10).default(2),
  onStatuses: z.array(z.number().int().min(100).max(599)).default([429, 502, 503, 504]),
  onNetworkError: z.boolean().default(true),
});

/**
 * An assertion checks the response: `statusCode`, `latencyMs`, `body.<path>` or `headers.<name>`.
 * `body` alone checks the whole body.
 */
export const assertionSchema = z.strictObject({
  target: responseTargetSchema,
  operator: comparisonOperatorSchema,
  value: z.unknown().optional(),
  description: z.string().optional(),
});

export const endpointConfigSchema = z.strictObject({
  method: httpMethodSchema.default('GET'),
  url: z.string().min(1),
  query: querySchema.default({}),
  headers: headersSchema.default({}),
  body: z.unknown().optional(),
  bodyType: bodyTypeSchema.default('json'),
  timeout: requestTimeoutSchema.default('30s'),
  retry: retryConfigSchema.optional(),
  assertions: z.array(assertionSchema).default([]),
  /** Send the `Idempotency-Key` header (executionId:nodeId:scope:attempt). On by default. */
  idempotencyKey: z.boolean().default(true),
  /**
   * After this request (the submit, typically answered 202 with a job id), poll a status request
   * until a rule says the job is done; the last status response becomes the node's output.
   */
  polling: pollingConfigSchema.optional(),
});

export type EndpointConfig = z.infer<typeof endpointConfigSchema>;
export type RetryConfig = z.infer<typeof retryConfigSchema>;
export type Assertion = z.infer<typeof assertionSchema>;
