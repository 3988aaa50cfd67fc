/**
 * The shapes the catalog works with. Documents are kept as plain JSON objects rather than the
 * `openapi-types` unions: imported specs are untrusted input, and every field is checked where
 * it is read.
 */
export type JsonObject = Record<string, unknown>;

/** Where in the document a problem is (a JSON pointer such as `#/paths/~1users/get`), and what. */
export interface OpenApiProblem {
  path: string;
  message: string;
}

/**
 * An OpenAPI 3.x document (Swagger 2.0 input is converted to this shape) with every internal
 * `$ref` replaced by what it points to. A reference that would expand into itself is kept as
 * `{ "$ref": "#/components/schemas/X", "x-circular": true }`, so a recursive schema stays finite
 * and a reader can still tell which schema it recurses into.
 */
export interface ParsedOpenApi {
  /** `3.0`, `3.1`, or `2.0` for a converted Swagger document. */
  sourceVersion: '2.0' | '3.0' | '3.1';
  title: string;
  version: string;
  /** The document as given (parsed from JSON or YAML), before conversion and `$ref` resolution. */
  source: JsonObject;
  /** The OpenAPI 3 form with references resolved. */
  resolved: JsonObject;
}

export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

export interface EndpointParameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required: boolean;
  description?: string;
  schema: unknown;
}

export interface EndpointRequestBody {
  required: boolean;
  contentType: string;
  schema: unknown;
}

export interface EndpointResponse {
  description: string;
  contentType?: string;
  schema?: unknown;
}

/** One operation of a spec, with everything a planner or a test generator needs to call it. */
export interface CatalogEndpoint {
  /** The operationId, else the method and path, e.g. `get_users_user_id_playlists`. */
  id: string;
  operationId?: string;
  /** Upper case, e.g. `GET`. */
  method: string;
  /** As the spec writes it, e.g. `/users/{user_id}/playlists`. */
  path: string;
  summary: string;
  description: string;
  tags: string[];
  deprecated: boolean;
  parameters: EndpointParameter[];
  requestBody: EndpointRequestBody | null;
  /** By status code (`200`, `4XX`, `default`). */
  responses: Record<string, EndpointResponse>;
  /** Alternatives: any one of the requirement objects is enough. Empty means none declared. */
  security: Array<Record<string, string[]>>;
  /**
   * The security schemes those requirements name, from `components.securitySchemes`, e.g.
   * `{ "bearerAuth": { "type": "http", "scheme": "bearer" } }`.
   */
  securitySchemes: Record<string, JsonObject>;
  /** Server URLs, most specific first-found level (operation, path, document). */
  servers: string[];
}
