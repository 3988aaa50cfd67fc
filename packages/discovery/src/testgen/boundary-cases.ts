import { conformsTo } from './check-value.js';
import { badPathParameterStatus, describeStatus } from './expected-status.js';
import { viewSchema, type SchemaView } from './json-schema.js';
import { fieldValue, withField, type RequestField } from './request-fields.js';
import { inclusiveBounds, numberStep, sampleVariant, stringOfLength, tidyNumber } from './sample-value.js';
import { failureCase, successCase, type SchemaCaseContext } from './schema-context.js';
import type { GeneratedTestCase } from './test-case.js';

/** Lengths past this are not worth sending as a test. */
const MAX_GENERATED_LENGTH = 10_000;
const MAX_GENERATED_ITEMS = 100;

/** The keywords that together make one limit. */
const RELATED_KEYWORDS: Record<string, string[]> = {
  minimum: ['minimum', 'exclusiveMinimum'],
  maximum: ['maximum', 'exclusiveMaximum'],
};

interface Limit {
  /** `minimum`, `maximum`, `minLength`, `maxLength`, `minItems`, `maxItems`. */
  keyword: string;
  /** The last valid value and the first invalid one. */
  at: unknown;
  past: unknown;
  describe: (value: unknown) => string;
}

function withoutKeyword(schema: unknown, keywords: string[]): unknown {
  if (typeof schema !== 'object' || schema === null) return schema;
  const copy: Record<string, unknown> = { ...(schema as Record<string, unknown>) };
  for (const keyword of keywords) delete copy[keyword];
  return copy;
}

function numberLimits(view: SchemaView): Limit[] {
  const { low, high } = inclusiveBounds(view);
  const step = numberStep(view);
  const limits: Limit[] = [];
  const show = (value: unknown) => String(value);
  if (low !== undefined) limits.push({ keyword: 'minimum', at: low, past: tidyNumber(low - step), describe: show });
  if (high !== undefined) limits.push({ keyword: 'maximum', at: high, past: tidyNumber(high + step), describe: show });
  return limits;
}

function stringLimits(view: SchemaView, base: string): Limit[] {
  const limits: Limit[] = [];
  const show = (value: unknown) => `${[...String(value)].length} characters`;
  if (view.minLength !== undefined && view.minLength > 0 && view.minLength <= MAX_GENERATED_LENGTH) {
    limits.push({
      keyword: 'minLength',
      at: stringOfLength(base, view.minLength),
      past: stringOfLength(base, view.minLength - 1),
      describe: show,
    });
  }
  if (view.maxLength !== undefined && view.maxLength < MAX_GENERATED_LENGTH) {
    limits.push({
      keyword: 'maxLength',
      at: stringOfLength(base, view.maxLength),
      past: stringOfLength(base, view.maxLength + 1),
      describe: show,
    });
  }
  return limits;
}

function arrayLimits(view: SchemaView): Limit[] {
  const limits: Limit[] = [];
  const items = (count: number) =>
    Array.from({ length: count }, (_, index) => sampleVariant(view.items, index, { fields: 'all', useExamples: true }));
  const show = (value: unknown) => `${(value as unknown[]).length} items`;
  if (view.minItems !== undefined && view.minItems > 0 && view.minItems <= MAX_GENERATED_ITEMS) {
    limits.push({ keyword: 'minItems', at: items(view.minItems), past: items(view.minItems - 1), describe: show });
  }
  if (view.maxItems !== undefined && view.maxItems < MAX_GENERATED_ITEMS) {
    limits.push({ keyword: 'maxItems', at: items(view.maxItems), past: items(view.maxItems + 1), describe: show });
  }
  return limits;
}

function limitsOf(field: RequestField, current: unknown): Limit[] {
  const view = viewSchema(field.schema);
  if (view.enum !== undefined) return [];
  if (view.type === 'integer' || view.type === 'number') return numberLimits(view);
  if (view.type === 'string') return stringLimits(view, typeof current === 'string' ? current : 'sample');
  if (view.type === 'array' && field.location === 'body') return arrayLimits(view);
  return [];
}

/**
 * Values at and one past each limit the schema sets (minimum/maximum, minLength/maxLength,
 * minItems/maxItems): the value at the limit expects success, the one past it the validation
 * failure status. A pair is left out when the generator cannot build a value that breaks only
 * that limit (a pattern or format the padded string would no longer match).
 */
export function boundaryCases(context: SchemaCaseContext): GeneratedTestCase[] {
  const { full } = context;
  const cases: GeneratedTestCase[] = [];
  for (const field of context.fields) {
    const current = fieldValue(full, field);
    if (current === undefined) continue;
    for (const limit of limitsOf(field, current)) {
      if (!conformsTo(field.schema, limit.at)) continue;
      const breaksOnlyThisLimit =
        !conformsTo(field.schema, limit.past) &&
        conformsTo(withoutKeyword(field.schema, RELATED_KEYWORDS[limit.keyword] ?? [limit.keyword]), limit.past);
      // A resource id at its limit may simply not exist: only the refused side is certain for path parameters.
      if (field.location !== 'path') {
        cases.push(
          successCase(
            context,
            'boundary',
            `${field.label} at ${limit.keyword}`,
            `${field.label} is ${limit.describe(limit.at)}, exactly its ${limit.keyword}; expects ${describeStatus(context.success)}.`,
            withField(full, field, limit.at),
          ),
        );
      }
      if (!breaksOnlyThisLimit) continue;
      const status = field.location === 'path' ? badPathParameterStatus() : context.invalid;
      cases.push(
        failureCase(
          'boundary',
          `${field.label} past ${limit.keyword}`,
          `${field.label} is ${limit.describe(limit.past)}, one past its ${limit.keyword}; expects ${describeStatus(status)}.`,
          withField(full, field, limit.past),
          status,
        ),
      );
    }
  }
  return cases;
}
