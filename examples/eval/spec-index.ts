import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { buildPlannerIndex, extractEndpoints, parseOpenApiDocument, type PlannerIndex } from '@svc/discovery';

/** The planner's index of an OpenAPI document's text, its endpoints under `specId`; a YAML document is read as JSON first. */
export function plannerIndexOfText(text: string, fileName: string, specId: string): PlannerIndex {
  const document = fileName.endsWith('.json') ? text : JSON.stringify(parse(text));
  return buildPlannerIndex(
    extractEndpoints(parseOpenApiDocument(document, fileName).resolved).map((endpoint) => ({ ...endpoint, specId })),
  );
}

/** The planner's index of an OpenAPI document file. */
export function plannerIndexOfFile(file: string, specId: string): PlannerIndex {
  return plannerIndexOfText(readFileSync(file, 'utf8'), file, specId);
}
