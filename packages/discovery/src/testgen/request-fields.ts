import { isObject } from '../catalog/json-pointer.js';
import type { CatalogEndpoint } from '../catalog/types.js';
import { baselineRequest, isSentParameter, scalarOf } from './baseline-request.js';
import { requestProperties, viewSchema } from './json-schema.js';
import type { TestRequest } from './test-case.js';

/** How deep into a body the generators vary fields (`body.a.b.c`). */
const MAX_FIELD_DEPTH = 3;

export type FieldLocation = 'path' | 'query' | 'header' | 'body';

/** One value of a request that a case can change or leave out. */
export interface RequestField {
  location: FieldLocation;
  /** A parameter's name, or the keys and indexes under the body (empty for the body itself). */
  path: Array<string | number>;
  /** `body.items[0].sku`, `query.limit`, `header.X-Trace-Id`, `path.orderId`. */
  label: string;
  schema: unknown;
  /** Required where it sits: in its parent object, or as a parameter. */
  required: boolean;
}

function bodyLabel(path: Array<string | number>): string {
  return path.reduce<string>(
    (label, segment) => (typeof segment === 'number' ? `${label}[${segment}]` : `${label}.${segment}`),
    'body',
  );
}

/**
 * The fields of an endpoint's request that the spec describes, in document order: parameters
 * first, then body fields depth-first (into the first item of arrays), as far as the baseline
 * request holds them.
 */
export function requestFields(
  endpoint: CatalogEndpoint,
  baseline: TestRequest = baselineRequest(endpoint, { fields: 'all', useExamples: true }),
): RequestField[] {
  const fields: RequestField[] = [];
  for (const parameter of endpoint.parameters) {
    if (!isSentParameter(parameter) || parameter.in === 'cookie') continue;
    const location: FieldLocation = parameter.in;
    fields.push({
      location,
      path: [parameter.name],
      label: `${location}.${parameter.name}`,
      schema: parameter.schema,
      required: parameter.required,
    });
  }
  if (endpoint.requestBody === null) return fields;
  const rootView = viewSchema(endpoint.requestBody.schema);
  if (rootView.type !== 'object' && rootView.type !== undefined) {
    fields.push({
      location: 'body',
      path: [],
      label: 'body',
      schema: endpoint.requestBody.schema,
      required: endpoint.requestBody.required,
    });
  }
  walkBody(endpoint.requestBody.schema, baseline.body, [], fields);
  return fields;
}

function walkBody(schema: unknown, value: unknown, path: Array<string | number>, fields: RequestField[]): void {
  if (path.length >= MAX_FIELD_DEPTH * 2) return;
  const view = viewSchema(schema);
  if (isObject(value) && (view.type === 'object' || view.type === undefined)) {
    const required = new Set(view.required);
    for (const [name, propertySchema] of requestProperties(view)) {
      if (!(name in value)) continue;
      const childPath = [...path, name];
      if (childPath.filter((segment) => typeof segment === 'string').length > MAX_FIELD_DEPTH) continue;
      fields.push({
        location: 'body',
        path: childPath,
        label: bodyLabel(childPath),
        schema: propertySchema,
        required: required.has(name),
      });
      walkBody(propertySchema, value[name], childPath, fields);
    }
  } else if (Array.isArray(value) && value.length > 0 && view.type === 'array') {
    walkBody(view.items, value[0], [...path, 0], fields);
  }
}

/** The request with one field given another value (a deep copy; the input is not changed). */
export function withField(request: TestRequest, field: RequestField, value: unknown): TestRequest {
  const next = structuredClone(request);
  const name = String(field.path[0]);
  if (field.location === 'path') next.pathParams[name] = scalarOf(value);
  else if (field.location === 'query') next.query[name] = Array.isArray(value) ? value.map(scalarOf) : scalarOf(value);
  else if (field.location === 'header') next.headers[name] = String(scalarOf(value));
  else if (field.path.length === 0) next.body = structuredClone(value);
  else {
    const parent = containerAt(next.body, field.path.slice(0, -1));
    const key = field.path.at(-1)!;
    if (parent !== undefined) (parent as Record<string | number, unknown>)[key] = structuredClone(value);
  }
  return next;
}

/** The request with one field left out. */
export function withoutField(request: TestRequest, field: RequestField): TestRequest {
  const next = structuredClone(request);
  const name = String(field.path[0]);
  if (field.location === 'path') delete next.pathParams[name];
  else if (field.location === 'query') delete next.query[name];
  else if (field.location === 'header') delete next.headers[name];
  else if (field.path.length === 0) delete next.body;
  else {
    const parent = containerAt(next.body, field.path.slice(0, -1));
    const key = field.path.at(-1)!;
    if (isObject(parent)) delete parent[String(key)];
  }
  return next;
}

/** The value a field holds in a request. */
export function fieldValue(request: TestRequest, field: RequestField): unknown {
  const name = String(field.path[0]);
  if (field.location === 'path') return request.pathParams[name];
  if (field.location === 'query') return request.query[name];
  if (field.location === 'header') return request.headers[name];
  if (field.path.length === 0) return request.body;
  const parent = containerAt(request.body, field.path.slice(0, -1));
  return parent === undefined ? undefined : (parent as Record<string | number, unknown>)[field.path.at(-1)!];
}

function containerAt(root: unknown, path: Array<string | number>): object | undefined {
  let current: unknown = root;
  for (const segment of path) {
    if (typeof current !== 'object' || current === null) return undefined;
    current = (current as Record<string | number, unknown>)[segment];
  }
  return typeof current === 'object' && current !== null ? current : undefined;
}
