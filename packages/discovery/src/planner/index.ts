export type {
  Roadmap,
  RoadmapAction,
  RoadmapBinding,
  RoadmapCandidate,
  RoadmapInput,
  RoadmapStep,
  RoadmapTarget,
} from './roadmap.js';
export { LOW_CONFIDENCE } from './roadmap.js';
export { buildPlannerIndex, type PlannerIndex } from './planner-index.js';
export { MAX_ACTIONS, planRoadmap, type PlanOptions } from './plan-roadmap.js';
export { askModelForChoices, planRoadmapWithModel, type AskModel } from './plan-with-model.js';
