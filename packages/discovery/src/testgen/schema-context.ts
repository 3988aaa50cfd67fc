import type { CatalogEndpoint } from '../catalog/types.js';
import { baselineRequest } from './baseline-request.js';
import { successStatus, validationFailureStatus } from './expected-status.js';
import { requestFields, type RequestField } from './request-fields.js';
import { successBodyChecks } from './response-checks.js';
import type { ExpectedStatus, GeneratedTestCase, TestAssertion, TestRequest } from './test-case.js';

/** What every schema-engine case builder reads about one endpoint, computed once. */
export interface SchemaCaseContext {
  endpoint: CatalogEndpoint;
  /** Every parameter and body field, the spec's examples where valid. */
  full: TestRequest;
  /** The same from schema values alone, ignoring examples. */
  schemaOnly: TestRequest;
  /** Required parameters and fields only. */
  minimal: TestRequest;
  fields: RequestField[];
  success: ExpectedStatus;
  invalid: ExpectedStatus;
  successChecks: TestAssertion[];
}

export function schemaCaseContext(endpoint: CatalogEndpoint): SchemaCaseContext {
  const full = baselineRequest(endpoint, { fields: 'all', useExamples: true });
  const success = successStatus(endpoint);
  return {
    endpoint,
    full,
    schemaOnly: baselineRequest(endpoint, { fields: 'all', useExamples: false }),
    minimal: baselineRequest(endpoint, { fields: 'required', useExamples: true }),
    fields: requestFields(endpoint, full),
    success,
    invalid: validationFailureStatus(endpoint),
    successChecks: successBodyChecks(endpoint, success),
  };
}

/** A case that expects success: the declared success status and the response checks. */
export function successCase(
  context: SchemaCaseContext,
  category: 'positive' | 'boundary',
  name: string,
  description: string,
  request: TestRequest,
): GeneratedTestCase {
  return {
    name,
    category,
    description,
    request,
    expect: { status: context.success, assertions: structuredClone(context.successChecks) },
  };
}

/** A case that expects the request to be refused with `status`. */
export function failureCase(
  category: 'negative' | 'boundary' | 'security',
  name: string,
  description: string,
  request: TestRequest,
  status: ExpectedStatus,
): GeneratedTestCase {
  return { name, category, description, request, expect: { status, assertions: [] } };
}
