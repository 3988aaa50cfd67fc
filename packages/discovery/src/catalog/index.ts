export { parseOpenApiDocument } from './parse-openapi.js';
export { extractEndpoints, endpointIdFor } from './extract-endpoints.js';
export type {
  CatalogEndpoint,
  EndpointParameter,
  EndpointRequestBody,
  EndpointResponse,
  OpenApiProblem,
  ParsedOpenApi,
  JsonObject,
} from './types.js';
