import { askModelForChoices, planRoadmapBodySchema, renderRoadmap, type Roadmap } from '@svc/discovery';
import { z } from 'zod';
import { clientSampling } from './client-sampling.js';
import { guarded, type ToolContext } from './tool-context.js';
import { strictInput } from './strict-input.js';
import { okResult, toolOutput } from './tool-error.js';

const inputSchema = strictInput({
  requirement: planRoadmapBodySchema.shape.requirement,
  specId: planRoadmapBodySchema.shape.specId,
  assist: z
    .boolean()
    .optional()
    .describe(
      "With MCP sampling, your model picks among each action's ranked candidates; otherwise (default) the scores decide, deterministically.",
    ),
});

/** The roadmap's top fields; answers carry it whole (steps with reasons and scores, bindings, inputs, candidates). */
const outputSchema = toolOutput({
  requirement: z.string(),
  steps: z.array(z.looseObject({ name: z.string(), endpointId: z.string(), method: z.string(), path: z.string() })),
  bindings: z.array(z.unknown()),
  inputs: z.array(z.unknown()),
  confidence: z.number(),
}).loose();

export function registerPlanRoadmap(context: ToolContext): void {
  context.server.registerTool(
    'svc_plan_roadmap',
    {
      title: 'Plan a requirement against the API catalog',
      description:
        'Plan a plain-language requirement against the OpenAPI catalog; nothing is saved. The roadmap: steps in run order (endpoint, method, path, reason, score), ' +
        'bindings ({{ResponseBinding.<Step>.body.<path>}} feeding a later parameter or body field), inputs no step produces (quote values: named "Focus"), ' +
        'confidence, and runner-up candidates. Save it with svc_scaffold_flow (pass the roadmap JSON back, edited if a step is wrong). Empty catalog: CATALOG_EMPTY.',
      inputSchema,
      outputSchema,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    guarded(context, 'svc_plan_roadmap', async (args: z.infer<typeof inputSchema>) => {
      const request = { requirement: args.requirement, ...(args.specId !== undefined ? { specId: args.specId } : {}) };
      let roadmap: Roadmap = await context.api.planRoadmap(request);
      if (args.assist === true) {
        const ask = clientSampling(context);
        if (ask === undefined) {
          roadmap = {
            ...roadmap,
            notes: [...(roadmap.notes ?? []), 'this client does not offer MCP sampling; the scores decided'],
          };
        } else {
          const asked = await askModelForChoices(roadmap, ask);
          if (asked.choices !== undefined) {
            roadmap = await context.api.planRoadmap({
              ...request,
              choices: Object.fromEntries([...asked.choices].map(([action, id]) => [String(action), id])),
            });
          } else if (asked.note !== undefined) {
            roadmap = { ...roadmap, notes: [...(roadmap.notes ?? []), asked.note] };
          }
        }
      }
      const next =
        roadmap.steps.length > 0
          ? `\n\nTo save it as a flow, call svc_scaffold_flow with this roadmap (or edit it first: drop or replace a step, fix a binding):\n${JSON.stringify(roadmap)}`
          : '\n\nNothing to scaffold: rephrase with the words the API uses (svc_list_endpoints shows them), or import the API that does this.';
      return okResult({ ...roadmap }, renderRoadmap(roadmap) + next);
    }),
  );
}
