import { COMPARISON_OPERATORS } from '@svc/engine';
import { z } from 'zod';

export const TEST_CATEGORIES = ['positive', 'negative', 'boundary', 'security'] as const;
export type TestCategory = (typeof TEST_CATEGORIES)[number];

/** `4XX`: any status of that class. */
export const STATUS_CLASS_PATTERN = /^[1-5]XX$/;

const statusCodeSchema = z.number().int().min(100).max(599);

/** Models often write `"400"` where a number belongs, and `4xx` for a class. */
function normaliseStatus(value: unknown): unknown {
  if (typeof value === 'string') {
    const text = value.trim();
    if (/^\d{3}$/.test(text)) return Number(text);
    return text.toUpperCase();
  }
  if (Array.isArray(value))
    return value.map((element) =>
      typeof element === 'string' && /^\s*\d{3}\s*$/.test(element) ? Number(element) : element,
    );
  return value;
}

/**
 * What a test expects the status to be: one code (`201`), one of several (`[400, 422]`), or any
 * code of a class (`"4XX"`).
 */
export const expectedStatusSchema = z.preprocess(
  normaliseStatus,
  z.union([
    statusCodeSchema,
    z.array(statusCodeSchema).min(1),
    z.string().regex(STATUS_CLASS_PATTERN, { message: 'a status class is written like "4XX"' }),
  ]),
);
export type ExpectedStatus = z.infer<typeof expectedStatusSchema>;

/** The endpoint node's assertion shape; `statusCode` checks come from `expect.status` instead. */
export const testAssertionSchema = z.strictObject({
  target: z.string().regex(/^(latencyMs|body|body\..+|body\[.+|headers\..+)$/, {
    message: 'target must be latencyMs, body, body.<path> or headers.<name> (the status goes in expect.status)',
  }),
  operator: z.enum(COMPARISON_OPERATORS),
  value: z.unknown().optional(),
  description: z.string().optional(),
});
export type TestAssertion = z.infer<typeof testAssertionSchema>;

const scalarSchema = z.union([z.string(), z.number(), z.boolean()]);

export const testRequestSchema = z.object({
  pathParams: z.record(z.string(), scalarSchema).default({}),
  query: z.record(z.string(), z.union([scalarSchema, z.array(scalarSchema)])).default({}),
  headers: z.record(z.string(), z.string()).default({}),
  /** The JSON (or form) body; absent means no body is sent. */
  body: z.unknown().optional(),
  /** Sent byte for byte instead of `body`, e.g. malformed JSON. */
  rawBody: z.string().optional(),
  /** Send no credentials at all. */
  omitAuth: z.boolean().optional(),
  /** Send credentials of the declared kind that no server accepts. */
  badAuth: z.boolean().optional(),
});
export type TestRequest = z.infer<typeof testRequestSchema>;

/**
 * One generated test case of an endpoint: what to send and what the answer must be. The same
 * schema checks the schema engine's output and whatever a model sends back.
 */
export const generatedTestCaseSchema = z
  .object({
    /** Short and unique within the endpoint's suite, e.g. `missing body.customerId`. */
    name: z.string().trim().min(1).max(160),
    category: z.preprocess(
      (value) => (typeof value === 'string' ? value.trim().toLowerCase() : value),
      z.enum(TEST_CATEGORIES),
    ),
    description: z.string().default(''),
    request: testRequestSchema.default({ pathParams: {}, query: {}, headers: {} }),
    expect: z.object({
      status: expectedStatusSchema,
      /** Checks on the answer beyond its status, e.g. `{ target: 'body.id', operator: 'is_not_empty' }`. */
      assertions: z.array(testAssertionSchema).default([]),
    }),
  })
  .refine((testCase) => !(testCase.request.body !== undefined && testCase.request.rawBody !== undefined), {
    message: 'request has both body and rawBody; send one',
    path: ['request', 'rawBody'],
  })
  .refine((testCase) => !(testCase.request.omitAuth === true && testCase.request.badAuth === true), {
    message: 'request has both omitAuth and badAuth; choose one',
    path: ['request', 'badAuth'],
  });

export type GeneratedTestCase = z.infer<typeof generatedTestCaseSchema>;
/** A test case as a model or a client may write it (defaults not yet applied). */
export type GeneratedTestCaseInput = z.input<typeof generatedTestCaseSchema>;
