import type { CatalogEndpoint, EndpointParameter } from '../catalog/types.js';
import { sampleValue, type SampleOptions } from './sample-value.js';
import type { TestRequest } from './test-case.js';

/** Header parameters the request builder or the credentials set; a spec that lists them is describing those. */
const MANAGED_HEADERS = new Set(['authorization', 'content-type', 'accept', 'cookie', 'content-length']);

export type Scalar = string | number | boolean;

/** A sample as a path segment, query value or header carries it. */
export function scalarOf(value: unknown): Scalar {
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value;
  return JSON.stringify(value ?? '');
}

/** Whether a parameter is part of the baseline request the generators vary. */
export function isSentParameter(parameter: EndpointParameter): boolean {
  return !(parameter.in === 'header' && MANAGED_HEADERS.has(parameter.name.toLowerCase()));
}

/** Whether the request body is JSON (the only kind a malformed-JSON case makes sense for). */
export function isJsonBody(endpoint: CatalogEndpoint): boolean {
  return endpoint.requestBody !== null && /\bjson\b/i.test(endpoint.requestBody.contentType);
}

function parameterValue(parameter: EndpointParameter, options: SampleOptions): Scalar | Scalar[] {
  const value = sampleValue(parameter.schema, options, parameter.name);
  if (
    parameter.in === 'query' &&
    Array.isArray(value) &&
    value.every((element) => typeof element !== 'object' || element === null)
  ) {
    return value.map(scalarOf);
  }
  return scalarOf(value);
}

/**
 * A request the spec says is valid: every path parameter, the required (or, with `fields: 'all'`,
 * every) query, header and cookie parameter, and the body built from its schema. Credentials are
 * not part of it: the flow adds them.
 * @example baselineRequest(createOrder, { fields: 'required', useExamples: true }).body // { customerId: 'cus_123', … }
 */
export function baselineRequest(endpoint: CatalogEndpoint, options: SampleOptions): TestRequest {
  const request: TestRequest = { pathParams: {}, query: {}, headers: {} };
  const cookies: string[] = [];
  for (const parameter of endpoint.parameters) {
    if (!isSentParameter(parameter)) continue;
    if (!parameter.required && options.fields === 'required') continue;
    const value = parameterValue(parameter, options);
    if (parameter.in === 'path') request.pathParams[parameter.name] = scalarOf(value);
    else if (parameter.in === 'query') request.query[parameter.name] = value;
    else if (parameter.in === 'header') request.headers[parameter.name] = String(scalarOf(value));
    else cookies.push(`${parameter.name}=${encodeURIComponent(String(scalarOf(value)))}`);
  }
  if (cookies.length > 0) request.headers.Cookie = cookies.join('; ');
  if (endpoint.requestBody !== null) request.body = sampleValue(endpoint.requestBody.schema, options, undefined);
  return request;
}
