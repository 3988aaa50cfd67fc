import type { Roadmap } from '@svc/discovery/wire-schemas';

/** Below this a score or a binding's confidence is worth a second look before running the flow. */
export const LOW_CONFIDENCE = 0.5;

export interface RoadmapNote {
  /** What the note is about: the plan, a step, a binding, an action of the requirement. */
  about: 'plan' | 'step' | 'binding' | 'action' | 'input';
  text: string;
}

const percent = (value: number) => `${Math.round(value * 100)}%`;

/**
 * What a reader should check in a roadmap before scaffolding it: the planner's own notes, then
 * every part it was unsure of (a weak overall confidence, steps and bindings under
 * `LOW_CONFIDENCE`, actions nothing matched, required inputs without a value).
 * @example lowConfidenceNotes(roadmap).map((note) => note.text)
 */
export function lowConfidenceNotes(roadmap: Roadmap): RoadmapNote[] {
  const notes: RoadmapNote[] = (roadmap.notes ?? []).map((text) => ({ about: 'plan', text }));
  if (roadmap.confidence < LOW_CONFIDENCE) {
    notes.push({ about: 'plan', text: `The plan as a whole is uncertain (${percent(roadmap.confidence)}).` });
  }
  roadmap.actions.forEach((action) => {
    if (action.chosen === null) {
      notes.push({ about: 'action', text: `Nothing in the catalog matched "${action.phrase}" well enough.` });
    }
  });
  for (const step of roadmap.steps) {
    if (step.score < LOW_CONFIDENCE) {
      notes.push({
        about: 'step',
        text: `${step.name} (${step.method} ${step.path}) is a weak match (${percent(step.score)}): ${step.reason}`,
      });
    }
  }
  for (const binding of roadmap.bindings) {
    if (binding.confidence < LOW_CONFIDENCE) {
      notes.push({
        about: 'binding',
        text: `${binding.to.step} ${binding.to.in} ${binding.to.name} ← ${binding.expression} is a guess (${percent(binding.confidence)}): ${binding.reason}`,
      });
    }
  }
  for (const input of roadmap.inputs) {
    if (input.required && input.example === undefined) {
      notes.push({ about: 'input', text: `flowVars.${input.name} has no value yet: a run must give it.` });
    }
  }
  return notes;
}
