import type { EndpointConfig } from '@svc/engine';
import type { CatalogEntry } from '../catalog/catalog-service.js';
import { isObject } from '../catalog/json-pointer.js';
import type { EndpointParameter } from '../catalog/types.js';
import type { AuthPlacement } from './auth.js';
import { bodySkeleton, setAtPath } from './body-skeleton.js';
import { successAssertions } from './success-assertions.js';
import { literal, parseFieldPath } from './templates.js';

/** A value for one place of a request: a `{{…}}` template. */
export interface PlacedValue {
  in: 'path' | 'query' | 'header' | 'body';
  name: string;
  template: string;
}

/** A required parameter nothing in the roadmap fills. */
export interface MissingParameter {
  in: 'path' | 'query' | 'header' | 'cookie';
  name: string;
  parameter?: EndpointParameter;
}

const BODILESS_METHODS = new Set(['GET', 'HEAD']);

/** `/orders/{orderId}/items/{itemId}` → `['orderId', 'itemId']`. */
export function pathParameterNames(path: string): string[] {
  return [...path.matchAll(/\{([^{}]+)\}/g)].map((match) => match[1]!);
}

/**
 * The parameters a request cannot go without that no binding or input fills: every path
 * parameter, and the required query, header and cookie parameters.
 */
export function missingParameters(endpoint: CatalogEntry, values: readonly PlacedValue[]): MissingParameter[] {
  const has = (place: string, name: string) =>
    values.some(
      (value) =>
        value.in === place &&
        (place === 'header' ? value.name.toLowerCase() === name.toLowerCase() : value.name === name),
    );
  const missing: MissingParameter[] = [];
  for (const name of pathParameterNames(endpoint.path)) {
    if (has('path', name)) continue;
    const parameter = endpoint.parameters.find((candidate) => candidate.in === 'path' && candidate.name === name);
    missing.push(parameter === undefined ? { in: 'path', name } : { in: 'path', name, parameter });
  }
  for (const parameter of endpoint.parameters) {
    if (parameter.in === 'path' || !parameter.required) continue;
    // Roadmap targets are path, query, header or body: a required cookie is always left to fill.
    if (parameter.in !== 'cookie' && has(parameter.in, parameter.name)) continue;
    missing.push({ in: parameter.in, name: parameter.name, parameter });
  }
  return missing;
}

type BodyType = EndpointConfig['bodyType'];

/** How the engine sends a media type, or undefined when it cannot (XML, multipart, binary). */
export function bodyTypeFor(contentType: string): BodyType | undefined {
  const type = contentType.toLowerCase();
  if (/\bjson\b/.test(type)) return 'json';
  if (type.startsWith('application/x-www-form-urlencoded')) return 'form';
  if (type.startsWith('text/plain')) return 'text';
  return undefined;
}

export interface StepRequest {
  config: Record<string, unknown>;
  /** What the scaffold could not write and a person must (a body of a media type the engine does not send). */
  notes: string[];
}

/**
 * The endpoint node config of one step: URL from the base template and the path with its
 * parameters bound, query and headers from the roadmap's values and the endpoint's security, a
 * body skeleton with the bound fields in place, and the success assertions. A value that is one
 * whole template (`{{ResponseBinding.CreateCustomer.body.id}}`) keeps its type when it resolves,
 * so a numeric id stays a number in a JSON body.
 */
export function stepRequest(options: {
  endpoint: CatalogEntry;
  baseUrl: string;
  values: readonly PlacedValue[];
  auth: AuthPlacement;
  cookies: ReadonlyArray<{ name: string; template: string }>;
}): StepRequest {
  const { endpoint, baseUrl, values, auth } = options;
  const notes: string[] = [];
  const valueOf = (place: PlacedValue['in'], name: string) =>
    values.find((value) => value.in === place && value.name === name)?.template;

  const path = endpoint.path.replace(/\{([^{}]+)\}/g, (whole, name: string) => valueOf('path', name) ?? whole);
  const query: Record<string, string> = {};
  for (const value of values) if (value.in === 'query') query[value.name] = value.template;
  Object.assign(query, auth.query);

  const headers: Record<string, string> = {};
  for (const value of values) if (value.in === 'header') headers[value.name] = value.template;
  Object.assign(headers, auth.headers);
  // A name is the spec's text, and the Cookie header's value is read as a template.
  const cookies = [
    ...options.cookies.map((value) => `${literal(value.name) as string}=${value.template}`),
    ...auth.cookies,
  ];
  if (cookies.length > 0) headers.Cookie = cookies.join('; ');

  const config: Record<string, unknown> = { method: endpoint.method, url: `${baseUrl}${path}`, query, headers };

  const bodyValues = values.filter((value) => value.in === 'body');
  if (!BODILESS_METHODS.has(endpoint.method) && (endpoint.requestBody !== null || bodyValues.length > 0)) {
    // The spec's media type goes into a header value, which is read as a template.
    const contentType = literal(endpoint.requestBody?.contentType ?? 'application/json') as string;
    const bodyType = bodyTypeFor(contentType);
    const paths = bodyValues.map((value) => bodyFieldPath(endpoint.requestBody?.schema, value.name));
    if (bodyType === undefined) {
      notes.push(
        `${endpoint.method} ${endpoint.path} takes a ${contentType} body, which the scaffold does not write: set it by hand`,
      );
      config.body = '';
      config.bodyType = 'text';
      // A multipart Content-Type needs the boundary of the body it goes with: set together by hand.
      if (!contentType.toLowerCase().startsWith('multipart/')) headers['Content-Type'] = contentType;
    } else {
      let body = literal(bodySkeleton(endpoint.requestBody?.schema, { keep: paths }));
      paths.forEach((fieldPath, index) => {
        body = setAtPath(body, fieldPath, bodyValues[index]!.template);
      });
      // A form or JSON body needs an object to hold its fields; a schema without any gives `{}`.
      if (body === null && bodyType !== 'text') body = {};
      config.body = body;
      config.bodyType = bodyType;
      headers['Content-Type'] = contentType;
    }
  }
  config.assertions = successAssertions(endpoint);
  return { config, notes };
}

/**
 * Where a body value goes: a property the body's schema names as it is (`user.name`, `a[0]`: a
 * name with a dot or brackets) is that one property; otherwise the name is a path into nested
 * fields (`address.city`).
 */
function bodyFieldPath(schema: unknown, name: string): Array<string | number> {
  const properties = isObject(schema) ? schema.properties : undefined;
  return isObject(properties) && Object.hasOwn(properties, name) ? [name] : parseFieldPath(name);
}
