import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildPlannerIndex, extractEndpoints, parseOpenApiDocument, planRoadmap, type Roadmap } from '@svc/discovery';

/**
 * RestBench (Spotify): 57 plain-language requests, each with the gold sequence of endpoints a
 * person would call. A request counts as solved in order when its gold sequence appears, in
 * order, within the planned steps (other steps may sit between).
 */
export interface RestBenchReport {
  requests: number;
  inOrder: number;
  goldRecall: number;
  precision: number;
  meanExtraSteps: number;
  meanPlanMs: number;
  misses: Array<{ query: string; gold: string[]; planned: string[] }>;
}

interface RestBenchItem {
  query: string;
  solution: string[];
}

/** The data's known defect: item 39 names `GET /track/{id}`; the spec has `/tracks/{id}`. */
function fixGold(endpoint: string): string {
  return endpoint.replace(/^GET \/track\/\{id\}$/, 'GET /tracks/{id}');
}

export function evaluateRestBench(folder: string): RestBenchReport {
  const spec = readFileSync(join(folder, 'spotify_oas.json'), 'utf8');
  const items = JSON.parse(readFileSync(join(folder, 'spotify.json'), 'utf8')) as RestBenchItem[];
  const endpoints = extractEndpoints(parseOpenApiDocument(spec, 'spotify_oas.json').resolved).map((endpoint) => ({
    ...endpoint,
    specId: 'spotify',
  }));
  const index = buildPlannerIndex(endpoints);
  let inOrder = 0;
  let goldFound = 0;
  let goldTotal = 0;
  let proposedCorrect = 0;
  let proposedTotal = 0;
  let extra = 0;
  let planMs = 0;
  const misses: RestBenchReport['misses'] = [];
  for (const item of items) {
    const started = performance.now();
    const roadmap: Roadmap = planRoadmap(item.query, index);
    planMs += performance.now() - started;
    const planned = roadmap.steps.map((step) => `${step.method} ${step.path}`);
    const gold = item.solution.map(fixGold);
    const solved = isSubsequence(gold, planned);
    if (solved) inOrder += 1;
    else misses.push({ query: item.query, gold, planned });
    const goldSet = new Set(gold);
    goldTotal += goldSet.size;
    goldFound += [...goldSet].filter((endpoint) => planned.includes(endpoint)).length;
    const correct = planned.filter((endpoint) => goldSet.has(endpoint)).length;
    proposedCorrect += correct;
    proposedTotal += planned.length;
    extra += planned.length - correct;
  }
  return {
    requests: items.length,
    inOrder: inOrder / items.length,
    goldRecall: goldFound / Math.max(goldTotal, 1),
    precision: proposedCorrect / Math.max(proposedTotal, 1),
    meanExtraSteps: extra / items.length,
    meanPlanMs: planMs / items.length,
    misses,
  };
}

function isSubsequence(needle: string[], haystack: string[]): boolean {
  let at = 0;
  for (const item of haystack) if (item === needle[at]) at += 1;
  return at === needle.length;
}
