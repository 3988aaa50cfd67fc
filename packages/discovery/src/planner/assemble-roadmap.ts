import type { NeededInput } from './endpoint-profile.js';
import type { PlanBinding, PlanInput, PlanStep } from './plan-types.js';
import { round } from './plan-types.js';
import type { RankedEndpoint } from './rank-endpoints.js';
import {
  LOW_CONFIDENCE,
  type Roadmap,
  type RoadmapAction,
  type RoadmapBinding,
  type RoadmapInput,
  type RoadmapStep,
  type RoadmapTarget,
} from './roadmap.js';
import { camelName } from './text.js';

/** The planner's records as a roadmap: steps in order, bindings as templates, inputs merged by name, and the confidence. */
export function assemble(
  requirement: string,
  ordered: PlanStep[],
  bindings: PlanBinding[],
  inputs: PlanInput[],
  actions: RoadmapAction[],
  decidedBy: Roadmap['decidedBy'],
  unresolved = 0,
): Roadmap {
  const roadmapSteps: RoadmapStep[] = ordered.map((step) => ({
    name: step.name,
    endpointId: step.profile.endpoint.id,
    specId: step.profile.endpoint.specId,
    method: step.profile.endpoint.method,
    path: step.profile.endpoint.path,
    summary: step.profile.endpoint.summary.trim(),
    reason: step.reason,
    score: step.score,
    role: step.role,
    ...(step.action !== undefined ? { action: step.action } : {}),
  }));
  const target = (step: PlanStep, need: NeededInput): RoadmapTarget => ({
    step: step.name,
    in: need.in,
    name: need.name,
  });
  const roadmapBindings: RoadmapBinding[] = bindings.map((binding) => ({
    expression: `{{ResponseBinding.${binding.from.name}.body${binding.match.offer.path.startsWith('[') ? '' : '.'}${binding.match.offer.path}}}`,
    from: { step: binding.from.name, source: 'body', path: binding.match.offer.path },
    to: target(binding.to, binding.need),
    confidence: round(binding.match.confidence),
    reason: binding.match.reason,
  }));
  const byName = new Map<string, RoadmapInput>();
  for (const input of inputs) {
    let name = camelName(input.need.name);
    const existing = byName.get(name);
    if (existing !== undefined && JSON.stringify(existing.schema) !== JSON.stringify(input.need.schema))
      name = camelName(`${input.step.name} ${input.need.name}`);
    const entry = byName.get(name);
    if (entry !== undefined) {
      entry.usedBy.push(target(input.step, input.need));
      continue;
    }
    const description = input.need.description.replace(/\s+/g, ' ').trim().slice(0, 300);
    byName.set(name, {
      name,
      description: `${input.need.in === 'body' ? 'Body field' : `${capitalise(input.need.in)} parameter`} ${input.need.name} of ${input.step.name}${description !== '' ? `: ${description}` : ''}${input.fromRequirement ? ' (value taken from the requirement)' : ''}`,
      required: input.need.required,
      ...(input.need.schema !== undefined ? { schema: input.need.schema } : {}),
      ...(input.example !== undefined ? { example: input.example } : {}),
      usedBy: [target(input.step, input.need)],
    });
  }
  const confidence = round(planConfidence(ordered, roadmapBindings, actions) * UNRESOLVED_FACTOR ** unresolved);
  const notes =
    confidence < LOW_CONFIDENCE && actions.some((action) => action.candidates.length > 0)
      ? [
          `low confidence (${confidence.toFixed(2)}): plans this sure are often wrong; each action lists its best candidates with scores and reasons to choose from`,
        ]
      : [];
  return {
    requirement,
    steps: roadmapSteps,
    bindings: roadmapBindings,
    inputs: [...byName.values()],
    confidence,
    actions,
    decidedBy,
    ...(notes.length > 0 ? { notes } : {}),
  };
}

/** An action's best score from which a plan may be trusted, and the lead over the runner-up that says the choice is clear. */
const TRUSTED_SCORE = 0.6;
const CLEAR_LEAD = 0.05;
/** Each value the requirement names that no step takes makes the plan less certain. */
const UNRESOLVED_FACTOR = 0.75;
/** Each producer step the plan had to infer makes it less certain. */
const PER_PRODUCER = 0.78;

/**
 * 0–1, as often right as it says: what separates right plans from wrong ones is how well the
 * weakest action matched, how clearly it beat its runner-up, how many steps had to be inferred
 * to feed others, and whether some clause matched nothing.
 */
function planConfidence(ordered: PlanStep[], bindings: RoadmapBinding[], actions: RoadmapAction[]): number {
  // The requirement's own actions; producer choices count through the producer steps.
  const taken = actions.filter((action) => action.chosen !== null && action.feeds === undefined);
  if (ordered.length === 0 || taken.length === 0) return 0;
  const chosenScore = (action: RoadmapAction): number => action.candidates[action.chosen ?? 0]?.score ?? 0;
  const lead = (action: RoadmapAction): number =>
    chosenScore(action) - (action.candidates.find((_, at) => at !== action.chosen)?.score ?? 0);
  const weakest = Math.min(
    ...taken.map(chosenScore),
    ...ordered.filter((s) => s.role === 'requested' && s.action === undefined).map((s) => s.score),
  );
  const clearest = Math.min(...taken.map(lead));
  const producers = ordered.filter((step) => step.role === 'producer').length;
  const meanBinding =
    bindings.length === 0 ? 1 : bindings.reduce((sum, binding) => sum + binding.confidence, 0) / bindings.length;
  const own = actions.filter((action) => action.feeds === undefined);
  const untaken = own.length - taken.length;
  const base =
    0.2 + 0.45 * Math.min(1, weakest / TRUSTED_SCORE) + 0.35 * Math.min(1, Math.max(0, clearest) / CLEAR_LEAD);
  return round(base * PER_PRODUCER ** producers * (0.85 + 0.15 * meanBinding) * (1 - untaken / (own.length + 1)));
}

export function toCandidate(ranked: RankedEndpoint): RoadmapAction['candidates'][number] {
  const endpoint = ranked.profile.endpoint;
  return {
    endpointId: endpoint.id,
    method: endpoint.method,
    path: endpoint.path,
    summary: endpoint.summary.trim(),
    score: round(ranked.score),
    reasons: ranked.reasons,
  };
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
