import { isJsonBody } from './baseline-request.js';
import { badPathParameterStatus, describeStatus, malformedBodyStatus } from './expected-status.js';
import { viewSchema } from './json-schema.js';
import { fieldValue, withField, withoutField, type RequestField } from './request-fields.js';
import { failureCase, type SchemaCaseContext } from './schema-context.js';
import type { ExpectedStatus, GeneratedTestCase } from './test-case.js';

/**
 * A value of another JSON type than the schema asks for. Parameters travel as text, so a string
 * parameter has no wrong type and a number parameter's wrong type is non-numeric text.
 */
export function wrongTypeValue(field: RequestField): { value: unknown; expected: string } | undefined {
  const view = viewSchema(field.schema);
  const inBody = field.location === 'body';
  switch (view.type) {
    case 'string':
      return inBody ? { value: 12345, expected: 'a string' } : undefined;
    case 'integer':
      return { value: 'not-a-number', expected: 'an integer' };
    case 'number':
      return { value: 'not-a-number', expected: 'a number' };
    case 'boolean':
      return { value: 'not-a-boolean', expected: 'a boolean' };
    case 'array':
      return inBody ? { value: 'not-an-array', expected: 'an array' } : undefined;
    case 'object':
      return inBody ? { value: 'not-an-object', expected: 'an object' } : undefined;
    case undefined:
      return undefined;
  }
}

/** A value of the right type that the enum does not list; undefined when every such value is listed. */
export function outsideEnumValue(field: RequestField): unknown {
  const view = viewSchema(field.schema);
  if (view.enum === undefined) return undefined;
  const listed = new Set(view.enum.map((value) => JSON.stringify(value)));
  if (view.enum.every((value) => typeof value === 'number')) {
    const candidate = Math.max(...(view.enum as number[])) + 1;
    return listed.has(JSON.stringify(candidate)) ? undefined : candidate;
  }
  if (view.enum.every((value) => typeof value === 'string')) {
    for (const candidate of ['NOT_A_LISTED_VALUE', 'not-a-listed-value', 'zzz-unlisted'])
      if (!listed.has(JSON.stringify(candidate))) return candidate;
  }
  return undefined;
}

function refusal(context: SchemaCaseContext, field: RequestField): ExpectedStatus {
  return field.location === 'path' ? badPathParameterStatus() : context.invalid;
}

/**
 * Requests the spec says are invalid, each broken in one way: a required parameter or field left
 * out, a value of the wrong type, a value outside an enum, a body that is not JSON. Each expects
 * the validation failure status (path parameters: any 4XX, as "not found" is right too).
 */
export function negativeCases(context: SchemaCaseContext): GeneratedTestCase[] {
  const { endpoint, full } = context;
  const cases: GeneratedTestCase[] = [];
  const invalid = describeStatus(context.invalid);

  if (endpoint.requestBody?.required === true) {
    const request = structuredClone(full);
    delete request.body;
    cases.push(
      failureCase(
        'negative',
        'missing body',
        `The required request body is not sent; expects ${invalid}.`,
        request,
        context.invalid,
      ),
    );
  }
  for (const field of context.fields) {
    // A path parameter cannot be left out: the URL would name another resource.
    if (!field.required || field.location === 'path' || field.path.length === 0) continue;
    cases.push(
      failureCase(
        'negative',
        `missing ${field.label}`,
        `Required ${field.label} is left out; expects ${invalid}.`,
        withoutField(full, field),
        context.invalid,
      ),
    );
  }
  for (const field of context.fields) {
    const wrong = wrongTypeValue(field);
    if (wrong === undefined || fieldValue(full, field) === undefined) continue;
    const status = refusal(context, field);
    cases.push(
      failureCase(
        'negative',
        `wrong type ${field.label}`,
        `${field.label} is ${JSON.stringify(wrong.value)} where the schema asks for ${wrong.expected}; expects ${describeStatus(status)}.`,
        withField(full, field, wrong.value),
        status,
      ),
    );
  }
  for (const field of context.fields) {
    const outside = outsideEnumValue(field);
    if (outside === undefined || fieldValue(full, field) === undefined) continue;
    const status = refusal(context, field);
    cases.push(
      failureCase(
        'negative',
        `${field.label} not in enum`,
        `${field.label} is ${JSON.stringify(outside)}, which the enum does not list; expects ${describeStatus(status)}.`,
        withField(full, field, outside),
        status,
      ),
    );
  }
  if (isJsonBody(endpoint) && full.body !== undefined) {
    const request = structuredClone(full);
    const text = JSON.stringify(request.body);
    delete request.body;
    // The valid body cut before its last character and given a dangling comma: unmistakably not JSON.
    request.rawBody = `${text.slice(0, -1)},`;
    const status = malformedBodyStatus(endpoint);
    cases.push(
      failureCase(
        'negative',
        'malformed JSON body',
        `The body is not valid JSON; expects ${describeStatus(status)}.`,
        request,
        status,
      ),
    );
  }
  return cases;
}
