import type { NeededInput } from './endpoint-profile.js';
import type { PlanBinding, PlanInput, PlanStep } from './plan-types.js';
import { round } from './plan-types.js';
import type { RankedEndpoint } from './rank-endpoints.js';
import type { Roadmap, RoadmapAction, RoadmapBinding, RoadmapInput, RoadmapStep, RoadmapTarget } from './roadmap.js';
import { camelName } from './text.js';

/** The planner's records as a roadmap: steps in order, bindings as templates, inputs merged by name, and the confidence. */
export function assemble(
  requirement: string,
  ordered: PlanStep[],
  bindings: PlanBinding[],
  inputs: PlanInput[],
  actions: RoadmapAction[],
  decidedBy: Roadmap['decidedBy'],
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
  const requestedScores = ordered.filter((step) => step.role === 'requested').map((step) => step.score);
  const bindingConfidences = roadmapBindings.map((binding) => binding.confidence);
  const weakestAction = requestedScores.length === 0 ? 0 : Math.min(...requestedScores);
  const meanBinding =
    bindingConfidences.length === 0
      ? 1
      : bindingConfidences.reduce((sum, value) => sum + value, 0) / bindingConfidences.length;
  const unmatched = actions.filter((action) => action.chosen === null).length;
  const confidence =
    requestedScores.length === 0
      ? 0
      : round(Math.min(1, (0.3 + weakestAction) * 0.7 + meanBinding * 0.3) * (1 - unmatched / (actions.length + 1)));
  return {
    requirement,
    steps: roadmapSteps,
    bindings: roadmapBindings,
    inputs: [...byName.values()],
    confidence,
    actions,
    decidedBy,
  };
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
