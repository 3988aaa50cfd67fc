import { z } from 'zod';
import { durationSchema } from '../duration.js';
import { comparisonOperatorSchema } from '../operators.js';

export const HTTP_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'] as const;

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
  target: z.string().regex(/^(statusCode|latencyMs|body|body\..+|body\[.+|headers\..+)$/, {
    message: 'target must be statusCode, latencyMs, body, body.<path> or headers.<name>',
  }),
  operator: comparisonOperatorSchema,
  value: z.unknown().optional(),
  description: z.string().optional(),
});

const scalar = z.union([z.string(), z.number(), z.boolean()]);

export const endpointConfigSchema = z.strictObject({
  method: z
    .preprocess((value) => (typeof value === 'string' ? value.toUpperCase() : value), z.enum(HTTP_METHODS))
    .default('GET'),
  url: z.string().min(1),
  query: z.record(z.string(), z.union([scalar, z.array(scalar)])).default({}),
  headers: z.record(z.string(), z.string()).default({}),
  body: z.unknown().optional(),
  bodyType: z.enum(['json', 'text', 'form']).default('json'),
  timeout: durationSchema.default('30s'),
  retry: retryConfigSchema.optional(),
  assertions: z.array(assertionSchema).default([]),
  /** Send the `Idempotency-Key` header (executionId:nodeId:scope:attempt). On by default. */
  idempotencyKey: z.boolean().default(true),
});

export type EndpointConfig = z.infer<typeof endpointConfigSchema>;
export type RetryConfig = z.infer<typeof retryConfigSchema>;
export type Assertion = z.infer<typeof assertionSchema>;
