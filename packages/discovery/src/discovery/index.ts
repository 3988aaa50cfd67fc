export {
  createDiscoveryService,
  type DiscoveryService,
  type DiscoveryServiceOptions,
  type PlanRequest,
  type ScaffoldRequest,
  type ScaffoldResult,
} from './discovery-service.js';
export {
  planRoadmapBodySchema,
  scaffoldFlowBodySchema,
  roadmapSchema,
  requirementSchema,
  MAX_REQUIREMENT_CHARS,
  MAX_ROADMAP_STEPS,
  type PlanRoadmapBody,
  type ScaffoldFlowBody,
} from './wire-schemas.js';
export { describeRunNeeds, type RunNeeds, type RunEnvVariable, type RunInput } from './run-needs.js';
export { renderRoadmap, type RenderRoadmapOptions } from './render-roadmap.js';
