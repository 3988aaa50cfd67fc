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
export {
  createCatalogService,
  specIdFor,
  type CatalogService,
  type CatalogServiceOptions,
  type CatalogImportSummary,
  type CatalogEntry,
  type ImportOpenApiOptions,
  type ListCatalogEndpointsQuery,
} from './catalog-service.js';
export {
  importOpenApiBodySchema,
  listEndpointsQuerySchema,
  MAX_OPENAPI_DOCUMENT_CHARS,
  type ImportOpenApiBody,
  type ListEndpointsQueryInput,
} from './wire-schemas.js';
