import { describeStatus } from './expected-status.js';
import { successCase, type SchemaCaseContext } from './schema-context.js';
import type { GeneratedTestCase, TestRequest } from './test-case.js';

function same(left: TestRequest, right: TestRequest): boolean {
  return JSON.stringify(left) === JSON.stringify(right);
}

/**
 * Valid requests: one with the spec's examples where it gives valid ones, one from schema values
 * alone when that differs, and one with only the required parameters and fields when that differs.
 */
export function positiveCases(context: SchemaCaseContext): GeneratedTestCase[] {
  const { full, schemaOnly, minimal } = context;
  const status = describeStatus(context.success);
  const cases: GeneratedTestCase[] = [];
  const examplesDiffer = !same(full, schemaOnly);
  cases.push(
    successCase(
      context,
      'positive',
      examplesDiffer ? 'valid request (documented examples)' : 'valid request',
      `Every parameter and field with ${examplesDiffer ? "the spec's examples" : 'valid values'}; expects ${status}.`,
      full,
    ),
  );
  if (examplesDiffer) {
    cases.push(
      successCase(
        context,
        'positive',
        'valid request (schema values)',
        `Every parameter and field with values built from the schema; expects ${status}.`,
        schemaOnly,
      ),
    );
  }
  if (!same(minimal, full) && !same(minimal, schemaOnly)) {
    cases.push(
      successCase(
        context,
        'positive',
        'valid request (required fields only)',
        `Only the required parameters and fields; expects ${status}.`,
        minimal,
      ),
    );
  }
  return cases;
}
