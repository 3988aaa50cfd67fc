import { checkJsonShape, SvcError, yamlTextTooDeep } from '@svc/engine';
import { parse as parseYaml } from 'yaml';
import { convertSwagger2 } from './convert-swagger2.js';
import { childPointer, isObject, pointer } from './json-pointer.js';
import { resolveRefs } from './resolve-refs.js';
import { HTTP_METHODS, type JsonObject, type OpenApiProblem, type ParsedOpenApi } from './types.js';

const PARAMETER_LOCATIONS = new Set(['path', 'query', 'header', 'cookie']);

/**
 * Objects and arrays a document may nest: real specs stay under 40 (inline schemas nest two
 * levels per property); the walks that follow a parse must never meet thousands.
 */
export const MAX_OPENAPI_DEPTH = 128;

/**
 * Values a document may hold, a value reached through several YAML aliases counted each time:
 * about what its text could hold without aliases, so aliases cannot multiply the work after it.
 */
const MAX_OPENAPI_VALUES = 2_000_000;

/**
 * Parses an OpenAPI 3.0 / 3.1 or Swagger 2.0 document (JSON or YAML), converts Swagger 2.0 to
 * OpenAPI 3, and resolves every internal `$ref`. A document that is not OpenAPI, or is broken,
 * throws one `SvcError('INVALID_OPENAPI')` whose `details.problems` lists every problem found with
 * its place, so a user fixes them in one pass rather than one per import.
 *
 * @example
 * const parsed = parseOpenApiDocument(await readFile('petstore.yaml', 'utf8'), 'petstore.yaml');
 * const endpoints = extractEndpoints(parsed.resolved);
 */
export function parseOpenApiDocument(text: string, fileName?: string): ParsedOpenApi {
  const where = fileName === undefined ? 'the document' : `"${fileName}"`;
  const source = parseText(text, where);
  const problems: OpenApiProblem[] = [];

  const sourceVersion = detectVersion(source, problems);
  if (typeof source.openapi !== 'string' && typeof source.swagger !== 'string' && !isObject(source.paths)) {
    // Without a version field and without paths, the rest of the checks would only add noise.
    fail(where, problems);
  }
  const info = isObject(source.info) ? source.info : undefined;
  if (info === undefined) problems.push({ path: '#/info', message: 'info is missing' });
  else if (typeof info.title !== 'string' || info.title.trim() === '')
    problems.push({ path: '#/info/title', message: 'info.title is missing' });
  if (source.paths === undefined) {
    if (!(sourceVersion === '3.1' && isObject(source.webhooks)))
      problems.push({ path: '#/paths', message: 'paths is missing' });
  } else if (!isObject(source.paths)) {
    problems.push({ path: '#/paths', message: 'paths must be an object' });
  }

  const converted = sourceVersion === '2.0' ? convertSwagger2(source) : source;
  const resolved = withinStack(where, () => {
    const { resolved: expanded, problems: refProblems } = resolveRefs(converted);
    problems.push(...refProblems);
    checkOperations(expanded, problems);
    return expanded;
  });
  if (problems.length > 0 || sourceVersion === undefined) fail(where, problems);

  const resolvedInfo = resolved.info as JsonObject;
  return {
    sourceVersion,
    title: String(resolvedInfo.title),
    version: typeof resolvedInfo.version === 'string' ? resolvedInfo.version : String(resolvedInfo.version ?? ''),
    source,
    resolved,
  };
}

/**
 * Runs a walk of the document with its references expanded, which recurses once per level: a
 * chain of `$ref`s that each nest further can reach deeper than the parsed text did (its depth is
 * checked), past the call stack. That is the document's problem, answered as one.
 */
function withinStack<T>(where: string, walk: () => T): T {
  try {
    return walk();
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    fail(where, [
      {
        path: '#',
        message: 'its references expand into schemas nested too deep to read (a chain of $refs, each nesting further)',
      },
    ]);
  }
}

function fail(where: string, problems: OpenApiProblem[]): never {
  const count = problems.length === 1 ? 'a problem' : `${problems.length} problems`;
  const first = problems[0];
  throw new SvcError(
    'INVALID_OPENAPI',
    `${where} is not a valid OpenAPI document: ${count}` +
      (first === undefined ? '' : ` (first: ${first.path}: ${first.message})`),
    { details: { problems } },
  );
}

function parseText(text: string, where: string): JsonObject {
  let value: unknown;
  // Editors on Windows save a byte-order mark, which JSON.parse refuses.
  const body = text.replace(/^\uFEFF/, '');
  const trimmed = body.trimStart();
  const isJson = trimmed.startsWith('{') || trimmed.startsWith('[');
  // The YAML composer recurses once per level, and text nested tens of thousands deep exhausts
  // its stack or the process's memory: such text is refused before it is parsed.
  const deep = isJson ? undefined : yamlTextTooDeep(body);
  if (deep !== undefined) {
    fail(where, [
      {
        path: '#',
        message: `nests deeper than ${MAX_OPENAPI_DEPTH} levels of mappings and sequences (at line ${deep.line})`,
      },
    ]);
  }
  try {
    value = isJson ? JSON.parse(body) : parseYaml(body, { maxAliasCount: 1000 });
  } catch (error) {
    fail(where, [{ path: '#', message: `cannot be read as JSON or YAML: ${parserMessage(error)}` }]);
  }
  // A YAML alias inside its own anchor (`a: &a [*a]`) parses to a value that contains itself, and
  // aliases of aliases multiply what a walk visits: both are refused before anything walks it.
  const shape = checkJsonShape(value, { maxDepth: MAX_OPENAPI_DEPTH, maxValues: MAX_OPENAPI_VALUES });
  if (shape !== undefined) {
    if (shape.kind === 'too-many-values')
      fail(where, [
        {
          path: '#',
          message: `expands to more than ${MAX_OPENAPI_VALUES} values (YAML aliases counted each time they are used)`,
        },
      ]);
    const at = pointer(...shape.path);
    const shown = at.length > 200 ? `${at.slice(0, 200)}…` : at;
    if (shape.kind === 'cycle')
      fail(where, [{ path: shown, message: 'refers to itself (a YAML alias inside its own anchor)' }]);
    fail(where, [{ path: shown, message: `nests deeper than ${MAX_OPENAPI_DEPTH} levels of mappings and sequences` }]);
  }
  if (!isObject(value))
    fail(where, [{ path: '#', message: 'an OpenAPI document is an object (a mapping) at the top' }]);
  return value;
}

/**
 * What the parser says, without the text it quotes: the YAML parser shows the lines around the
 * problem and JSON.parse a piece of the text, and a document read from a file (`path`, the
 * command line) may be any file, whose contents a message must not carry back. Where it is
 * (line and column, or position) stays.
 */
function parserMessage(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const firstLine = message.split('\n', 1)[0]!.replace(/:\s*$/, '');
  // JSON.parse: `Unexpected token 'S', ..."api_key": SECRET"... is not valid JSON`.
  return firstLine.replace(/,\s*(?:\.\.\.)?".*"(?:\.\.\.)?\s+is not valid JSON$/, ': the text is not valid JSON');
}

function detectVersion(doc: JsonObject, problems: OpenApiProblem[]): ParsedOpenApi['sourceVersion'] | undefined {
  if (typeof doc.openapi === 'string') {
    if (/^3\.0\.\d+/.test(doc.openapi)) return '3.0';
    if (/^3\.1\.\d+/.test(doc.openapi)) return '3.1';
    problems.push({
      path: '#/openapi',
      message: `unsupported OpenAPI version "${doc.openapi}": 3.0.x, 3.1.x and Swagger 2.0 are`,
    });
    return undefined;
  }
  if (doc.swagger !== undefined) {
    if (doc.swagger === '2.0') return '2.0';
    problems.push({ path: '#/swagger', message: `unsupported Swagger version "${String(doc.swagger)}": only 2.0 is` });
    return undefined;
  }
  problems.push({ path: '#', message: 'not an OpenAPI document: neither an "openapi" nor a "swagger" version field' });
  return undefined;
}

function checkOperations(doc: JsonObject, problems: OpenApiProblem[]): void {
  if (!isObject(doc.paths)) return;
  const operationIds = new Map<string, string>();
  // A list of parameters that references share is checked, and its problems reported, once.
  const checked = new WeakSet<object>();
  const checkParameters = (parameters: unknown, at: string) => {
    if (typeof parameters === 'object' && parameters !== null) {
      if (checked.has(parameters)) return;
      checked.add(parameters);
    }
    checkParameterList(parameters, at, problems);
  };
  for (const [path, item] of Object.entries(doc.paths)) {
    const itemPointer = pointer('paths', path);
    if (!path.startsWith('/')) problems.push({ path: itemPointer, message: 'a path must start with "/"' });
    if (!isObject(item)) {
      problems.push({ path: itemPointer, message: 'a path item must be an object' });
      continue;
    }
    checkParameters(item.parameters, childPointer(itemPointer, 'parameters'));
    for (const method of HTTP_METHODS) {
      const operation = item[method];
      if (operation === undefined) continue;
      const operationPointer = childPointer(itemPointer, method);
      if (!isObject(operation)) {
        problems.push({ path: operationPointer, message: 'an operation must be an object' });
        continue;
      }
      checkParameters(operation.parameters, childPointer(operationPointer, 'parameters'));
      if (operation.responses !== undefined && !isObject(operation.responses)) {
        problems.push({ path: childPointer(operationPointer, 'responses'), message: 'responses must be an object' });
      }
      if (typeof operation.operationId === 'string') {
        const previous = operationIds.get(operation.operationId);
        if (previous !== undefined) {
          problems.push({
            path: childPointer(operationPointer, 'operationId'),
            message: `operationId "${operation.operationId}" is already used by ${previous}`,
          });
        } else {
          operationIds.set(operation.operationId, `${method.toUpperCase()} ${path}`);
        }
      }
    }
  }
}

function checkParameterList(parameters: unknown, at: string, problems: OpenApiProblem[]): void {
  if (parameters === undefined) return;
  if (!Array.isArray(parameters)) {
    problems.push({ path: at, message: 'parameters must be a list' });
    return;
  }
  parameters.forEach((param, index) => {
    const paramPointer = childPointer(at, index);
    if (!isObject(param)) {
      problems.push({ path: paramPointer, message: 'a parameter must be an object' });
      return;
    }
    // A circular marker only ever stands for a schema; a parameter that resolved to one is a loop.
    if (param['x-circular'] === true) {
      problems.push({ path: paramPointer, message: `parameter reference "${String(param.$ref)}" refers to itself` });
      return;
    }
    // A reference still here did not resolve, and that is already reported.
    if (typeof param.$ref === 'string') return;
    if (typeof param.name !== 'string' || param.name === '')
      problems.push({ path: paramPointer, message: 'a parameter needs a name' });
    if (typeof param.in !== 'string' || !PARAMETER_LOCATIONS.has(param.in)) {
      problems.push({
        path: paramPointer,
        message: `parameter "in" must be one of path, query, header, cookie (got ${JSON.stringify(param.in)})`,
      });
    }
  });
}
