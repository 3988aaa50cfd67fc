import { NODE_NAME_PATTERN, SvcError, type EndpointConfig, type FlowDocument } from '@svc/engine';
import type { CatalogEndpoint } from '../catalog/types.js';
import { scalarOf } from './baseline-request.js';
import { BASE_URL_ENV, credentialsFor, type Credentials } from './credentials.js';
import { sampleValue } from './sample-value.js';
import { statusAssertions } from './status-assertions.js';
import type { GeneratedTestCase } from './test-case.js';

export interface TestCaseToFlowOptions {
  /**
   * A literal base URL (e.g. `http://127.0.0.1:4010`). Without it the URL starts with
   * `{{env.baseUrl}}`, so the environment of each run decides where the test goes.
   */
  baseUrl?: string;
  /** The endpoint node's timeout; default `10s`. */
  timeout?: string;
}

/** Roots an expression reads that a node may not be named after. */
const RESERVED_NAMES = new Set(['ResponseBinding', 'flowVars', 'env', 'execution', 'self', 'forNode', 'repeatNode']);

/** `createOrder` → `CreateOrder`, `get_users_user_id` → `GetUsersUserId`: the endpoint node's name. */
export function nodeNameFor(endpoint: CatalogEndpoint): string {
  const words = (endpoint.operationId ?? endpoint.id).split(/[^A-Za-z0-9]+/).filter((word) => word !== '');
  const name = words
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join('')
    .slice(0, 100);
  return NODE_NAME_PATTERN.test(name) && !RESERVED_NAMES.has(name)
    ? name
    : `Call${name.replace(/^[^A-Za-z_]+/, '')}`.slice(0, 100) || 'Call';
}

/** `createOrder · missing body.customerId`: unique per endpoint as long as case names are. */
export function flowNameFor(testCase: GeneratedTestCase, endpoint: CatalogEndpoint): string {
  return `${endpoint.operationId ?? endpoint.id} · ${testCase.name}`.slice(0, 200);
}

function bodyTypeFor(contentType: string | undefined): { bodyType: EndpointConfig['bodyType']; header?: string } {
  if (contentType === undefined || /^application\/json\s*(;|$)/i.test(contentType)) return { bodyType: 'json' };
  if (/x-www-form-urlencoded/i.test(contentType)) return { bodyType: 'form' };
  // The endpoint node cannot build multipart bodies: the fields go as a form, and a server that insists on multipart will say so.
  if (/^multipart\//i.test(contentType)) return { bodyType: 'form' };
  if (/^text\//i.test(contentType)) return { bodyType: 'text', header: contentType };
  // application/merge-patch+json, application/vnd.api+json, …: JSON text under the declared type.
  return { bodyType: 'json', header: contentType };
}

/** Flow strings are templates: a literal `{{` in test data would be read as an expression. */
function assertNoTemplates(value: unknown, where: string): void {
  if (typeof value === 'string') {
    if (value.includes('{{')) {
      throw new SvcError(
        'TESTGEN_TEMPLATE_IN_VALUE',
        `${where} holds "{{", which a flow would read as an expression; test data cannot contain it`,
      );
    }
    return;
  }
  if (Array.isArray(value)) value.forEach((element, index) => assertNoTemplates(element, `${where}[${index}]`));
  else if (typeof value === 'object' && value !== null) {
    for (const [key, element] of Object.entries(value)) {
      assertNoTemplates(key, `${where} key`);
      assertNoTemplates(element, `${where}.${key}`);
    }
  }
}

function urlFor(testCase: GeneratedTestCase, endpoint: CatalogEndpoint, options: TestCaseToFlowOptions): string {
  const base = options.baseUrl !== undefined ? options.baseUrl.replace(/\/+$/, '') : `{{env.${BASE_URL_ENV}}}`;
  const path = endpoint.path.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const given = testCase.request.pathParams[name];
    // A case that does not name a path parameter (a model's, typically) gets the schema's sample.
    const parameter = endpoint.parameters.find((candidate) => candidate.in === 'path' && candidate.name === name);
    const value =
      given ??
      scalarOf(sampleValue(parameter?.schema ?? { type: 'string' }, { fields: 'all', useExamples: true }, name));
    return encodeURIComponent(String(value));
  });
  return `${base}${path.startsWith('/') || path === '' ? '' : '/'}${path}`;
}

function credentialsOf(testCase: GeneratedTestCase, endpoint: CatalogEndpoint): Credentials {
  if (testCase.request.omitAuth === true) return { headers: {}, query: {}, variables: [] };
  if (testCase.request.badAuth === true) return { ...credentialsFor(endpoint, 'invalid'), variables: [] };
  return credentialsFor(endpoint, 'valid');
}

/** Case headers over credential headers, names compared without case; cookies from both are kept. */
function mergeHeaders(credentials: Record<string, string>, own: Record<string, string>): Record<string, string> {
  const merged: Record<string, string> = { ...credentials };
  for (const [name, value] of Object.entries(own)) {
    const existing = Object.keys(merged).find((key) => key.toLowerCase() === name.toLowerCase());
    if (existing !== undefined && name.toLowerCase() === 'cookie') {
      merged[existing] = `${value}; ${merged[existing]}`;
      continue;
    }
    if (existing !== undefined) delete merged[existing];
    merged[name] = value;
  }
  return merged;
}

/**
 * A runnable flow for one test case: a single `endpoint` node that sends the case's request to
 * `{{env.baseUrl}}` (or `options.baseUrl`) with the operation's credentials as `{{env.…}}`
 * placeholders named as scaffolded flows name them (`credentialsFor`), and asserts the expected
 * status and checks, so the execution fails when the server answers otherwise. The flow's
 * description lists the environment variables it reads.
 * @example
 * const flow = testCaseToFlow(cases[0], endpoint);
 * await engine.flows.create(tenantId, flow);
 * await engine.runFlow({ tenantId, flowId, env: { baseUrl: 'http://127.0.0.1:4010', bearerAuthToken: '…' } });
 */
export function testCaseToFlow(
  testCase: GeneratedTestCase,
  endpoint: CatalogEndpoint,
  options: TestCaseToFlowOptions = {},
): FlowDocument {
  const { request } = testCase;
  assertNoTemplates(request.pathParams, 'request.pathParams');
  assertNoTemplates(request.query, 'request.query');
  assertNoTemplates(request.headers, 'request.headers');
  assertNoTemplates(request.body, 'request.body');
  assertNoTemplates(request.rawBody, 'request.rawBody');
  assertNoTemplates(testCase.expect.assertions, 'expect.assertions');

  const credentials = credentialsOf(testCase, endpoint);
  const { bodyType, header: contentType } =
    request.rawBody !== undefined
      ? { bodyType: 'json' as const, header: undefined }
      : bodyTypeFor(endpoint.requestBody?.contentType);
  const headers = mergeHeaders(credentials.headers, request.headers);
  if (
    contentType !== undefined &&
    request.body !== undefined &&
    !Object.keys(headers).some((name) => name.toLowerCase() === 'content-type')
  ) {
    headers['Content-Type'] = contentType;
  }
  const config: Record<string, unknown> = {
    method: endpoint.method.toUpperCase(),
    url: urlFor(testCase, endpoint, options),
    query: { ...credentials.query, ...request.query },
    headers,
    bodyType,
    timeout: options.timeout ?? '10s',
    assertions: [...statusAssertions(testCase.expect.status), ...testCase.expect.assertions],
  };
  if (request.rawBody !== undefined) config.body = request.rawBody;
  // The node sends a string JSON body as JSON text written out; a body that is a JSON string is encoded here.
  else if (request.body !== undefined)
    config.body = bodyType === 'json' && typeof request.body === 'string' ? JSON.stringify(request.body) : request.body;

  const variables = [BASE_URL_ENV, ...credentials.variables.map((variable) => variable.name)].filter(
    (name, index, all) => all.indexOf(name) === index && (name !== BASE_URL_ENV || options.baseUrl === undefined),
  );
  const description = [testCase.description, variables.length > 0 ? `Environment: ${variables.join(', ')}.` : '']
    .filter((part) => part !== '')
    .join(' ');
  return {
    name: flowNameFor(testCase, endpoint),
    description,
    folderId: null,
    variables: {},
    inputs: {},
    outputs: {},
    nodes: [{ id: 'request', name: nodeNameFor(endpoint), type: 'endpoint', position: { x: 0, y: 0 }, config }],
    connections: [],
    flowData: { canvasGroups: [], annotations: [] },
  };
}
