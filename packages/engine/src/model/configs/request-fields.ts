import { z } from 'zod';
import { durationWithin } from '../duration.js';
import { HEADER_VALUE_MESSAGE, isSendableHeaderValue } from '../header-value.js';

/** Fields an HTTP request is made of, shared by the endpoint node's request and its polling request. */

export const HTTP_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'] as const;

export const httpMethodSchema = z.preprocess(
  (value) => (typeof value === 'string' ? value.toUpperCase() : value),
  z.enum(HTTP_METHODS),
);

const scalar = z.union([z.string(), z.number(), z.boolean()]);

export const querySchema = z.record(z.string(), z.union([scalar, z.array(scalar)]));
/** A literal value is checked when saved; a `{{…}}` template is sent as it resolves. */
export const headersSchema = z.record(
  z.string(),
  z.string().refine((value) => value.includes('{{') || isSendableHeaderValue(value), HEADER_VALUE_MESSAGE),
);
export const bodyTypeSchema = z.enum(['json', 'text', 'form']);

/** Longest a request may wait for its answer; a job that takes longer is polled, not waited on. */
export const MAX_REQUEST_TIMEOUT_MS = 24 * 3_600_000;
export const requestTimeoutSchema = durationWithin({ minMs: 0, maxMs: MAX_REQUEST_TIMEOUT_MS });

/**
 * What a check reads of a response: `statusCode`, `latencyMs`, `body` (the whole body),
 * `body.<path>` or `headers.<name>`.
 */
export const responseTargetSchema = z.string().regex(/^(statusCode|latencyMs|body|body\..+|body\[.+|headers\..+)$/, {
  message: 'target must be statusCode, latencyMs, body, body.<path> or headers.<name>',
});
