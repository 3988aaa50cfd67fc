import { buildPlannerIndex, extractEndpoints, parseOpenApiDocument, type PlannerIndex } from '../../src/index.js';

/** The planner's index of an OpenAPI document written in a test, its endpoints under `specId`. */
export function plannerIndexOf(spec: string, specId: string): PlannerIndex {
  return buildPlannerIndex(
    extractEndpoints(parseOpenApiDocument(spec).resolved).map((endpoint) => ({ ...endpoint, specId })),
  );
}

/** `GET /books/{book_id}`: a step as the tests compare it. */
export const route = (step: { method: string; path: string }): string => `${step.method} ${step.path}`;
