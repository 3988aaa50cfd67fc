import type { EndpointProfile, NeededInput } from './endpoint-profile.js';
import type { ValueMatch } from './match-values.js';

/** The planner's working records: a step, a binding and an input before they become a roadmap. */
export interface PlanStep {
  key: number;
  profile: EndpointProfile;
  role: 'requested' | 'producer';
  action: number | undefined;
  clause: number;
  score: number;
  reason: string;
  depth: number;
  name: string;
}

export interface PlanBinding {
  from: PlanStep;
  to: PlanStep;
  need: NeededInput;
  match: ValueMatch;
}

export interface PlanInput {
  step: PlanStep;
  need: NeededInput;
  example: unknown;
  fromRequirement: boolean;
}

export function stepLabel(step: PlanStep): string {
  return `${step.profile.endpoint.method} ${step.profile.endpoint.path}`;
}

/** A 0–1 figure with two decimals. */
export function round(value: number): number {
  return Math.round(Math.max(0, Math.min(1, value)) * 100) / 100;
}
