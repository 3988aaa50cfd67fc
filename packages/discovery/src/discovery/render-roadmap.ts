import { LOW_CONFIDENCE, type Roadmap, type RoadmapTarget } from '../planner/roadmap.js';

export interface RenderRoadmapOptions {
  /** Runner-up candidates shown per action (default 2; 0 hides them). */
  runnerUps?: number;
}

const oneLine = (text: string, max = 160) => {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
};
const target = (to: RoadmapTarget) => `${to.step} ${to.in} ${to.name}`;
const fixed = (value: number) => value.toFixed(2);

/**
 * A roadmap as text for a person (the CLI) or an assistant (the MCP tool): numbered steps
 * `METHOD /path  — reason`, then bindings, inputs, and the runner-up candidates per action.
 *
 * @example
 * renderRoadmap(roadmap);
 * // Plan for "create a playlist for me named \"Focus\"" (confidence 0.87, 2 steps):
 * //  1. GET /me  — produces user_id for POST /users/{user_id}/playlists …
 */
export function renderRoadmap(roadmap: Roadmap, options: RenderRoadmapOptions = {}): string {
  const runnerUps = options.runnerUps ?? 2;
  const lines: string[] = [];
  const count = `${roadmap.steps.length} step${roadmap.steps.length === 1 ? '' : 's'}`;
  lines.push(`Plan for ${JSON.stringify(roadmap.requirement)} (confidence ${fixed(roadmap.confidence)}, ${count}):`);
  if (roadmap.decidedBy === 'sampling') lines.push("  The assistant's model chose among the ranked candidates.");
  for (const note of roadmap.notes ?? []) lines.push(`  Note: ${note}`);
  if (roadmap.steps.length === 0)
    lines.push(
      '  No endpoint of the catalog matches well enough; name the operations more as the API does, or import the API it needs.',
    );
  const width = String(roadmap.steps.length).length;
  roadmap.steps.forEach((step, index) => {
    const role = step.role === 'producer' ? ', added to feed a later step' : '';
    lines.push(
      `${String(index + 1).padStart(width + 1)}. ${step.method.toUpperCase()} ${step.path}  — ${oneLine(step.reason)}`,
    );
    lines.push(
      `${' '.repeat(width + 3)}as ${step.name} (${step.specId}:${step.endpointId}, score ${fixed(step.score)}${role})`,
    );
  });
  if (roadmap.bindings.length > 0) {
    lines.push('', 'Bindings:');
    for (const binding of roadmap.bindings)
      lines.push(`  ${binding.expression} → ${target(binding.to)} (confidence ${fixed(binding.confidence)})`);
  }
  if (roadmap.inputs.length > 0) {
    lines.push('', 'Inputs (flowVars):');
    for (const input of roadmap.inputs) {
      const value =
        input.example !== undefined
          ? ` = ${JSON.stringify(input.example)}`
          : input.required
            ? ' (required, no value given)'
            : ' (optional)';
      const used = input.usedBy.map(target).join(', ');
      lines.push(`  ${input.name}${value} → ${used}${input.description ? `: ${oneLine(input.description, 120)}` : ''}`);
    }
  }
  if (roadmap.confidence < LOW_CONFIDENCE && roadmap.actions.some((action) => action.candidates.length > 0)) {
    // Plans this unsure are often wrong: every action's candidates, with why, so the reader can choose.
    lines.push('', "Low confidence: choose among each action's candidates (edit the roadmap before scaffolding):");
    roadmap.actions.forEach((action, actionIndex) => {
      lines.push(
        `  ${actionIndex + 1}. "${oneLine(action.phrase, 80)}"${action.chosen === null ? ' (nothing taken)' : ''}`,
      );
      action.candidates.forEach((candidate, candidateIndex) => {
        const mark = candidateIndex === action.chosen ? '*' : '-';
        lines.push(
          `     ${mark} ${candidate.method.toUpperCase()} ${candidate.path} (${fixed(candidate.score)}) ${oneLine(candidate.summary, 60)}: ${oneLine(candidate.reasons.join('; '), 140)}`,
        );
      });
    });
  } else if (runnerUps > 0) {
    const alternatives = roadmap.actions.flatMap((action) => {
      const others = action.candidates.filter((_, index) => index !== action.chosen).slice(0, runnerUps);
      if (others.length === 0) return [];
      const listed = others
        .map((candidate) => `${candidate.method.toUpperCase()} ${candidate.path} (${fixed(candidate.score)})`)
        .join(', ');
      return [
        `  "${oneLine(action.phrase, 80)}": ${action.chosen === null ? 'nothing taken; best were ' : ''}${listed}`,
      ];
    });
    if (alternatives.length > 0) lines.push('', 'Runner-ups:', ...alternatives);
  }
  return lines.join('\n');
}
