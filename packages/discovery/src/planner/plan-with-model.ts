import { z } from 'zod';
import type { ModelPrompt } from '../testgen/model-prompt.js';
import { jsonCandidates } from '../testgen/parse-model-output.js';
import { planRoadmap, type PlanOptions } from './plan-roadmap.js';
import type { PlannerIndex } from './planner-index.js';
import type { Roadmap } from './roadmap.js';

/** Asks a model (the MCP client's, through sampling) and answers its text. */
export type AskModel = (prompt: ModelPrompt) => Promise<string>;

const choicesSchema = z.object({
  choices: z.array(z.object({ action: z.number().int().min(0), candidate: z.number().int().min(0).nullable() })),
});

/**
 * The deterministic plan, then the model's choice among each action's candidates, then the plan
 * again with those choices. The model only chooses among endpoints the planner already ranked;
 * when it cannot be asked, or answers something unusable, the scores decide and `notes` says why.
 *
 * @example
 * const roadmap = await planRoadmapWithModel('make a menu of my top recipes', index, (prompt) => sample(prompt));
 * roadmap.decidedBy; // 'sampling' when the model's choices were used
 */
export async function planRoadmapWithModel(
  requirement: string,
  index: PlannerIndex,
  ask: AskModel,
  options: PlanOptions = {},
): Promise<Roadmap> {
  const base = planRoadmap(requirement, index, options);
  const asked = await askModelForChoices(base, ask);
  if (asked.choices === undefined)
    return asked.note === undefined ? base : { ...base, notes: [...(base.notes ?? []), asked.note] };
  return planRoadmap(requirement, index, { ...options, choices: asked.choices, decidedBy: 'sampling' });
}

/**
 * Asks the model to choose among a roadmap's candidates. Answers the choices (endpoint id by
 * action index), or a note saying why there are none; nothing to choose from is neither.
 */
export async function askModelForChoices(
  roadmap: Roadmap,
  ask: AskModel,
): Promise<{ choices?: Map<number, string>; note?: string }> {
  if (!roadmap.actions.some((action) => action.candidates.length > 1)) return {};
  let answer: string;
  try {
    answer = await ask(choicePrompt(roadmap));
  } catch (error) {
    return { note: `the model could not be asked (${(error as Error).message}); the scores decided` };
  }
  const choices = parseChoices(answer, roadmap);
  return choices === undefined ? { note: 'the model answered no usable choices; the scores decided' } : { choices };
}

function choicePrompt(roadmap: Roadmap): ModelPrompt {
  const lines = roadmap.actions.map((action, actionIndex) => {
    const candidates = action.candidates
      .map(
        (candidate, candidateIndex) =>
          `    ${candidateIndex}. ${candidate.method} ${candidate.path} — ${candidate.summary}`,
      )
      .join('\n');
    return `Action ${actionIndex}: "${action.phrase}"\n${candidates}`;
  });
  return {
    systemPrompt:
      'You choose API endpoints for the steps of a workflow. For each action, pick the candidate that does what the action asks, ' +
      'or null when none does. Answer only JSON: {"choices":[{"action":0,"candidate":1}]}.',
    messages: [{ role: 'user', content: `Requirement: ${roadmap.requirement}\n\n${lines.join('\n\n')}` }],
    maxTokens: 1_024,
  };
}

/** The model's choices as endpoint ids by action, or undefined when the answer holds none that fit. */
function parseChoices(answer: string, roadmap: Roadmap): Map<number, string> | undefined {
  for (const candidate of jsonCandidates(answer)) {
    let value: unknown;
    try {
      value = JSON.parse(candidate);
    } catch {
      continue;
    }
    const parsed = choicesSchema.safeParse(value);
    if (!parsed.success) continue;
    const choices = new Map<number, string>();
    for (const choice of parsed.data.choices) {
      const endpoint =
        choice.candidate === null ? undefined : roadmap.actions[choice.action]?.candidates[choice.candidate];
      if (endpoint !== undefined) choices.set(choice.action, endpoint.endpointId);
    }
    return choices.size > 0 ? choices : undefined;
  }
  return undefined;
}
