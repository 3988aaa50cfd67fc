import { isObject, putOwn, readPointer } from './json-pointer.js';
import { HTTP_METHODS, type JsonObject } from './types.js';

/** Keywords a Swagger 2.0 non-body parameter carries inline that belong in an OpenAPI 3 `schema`. */
const SCHEMA_KEYWORDS = [
  'type',
  'format',
  'items',
  'enum',
  'default',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'minLength',
  'maxLength',
  'pattern',
  'minItems',
  'maxItems',
  'uniqueItems',
  'multipleOf',
];

/**
 * Converts a Swagger 2.0 document to the OpenAPI 3.0 shape the rest of the catalog reads:
 * host/basePath/schemes become `servers`, body and formData parameters a `requestBody`,
 * `definitions` `components.schemas`, a response's `schema` its `content`. References are
 * rewritten to their OpenAPI 3 places; references to shared parameters are inlined first, because
 * a shared body parameter has no OpenAPI 3 parameter to point to.
 */
export function convertSwagger2(doc: JsonObject): JsonObject {
  const rewritten = rewriteRefs(doc) as JsonObject;
  const consumes = stringList(rewritten.consumes);
  const produces = stringList(rewritten.produces);
  const paths: JsonObject = {};
  for (const [path, item] of Object.entries(isObject(rewritten.paths) ? rewritten.paths : {})) {
    if (!isObject(item)) {
      paths[path] = item;
      continue;
    }
    const pathParams = inlineParameters(rewritten, item.parameters);
    const out: JsonObject = {};
    for (const [key, value] of Object.entries(item)) {
      if (key === 'parameters') continue;
      if ((HTTP_METHODS as readonly string[]).includes(key) && isObject(value)) {
        putOwn(out, key, convertOperation(rewritten, value, pathParams, consumes, produces));
      } else {
        putOwn(out, key, value);
      }
    }
    const shared = pathParams.filter((param) => param.in !== 'body' && param.in !== 'formData').map(convertParameter);
    if (shared.length > 0) out.parameters = shared;
    paths[path] = out;
  }

  const components: JsonObject = {};
  if (isObject(rewritten.definitions)) components.schemas = rewritten.definitions;
  if (isObject(rewritten.responses)) {
    components.responses = Object.fromEntries(
      Object.entries(rewritten.responses).map(([name, response]) => [name, convertResponse(response, produces)]),
    );
  }
  if (isObject(rewritten.securityDefinitions)) {
    components.securitySchemes = Object.fromEntries(
      Object.entries(rewritten.securityDefinitions).map(([name, scheme]) => [name, convertSecurityScheme(scheme)]),
    );
  }

  const result: JsonObject = { openapi: '3.0.3', info: rewritten.info, paths };
  const servers = convertServers(rewritten);
  if (servers.length > 0) result.servers = servers;
  if (Object.keys(components).length > 0) result.components = components;
  for (const key of ['security', 'tags', 'externalDocs'])
    if (rewritten[key] !== undefined) result[key] = rewritten[key];
  if (rewritten.paths === undefined) delete result.paths;
  return result;
}

function stringList(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}

function rewriteRefs(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(rewriteRefs);
  if (!isObject(node)) return node;
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === '$ref' && typeof value === 'string') {
      out[key] = value
        .replace(/^#\/definitions\//, '#/components/schemas/')
        .replace(/^#\/responses\//, '#/components/responses/');
    } else {
      putOwn(out, key, rewriteRefs(value));
    }
  }
  return out;
}

function convertServers(doc: JsonObject): JsonObject[] {
  if (typeof doc.host !== 'string') return typeof doc.basePath === 'string' ? [{ url: doc.basePath }] : [];
  const basePath = typeof doc.basePath === 'string' ? doc.basePath : '';
  const schemes = stringList(doc.schemes);
  return (schemes.length > 0 ? schemes : ['https']).map((scheme) => ({ url: `${scheme}://${doc.host}${basePath}` }));
}

function inlineParameters(doc: JsonObject, parameters: unknown): JsonObject[] {
  if (!Array.isArray(parameters)) return [];
  return parameters.map((param) => {
    if (isObject(param) && typeof param.$ref === 'string' && param.$ref.startsWith('#/parameters/')) {
      const target = readPointer(doc, param.$ref);
      return isObject(target) ? target : param;
    }
    return isObject(param) ? param : {};
  });
}

function convertParameter(param: JsonObject): JsonObject {
  if (typeof param.$ref === 'string') return param;
  const schema: JsonObject = {};
  for (const key of SCHEMA_KEYWORDS) if (param[key] !== undefined) schema[key] = param[key];
  const out: JsonObject = { name: param.name, in: param.in, schema };
  if (param.required !== undefined) out.required = param.required;
  if (param.description !== undefined) out.description = param.description;
  return out;
}

function convertOperation(
  doc: JsonObject,
  operation: JsonObject,
  pathParams: JsonObject[],
  docConsumes: string[],
  docProduces: string[],
): JsonObject {
  const consumes = Array.isArray(operation.consumes) ? stringList(operation.consumes) : docConsumes;
  const produces = Array.isArray(operation.produces) ? stringList(operation.produces) : docProduces;
  const own = inlineParameters(doc, operation.parameters);
  // Operation parameters override path-level ones with the same name and location.
  const ownKeys = new Set(own.map((param) => `${String(param.in)}:${String(param.name)}`));
  const all = [...pathParams.filter((param) => !ownKeys.has(`${String(param.in)}:${String(param.name)}`)), ...own];

  const out: JsonObject = {};
  for (const [key, value] of Object.entries(operation)) {
    if (key === 'parameters' || key === 'consumes' || key === 'produces' || key === 'responses' || key === 'schemes')
      continue;
    putOwn(out, key, value);
  }
  const parameters = own.filter((param) => param.in !== 'body' && param.in !== 'formData').map(convertParameter);
  if (parameters.length > 0) out.parameters = parameters;

  const body = all.find((param) => param.in === 'body');
  const formFields = all.filter((param) => param.in === 'formData');
  if (body !== undefined) {
    const types = consumes.length > 0 ? consumes : ['application/json'];
    out.requestBody = {
      required: body.required === true,
      ...(body.description !== undefined ? { description: body.description } : {}),
      content: Object.fromEntries(types.map((type) => [type, { schema: body.schema ?? {} }])),
    };
  } else if (formFields.length > 0) {
    const multipart = consumes.includes('multipart/form-data') || formFields.some((field) => field.type === 'file');
    const properties: JsonObject = {};
    const required: string[] = [];
    for (const field of formFields) {
      const schema = convertParameter(field).schema as JsonObject;
      if (schema.type === 'file') {
        schema.type = 'string';
        schema.format = 'binary';
      }
      if (field.description !== undefined) schema.description = field.description;
      properties[String(field.name)] = schema;
      if (field.required === true) required.push(String(field.name));
    }
    out.requestBody = {
      required: required.length > 0,
      content: {
        [multipart ? 'multipart/form-data' : 'application/x-www-form-urlencoded']: {
          schema: { type: 'object', properties, ...(required.length > 0 ? { required } : {}) },
        },
      },
    };
  }

  if (isObject(operation.responses)) {
    out.responses = Object.fromEntries(
      Object.entries(operation.responses).map(([status, response]) => [status, convertResponse(response, produces)]),
    );
  } else if (operation.responses !== undefined) {
    out.responses = operation.responses;
  }
  return out;
}

function convertResponse(response: unknown, produces: string[]): unknown {
  if (!isObject(response) || typeof response.$ref === 'string') return response;
  const out: JsonObject = { description: typeof response.description === 'string' ? response.description : '' };
  if (response.schema !== undefined) {
    const types = produces.length > 0 ? produces : ['application/json'];
    out.content = Object.fromEntries(types.map((type) => [type, { schema: response.schema }]));
  }
  if (isObject(response.headers)) out.headers = response.headers;
  return out;
}

function convertSecurityScheme(scheme: unknown): unknown {
  if (!isObject(scheme)) return scheme;
  if (scheme.type === 'basic') return { type: 'http', scheme: 'basic', description: scheme.description };
  if (scheme.type !== 'oauth2') return scheme;
  const scopes = isObject(scheme.scopes) ? scheme.scopes : {};
  const flowName =
    scheme.flow === 'accessCode'
      ? 'authorizationCode'
      : scheme.flow === 'application'
        ? 'clientCredentials'
        : String(scheme.flow);
  const flow: JsonObject = { scopes };
  if (scheme.authorizationUrl !== undefined) flow.authorizationUrl = scheme.authorizationUrl;
  if (scheme.tokenUrl !== undefined) flow.tokenUrl = scheme.tokenUrl;
  return { type: 'oauth2', flows: { [flowName]: flow } };
}
