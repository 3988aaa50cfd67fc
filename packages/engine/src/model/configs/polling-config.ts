import { z } from 'zod';
import { durationWithin } from '../duration.js';
import { COMPARISON_OPERATORS } from '../operators.js';
import {
  bodyTypeSchema,
  headersSchema,
  httpMethodSchema,
  querySchema,
  requestTimeoutSchema,
  responseTargetSchema,
} from './request-fields.js';

/** Shortest pause between two polls: a status request is not a busy loop. */
export const MIN_POLLING_INTERVAL_MS = 10;
export const MAX_POLLING_INTERVAL_MS = 24 * 3_600_000;
/** Longest a node may poll; longer jobs belong to schedules or a webhook wait. */
export const MAX_POLLING_DURATION_MS = 7 * 24 * 3_600_000;
/** Rules per table and values per rule: enough for any status vocabulary, small enough to read. */
const MAX_RULES = 20;
const MAX_RULE_VALUES = 50;

/**
 * The spec's rule operators (`EQUALS` shown there, with the others one expects beside it), then
 * the comparison operators of Switch cases and assertions.
 */
export const POLLING_RULE_OPERATORS = ['EQUALS', 'NOT_EQUALS', 'CONTAINS', 'EXISTS', ...COMPARISON_OPERATORS] as const;
export type PollingRuleOperator = (typeof POLLING_RULE_OPERATORS)[number];

/** Operators that read no value. */
export const VALUELESS_RULE_OPERATORS: ReadonlySet<PollingRuleOperator> = new Set([
  'EXISTS',
  'is_empty',
  'is_not_empty',
]);

/**
 * A rule reads a target of the status response (`body.status`, `statusCode`, `headers.x`) and
 * compares it with one or more values: `EQUALS ["PENDING", "IN_PROGRESS"]` matches either.
 */
export const pollingRuleSchema = z
  .strictObject({
    target: responseTargetSchema,
    operator: z.enum(POLLING_RULE_OPERATORS),
    values: z.array(z.unknown()).max(MAX_RULE_VALUES).optional(),
    /** One value; the same as `values` with one element. */
    value: z.unknown().optional(),
  })
  .superRefine((rule, issues) => {
    const given = (rule.values?.length ?? 0) + (rule.value === undefined ? 0 : 1);
    if (rule.values !== undefined && rule.value !== undefined)
      issues.addIssue({ code: 'custom', path: ['value'], message: 'give value or values, not both' });
    else if (given === 0 && !VALUELESS_RULE_OPERATORS.has(rule.operator))
      issues.addIssue({
        code: 'custom',
        path: ['values'],
        message: `operator ${rule.operator} needs values to compare with, e.g. "values": ["COMPLETED"]`,
      });
  });

/** The status request: like the node's own request; its templates may read `self`, the submit response. */
export const pollingRequestSchema = z.strictObject({
  method: httpMethodSchema.default('GET'),
  /** Absolute, a template, or a path resolved against the submit URL (a relative `Location`). */
  url: z.string().min(1),
  query: querySchema.default({}),
  headers: headersSchema.default({}),
  body: z.unknown().optional(),
  bodyType: bodyTypeSchema.default('json'),
  /** The node's `timeout` when absent. */
  timeout: requestTimeoutSchema.optional(),
});

export const pollingConfigSchema = z
  .strictObject({
    enabled: z.boolean().default(true),
    interval: durationWithin({ minMs: MIN_POLLING_INTERVAL_MS, maxMs: MAX_POLLING_INTERVAL_MS }).default('2s'),
    maxDuration: durationWithin({ minMs: 1, maxMs: MAX_POLLING_DURATION_MS }).default('5m'),
    request: pollingRequestSchema,
    /** While one of these matches, sleep one interval and poll again. */
    continueWhen: z.array(pollingRuleSchema).max(MAX_RULES).default([]),
    /** When one of these matches, the node completes with the status response. */
    stopWhen: z.array(pollingRuleSchema).max(MAX_RULES).default([]),
  })
  .superRefine((polling, issues) => {
    if (polling.enabled && polling.continueWhen.length === 0 && polling.stopWhen.length === 0)
      issues.addIssue({
        code: 'custom',
        path: ['stopWhen'],
        message:
          'polling needs a stopWhen or continueWhen rule to tell when the job is done, e.g. [{"target":"body.status","operator":"EQUALS","values":["COMPLETED"]}]',
      });
  });

export type PollingConfig = z.infer<typeof pollingConfigSchema>;
export type PollingRule = z.infer<typeof pollingRuleSchema>;
export type PollingRequest = z.infer<typeof pollingRequestSchema>;
