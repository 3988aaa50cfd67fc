import { copyWithinBudget, endpointBudget, expandedSize, MAX_ENDPOINT_SCHEMA_NODES } from './bound-schemas.js';
import { isObject } from './json-pointer.js';
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
 * endpoint's schemas are plain trees of bounded size (see `boundEndpointSchemas`).
 *
 * @example
 * const ids = extractEndpoints(parseOpenApiDocument(text).resolved).map((endpoint) => endpoint.id);
 */
export function extractEndpoints(doc: JsonObject): CatalogEndpoint[] {
  const endpoints: CatalogEndpoint[] = [];
  const used = new Set<string>();
  const docServers = serverUrls(doc.servers);
  const docSecurity = doc.security;
  const schemes =
    isObject(doc.components) && isObject(doc.components.securitySchemes) ? doc.components.securitySchemes : {};
  for (const [path, item] of Object.entries(isObject(doc.paths) ? doc.paths : {})) {
    if (!isObject(item)) continue;
    const pathServers = serverUrls(item.servers);
    for (const method of HTTP_METHODS) {
      const operation = item[method];
      if (!isObject(operation)) continue;
      const operationId =
        typeof operation.operationId === 'string' && operation.operationId !== '' ? operation.operationId : undefined;
      let id = operationId ?? endpointIdFor(method, path);
      // Only a generated id can collide (operationIds are checked unique at parse time), e.g.
      // `/a-b` and `/a_b`; a suffix keeps both reachable.
      for (let n = 2; used.has(id); n += 1) id = `${operationId ?? endpointIdFor(method, path)}_${n}`;
      used.add(id);
      const operationServers = serverUrls(operation.servers);
      const security = securityOf(operation.security !== undefined ? operation.security : docSecurity);
      endpoints.push({
        id,
        ...(operationId !== undefined ? { operationId } : {}),
        method: method.toUpperCase(),
        path,
        summary: typeof operation.summary === 'string' ? operation.summary : '',
        description: typeof operation.description === 'string' ? operation.description : '',
        tags: Array.isArray(operation.tags)
          ? operation.tags.filter((tag): tag is string => typeof tag === 'string')
          : [],
        deprecated: operation.deprecated === true,
        parameters: mergeParameters(item.parameters, operation.parameters),
        requestBody: requestBodyOf(operation.requestBody),
        responses: responsesOf(operation.responses),
        security,
        securitySchemes: schemesUsed(security, schemes),
        servers: operationServers.length > 0 ? operationServers : pathServers.length > 0 ? pathServers : docServers,
      });
    }
  }
  boundEndpointSchemas(endpoints);
  return endpoints;
}

/**
 * Makes every endpoint's schemas plain trees (no object shared with another place) of at most
 * `MAX_ENDPOINT_SCHEMA_NODES` values, fewer when the whole document would keep more than
 * `MAX_DOCUMENT_SCHEMA_NODES`. Resolved references are shared, so a document of a few hundred
 * kilobytes whose schemas refer to one another can stand for billions of values written out (a
 * large payments API's stands for about 170 million): cut breadth first, an endpoint keeps its
 * upper levels, which is what planning, scaffolding and test generation read.
 */
function boundEndpointSchemas(endpoints: CatalogEndpoint[]): void {
  const memo = new WeakMap<object, number>();
  const rootsOf = (endpoint: CatalogEndpoint): unknown[] => [
    ...endpoint.parameters.map((parameter) => parameter.schema),
    ...(endpoint.requestBody === null ? [] : [endpoint.requestBody.schema]),
    ...Object.values(endpoint.responses).map((response) => response.schema),
  ];
  const sizes = endpoints.map((endpoint) =>
    Math.min(
      MAX_ENDPOINT_SCHEMA_NODES,
      rootsOf(endpoint).reduce<number>((sum, root) => sum + expandedSize(root, memo, MAX_ENDPOINT_SCHEMA_NODES), 0),
    ),
  );
  const budget = endpointBudget(sizes);
  for (const endpoint of endpoints) {
    const copies = copyWithinBudget(rootsOf(endpoint), budget);
    let next = 0;
    for (const parameter of endpoint.parameters) parameter.schema = copies[next++];
    if (endpoint.requestBody !== null) endpoint.requestBody.schema = copies[next++];
    for (const response of Object.values(endpoint.responses)) {
      const schema = copies[next++];
      if (schema === undefined) delete response.schema;
      else response.schema = schema;
    }
  }
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

function serverUrls(servers: unknown): string[] {
  if (!Array.isArray(servers)) return [];
  return servers.flatMap((server) => (isObject(server) && typeof server.url === 'string' ? [server.url] : []));
}

function mergeParameters(pathLevel: unknown, operationLevel: unknown): EndpointParameter[] {
  const byKey = new Map<string, EndpointParameter>();
  for (const list of [pathLevel, operationLevel]) {
    if (!Array.isArray(list)) continue;
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
  }
  return [...byKey.values()];
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
