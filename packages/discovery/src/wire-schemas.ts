/**
 * What a client that plans nothing itself (the web app) needs of discovery: the wire schemas of
 * the catalog and discovery doors and the shapes they answer, with nothing that needs Node.
 * Published as `@svc/discovery/wire-schemas`.
 */
export { importOpenApiBodySchema, MAX_OPENAPI_DOCUMENT_CHARS, type ImportOpenApiBody } from './catalog/wire-schemas.js';
export {
  planRoadmapBodySchema,
  requirementSchema,
  MAX_REQUIREMENT_CHARS,
  type PlanRoadmapBody,
} from './discovery/wire-schemas.js';
export type { CatalogEntry, CatalogImportSummary } from './catalog/catalog-service.js';
export type { CatalogEndpoint, EndpointParameter, OpenApiProblem } from './catalog/types.js';
export type {
  Roadmap,
  RoadmapAction,
  RoadmapBinding,
  RoadmapCandidate,
  RoadmapInput,
  RoadmapStep,
  RoadmapTarget,
} from './planner/roadmap.js';
