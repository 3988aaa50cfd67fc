import { readFileSync } from 'node:fs';
import { planRoadmap, type Roadmap } from '@svc/discovery';
import { plannerIndexOfFile } from './spec-index.js';

/**
 * A set of plain-language requests against one API, each with the gold sequence of endpoints a
 * person would call (RestBench's format: `{ query, solution: ["GET /search", …] }`). A request is
 * solved in order (CP) when its gold sequence appears, in order, within the planned steps (other
 * steps may sit between). A gold endpoint is offered when it is a planned step or among any
 * action's candidates.
 */
export interface RequestSetReport {
  name: string;
  operations: number;
  requests: number;
  inOrder: number;
  goldRecall: number;
  goldOffered: number;
  precision: number;
  noPlan: number;
  meanExtraSteps: number;
  meanPlanMs: number;
  /** Confidence of each plan with whether it solved its request, for the calibration table. */
  outcomes: Array<{ confidence: number; solved: boolean }>;
  misses: Array<{ query: string; gold: string[]; planned: string[]; confidence: number; offered: string[] }>;
}

export interface RequestSet {
  name: string;
  specFile: string;
  requestsFile: string;
  /** Corrections of known defects of the data's gold. */
  fixGold?: (endpoint: string) => string;
  /**
   * A set the planner is not changed to fit: its figures are printed beside the others', but it
   * sets no exit code, stays out of the calibration, and `-v` does not list its misses.
   */
  heldOut?: boolean;
}

interface RequestItem {
  query: string;
  solution: string[];
}

export function evaluateRequestSet(set: RequestSet): RequestSetReport {
  const items = JSON.parse(readFileSync(set.requestsFile, 'utf8')) as RequestItem[];
  const index = plannerIndexOfFile(set.specFile, set.name);
  let inOrder = 0;
  let goldFound = 0;
  let goldOffered = 0;
  let goldTotal = 0;
  let proposedCorrect = 0;
  let proposedTotal = 0;
  let extra = 0;
  let planMs = 0;
  let noPlan = 0;
  const outcomes: RequestSetReport['outcomes'] = [];
  const misses: RequestSetReport['misses'] = [];
  for (const item of items) {
    const started = performance.now();
    const roadmap: Roadmap = planRoadmap(item.query, index);
    planMs += performance.now() - started;
    const planned = roadmap.steps.map((step) => `${step.method} ${step.path}`);
    const offered = new Set([
      ...planned,
      ...roadmap.actions.flatMap((action) => action.candidates.map((c) => `${c.method} ${c.path}`)),
    ]);
    if (planned.length === 0) noPlan += 1;
    const gold = item.solution.map(set.fixGold ?? ((endpoint) => endpoint));
    const solved = isSubsequence(gold, planned);
    outcomes.push({ confidence: roadmap.confidence, solved });
    if (solved) inOrder += 1;
    const goldSet = new Set(gold);
    goldTotal += goldSet.size;
    goldFound += [...goldSet].filter((endpoint) => planned.includes(endpoint)).length;
    goldOffered += [...goldSet].filter((endpoint) => offered.has(endpoint)).length;
    if (!solved)
      misses.push({
        query: item.query,
        gold,
        planned,
        confidence: roadmap.confidence,
        offered: [...goldSet].filter((endpoint) => !planned.includes(endpoint) && offered.has(endpoint)),
      });
    const correct = planned.filter((endpoint) => goldSet.has(endpoint)).length;
    proposedCorrect += correct;
    proposedTotal += planned.length;
    extra += planned.length - correct;
  }
  return {
    name: set.name,
    operations: index.profiles.length,
    requests: items.length,
    inOrder: inOrder / items.length,
    goldRecall: goldFound / Math.max(goldTotal, 1),
    goldOffered: goldOffered / Math.max(goldTotal, 1),
    precision: proposedCorrect / Math.max(proposedTotal, 1),
    noPlan,
    meanExtraSteps: extra / items.length,
    meanPlanMs: planMs / items.length,
    outcomes,
    misses,
  };
}

/** Plans grouped by confidence: how many fall in each bucket and what share of them is right. */
export function calibration(
  outcomes: Array<{ confidence: number; solved: boolean }>,
): Array<{ from: number; to: number; plans: number; correct: number }> {
  const edges = [0, 0.2, 0.4, 0.6, 0.8, 1.0001];
  return edges.slice(0, -1).map((from, at) => {
    const to = edges[at + 1]!;
    const inBucket = outcomes.filter((outcome) => outcome.confidence >= from && outcome.confidence < to);
    return {
      from,
      to: Math.min(to, 1),
      plans: inBucket.length,
      correct: inBucket.filter((outcome) => outcome.solved).length,
    };
  });
}

function isSubsequence(needle: string[], haystack: string[]): boolean {
  let at = 0;
  for (const item of haystack) if (item === needle[at]) at += 1;
  return at === needle.length;
}
