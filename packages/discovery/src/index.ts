/**
 * @svc/discovery: the OpenAPI catalog (import, endpoints), and later the planner and test
 * generation built on it. Imports `@svc/engine` only.
 */
export * from './catalog/index.js';
export type {
  Roadmap,
  RoadmapAction,
  RoadmapBinding,
  RoadmapCandidate,
  RoadmapInput,
  RoadmapStep,
  RoadmapTarget,
} from './planner/roadmap.js';
