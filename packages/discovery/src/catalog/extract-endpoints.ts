import { SvcError } from '@svc/engine';
import {
  copyWithinBudget,
  createWeigher,
  endpointBudget,
  MAX_DOCUMENT_NODES,
  MAX_ENDPOINT_SCHEMA_NODES,
  type Weigher,
} from './bound-schemas.js';
import { createFrameWeights } from './frame-weight.js';
import { isObject, pointer } from './json-pointer.js';
import {
  HTTP_METHODS,
  type CatalogEndpoint,
  type EndpointParameter,
  type EndpointRequestBody,
  type EndpointResponse,
  type JsonObject,
} from './types.js';

/**
 * One endpoint per operation of a resolved OpenAPI 3 document (`parseOpenApiDocument(…).resolved`),
 * in document order. Ids are stable across re-imports of the same spec: the operationId, else the
 * method and path (`GET /users/{user_id}/playlists` → `get_users_user_id_playlists`). Each
 * endpoint's schemas are plain trees of bounded size (see `boundEndpointSchemas`), and all that
 * the endpoints keep weighs at most `MAX_DOCUMENT_NODES` values: a document whose endpoints would
 * keep more even with every schema cut to its marker is `INVALID_OPENAPI`, with the operation
 * where the cap was passed.
 *
 * @example
 * const ids = extractEndpoints(parseOpenApiDocument(text).resolved).map((endpoint) => endpoint.id);
 */
export function extractEndpoints(doc: JsonObject): CatalogEndpoint[] {
  const endpoints: CatalogEndpoint[] = [];
  const used = new Set<string>();
  // The next suffix to try per generated id: thousands of paths can slug alike (`/a-b`, `/a_b`, …).
  const nextSuffix = new Map<string, number>();
  const schemes =
    isObject(doc.components) && isObject(doc.components.securitySchemes) ? doc.components.securitySchemes : {};
  // Resolved references share their targets, and the document's servers and security apply to
  // every operation: each part is read once however many operations share it.
  const parts = {
    parameters: memoisedByObject(parametersOf),
    requestBody: memoisedByObject(requestBodyOf),
    responses: memoisedByObject(responsesOf),
    servers: memoisedByObject(serverUrls),
    security: memoisedByObject(securityOf),
    schemes: memoisedByObject((security: Array<Record<string, string[]>>) => schemesUsed(security, schemes)),
    tags: memoisedByObject(tagsOf),
  };
  const weigher = createWeigher();
  const weights = createFrameWeights(weigher);
  let spent = 0;
  const docServers = parts.servers(doc.servers);
  const docSecurity = doc.security;
  for (const [path, item] of Object.entries(isObject(doc.paths) ? doc.paths : {})) {
    if (!isObject(item)) continue;
    const pathServers = parts.servers(item.servers);
    const pathParameters = parts.parameters(item.parameters);
    for (const method of HTTP_METHODS) {
      const operation = item[method];
      if (!isObject(operation)) continue;
      const operationId =
        typeof operation.operationId === 'string' && operation.operationId !== '' ? operation.operationId : undefined;
      const base = operationId ?? endpointIdFor(method, path);
      let id = base;
      // Only a generated id can collide (operationIds are checked unique at parse time), e.g.
      // `/a-b` and `/a_b`; a suffix keeps both reachable.
      if (used.has(id)) {
        let n = nextSuffix.get(base) ?? 2;
        while (used.has(`${base}_${n}`)) n += 1;
        id = `${base}_${n}`;
        nextSuffix.set(base, n + 1);
      }
      used.add(id);
      const operationServers = parts.servers(operation.servers);
      const servers =
        operationServers.length > 0 ? operationServers : pathServers.length > 0 ? pathServers : docServers;
      const operationParameters = parts.parameters(operation.parameters);
      const requestBody = parts.requestBody(operation.requestBody);
      const responses = parts.responses(operation.responses);
      const security = parts.security(operation.security !== undefined ? operation.security : docSecurity);
      const securitySchemes = parts.schemes(security);
      const tags = parts.tags(operation.tags);
      const summary = typeof operation.summary === 'string' ? operation.summary : '';
      const description = typeof operation.description === 'string' ? operation.description : '';
      // Nothing of the endpoint is built before what it keeps is known to fit.
      spent +=
        // The object, `method`, `deprecated`.
        3 +
        [id, operationId, path, summary, description].reduce((sum, text) => sum + weights.plain(text), 0) +
        weights.parameters(pathParameters) +
        weights.parameters(operationParameters) +
        weights.requestBody(requestBody) +
        weights.responses(responses) +
        weights.plain(security) +
        weights.plain(securitySchemes) +
        weights.plain(servers) +
        weights.plain(tags);
      if (spent > MAX_DOCUMENT_NODES) throw tooLarge(pointer('paths', path, method));
      endpoints.push({
        id,
        ...(operationId !== undefined ? { operationId } : {}),
        method: method.toUpperCase(),
        path,
        summary,
        description,
        tags,
        deprecated: operation.deprecated === true,
        parameters: mergeParameters(pathParameters, operationParameters),
        requestBody: requestBody === null ? null : { ...requestBody },
        responses: Object.fromEntries(Object.entries(responses).map(([status, response]) => [status, { ...response }])),
        security,
        securitySchemes,
        servers,
      });
    }
  }
  boundEndpointSchemas(endpoints, MAX_DOCUMENT_NODES - spent, weigher);
  return endpoints;
}

function tooLarge(where: string): SvcError {
  const problem = {
    path: where,
    message:
      `the endpoints up to this operation would keep more than ${MAX_DOCUMENT_NODES} values even with every ` +
      'schema cut short: parameters, responses, servers or security that many operations share are kept by each',
  };
  return new SvcError(
    'INVALID_OPENAPI',
    `the document is not a valid OpenAPI document: a problem (first: ${problem.path}: ${problem.message})`,
    { details: { problems: [problem] } },
  );
}

/** `build` once per object or array it is given; anything else is built each time (it is small). */
function memoisedByObject<T>(build: (input: unknown) => T): (input: unknown) => T;
function memoisedByObject<I extends object, T>(build: (input: I) => T): (input: I) => T;
function memoisedByObject(build: (input: unknown) => unknown): (input: unknown) => unknown {
  const built = new WeakMap<object, unknown>();
  return (input) => {
    if (input === null || typeof input !== 'object') return build(input);
    if (!built.has(input)) built.set(input, build(input));
    return built.get(input);
  };
}

/**
 * Makes every endpoint's schemas plain trees (no object shared with another place) of at most
 * `MAX_ENDPOINT_SCHEMA_NODES` values, fewer when the whole document's endpoints would keep more
 * than `available` in their schemas, each `{ "x-truncated": true }` counted. Resolved references
 * are shared, so a document of a few hundred kilobytes whose schemas refer to one another can
 * stand for billions of values written out (a large payments API's stands for about 170
 * million): cut breadth first, an endpoint keeps its upper levels, which is what planning,
 * scaffolding and test generation read.
 */
function boundEndpointSchemas(endpoints: CatalogEndpoint[], available: number, weigher: Weigher): void {
  const rootsOf = (endpoint: CatalogEndpoint): unknown[] => [
    ...endpoint.parameters.map((parameter) => parameter.schema),
    ...(endpoint.requestBody === null ? [] : [endpoint.requestBody.schema]),
    ...Object.values(endpoint.responses).map((response) => response.schema),
  ];
  const sum = (values: readonly unknown[], weigh: (value: unknown) => number) =>
    values.reduce<number>((total, value) => total + weigh(value), 0);
  const roots = endpoints.map(rootsOf);
  const least = roots.map((list) => sum(list, weigher.least));
  const budget = endpointBudget(
    roots.map((list, index) => ({
      size: Math.min(MAX_ENDPOINT_SCHEMA_NODES, sum(list, weigher.weight)),
      least: least[index]!,
    })),
    // What the endpoints keep besides their schemas was counted with their schemas at the least.
    available + least.reduce((total, weight) => total + weight, 0),
  );
  endpoints.forEach((endpoint, index) => {
    const copies = copyWithinBudget(roots[index]!, budget, weigher);
    let next = 0;
    for (const parameter of endpoint.parameters) parameter.schema = copies[next++];
    if (endpoint.requestBody !== null) endpoint.requestBody.schema = copies[next++];
    for (const response of Object.values(endpoint.responses)) {
      const schema = copies[next++];
      if (schema === undefined) delete response.schema;
      else response.schema = schema;
    }
  });
}

/** `GET /users/{user_id}/playlists` → `get_users_user_id_playlists`. */
export function endpointIdFor(method: string, path: string): string {
  const slug = `${method} ${path}`
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
  return slug;
}

/** `true`, or the string `"true"` that hand-written specs often hold where a boolean belongs. */
function isTrue(value: unknown): boolean {
  return value === true || value === 'true';
}

function tagsOf(tags: unknown): string[] {
  return Array.isArray(tags) ? tags.filter((tag): tag is string => typeof tag === 'string') : [];
}

function serverUrls(servers: unknown): string[] {
  if (!Array.isArray(servers)) return [];
  return servers.flatMap((server) => (isObject(server) && typeof server.url === 'string' ? [server.url] : []));
}

/** One level's parameters (a path item's or an operation's) by `in` and name, the last kept. */
function parametersOf(list: unknown): EndpointParameter[] {
  if (!Array.isArray(list)) return [];
  const byKey = new Map<string, EndpointParameter>();
  for (const param of list) {
    if (!isObject(param) || typeof param.name !== 'string') continue;
    if (param.in !== 'path' && param.in !== 'query' && param.in !== 'header' && param.in !== 'cookie') continue;
    const schema = param.schema ?? contentSchema(param.content)?.schema ?? {};
    byKey.set(`${param.in}:${param.name}`, {
      name: param.name,
      in: param.in,
      // Path parameters are always required, whatever the document says.
      required: param.in === 'path' || isTrue(param.required),
      ...(typeof param.description === 'string' ? { description: param.description } : {}),
      schema,
    });
  }
  return [...byKey.values()];
}

/** The operation's parameters over its path item's, each the endpoint's own object. */
function mergeParameters(
  pathLevel: readonly EndpointParameter[],
  operationLevel: readonly EndpointParameter[],
): EndpointParameter[] {
  const byKey = new Map<string, EndpointParameter>();
  for (const parameter of [...pathLevel, ...operationLevel]) byKey.set(`${parameter.in}:${parameter.name}`, parameter);
  return [...byKey.values()].map((parameter) => ({ ...parameter }));
}

/** The JSON media type when there is one (`application/json`, `application/problem+json`, …), else the first. */
function contentSchema(content: unknown): { contentType: string; schema: unknown } | undefined {
  if (!isObject(content)) return undefined;
  const types = Object.keys(content);
  const chosen =
    types.find((type) => /^application\/json\b/.test(type)) ?? types.find((type) => /\bjson\b/.test(type)) ?? types[0];
  if (chosen === undefined) return undefined;
  const media = content[chosen];
  return { contentType: chosen, schema: isObject(media) ? media.schema : undefined };
}

function requestBodyOf(body: unknown): EndpointRequestBody | null {
  if (!isObject(body)) return null;
  const chosen = contentSchema(body.content);
  if (chosen === undefined) return null;
  return { required: isTrue(body.required), contentType: chosen.contentType, schema: chosen.schema ?? {} };
}

function responsesOf(responses: unknown): Record<string, EndpointResponse> {
  const out: Record<string, EndpointResponse> = {};
  if (!isObject(responses)) return out;
  for (const [status, response] of Object.entries(responses)) {
    if (!isObject(response)) continue;
    const chosen = contentSchema(response.content);
    out[status] = {
      description: typeof response.description === 'string' ? response.description : '',
      ...(chosen !== undefined ? { contentType: chosen.contentType } : {}),
      ...(chosen?.schema !== undefined ? { schema: chosen.schema } : {}),
    };
  }
  return out;
}

/** The `components.securitySchemes` entries the operation's requirements name, so a caller can build credentials. */
function schemesUsed(security: Array<Record<string, string[]>>, schemes: JsonObject): Record<string, JsonObject> {
  const used: Record<string, JsonObject> = {};
  for (const requirement of security) {
    for (const name of Object.keys(requirement)) {
      const scheme = schemes[name];
      if (isObject(scheme)) used[name] = scheme;
    }
  }
  return used;
}

function securityOf(security: unknown): Array<Record<string, string[]>> {
  if (!Array.isArray(security)) return [];
  return security
    .filter(isObject)
    .map((requirement) =>
      Object.fromEntries(
        Object.entries(requirement).map(([name, scopes]) => [
          name,
          Array.isArray(scopes) ? scopes.filter((scope): scope is string => typeof scope === 'string') : [],
        ]),
      ),
    );
}
