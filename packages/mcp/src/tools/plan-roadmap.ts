import { askModelForChoices, planRoadmapBodySchema, renderRoadmap, roadmapSchema, type Roadmap } from '@svc/discovery';
import { z } from 'zod';
import { clientSampling } from './client-sampling.js';
import { guarded, type ToolContext } from './tool-context.js';
import { okResult, toolErrorSchema } from './tool-error.js';

const inputSchema = z.object({
  requirement: planRoadmapBodySchema.shape.requirement,
  specId: planRoadmapBodySchema.shape.specId,
  assist: z
    .boolean()
    .optional()
    .describe(
      'When true and this client offers MCP sampling, your model chooses among each action\'s ranked candidates and the plan is made again with its choices ' +
        '(decidedBy "sampling"). Without sampling, or with an unusable answer, the scores decide and notes say why. Default false: fully deterministic.',
    ),
});

/** A roadmap as answered: a plan may have no step (nothing matched), which an edited roadmap sent back may not. */
export const roadmapOutputSchema = roadmapSchema.extend({ steps: z.array(roadmapSchema.shape.steps.element) });

const outputSchema = roadmapOutputSchema.partial().extend({ error: toolErrorSchema.optional() });

export function registerPlanRoadmap(context: ToolContext): void {
  context.server.registerTool(
    'svc_plan_roadmap',
    {
      title: 'Plan a requirement against the API catalog',
      description:
        "Read a plain-language business requirement against the workspace's OpenAPI catalog (imported with svc_import_openapi) and propose a roadmap; nothing is saved. " +
        'The roadmap holds: steps in run order, each with method and path as the spec writes them (e.g. POST /users/{user_id}/playlists), the endpoint and spec ids, ' +
        'why it was chosen and a 0-1 score, and whether the requirement asked for it (requested) or it was added to produce a value a later step needs (producer); ' +
        'bindings, each an expression such as {{ResponseBinding.GetCurrentUsersProfile.body.id}} feeding a path, query or header parameter or body field of a later step, with a confidence; ' +
        'inputs no step produces, which become flowVars of a scaffolded flow (with the value the requirement gives, when it gives one: quote values, e.g. named "Focus"); ' +
        'an overall confidence; and per action of the requirement its ranked runner-up candidates. ' +
        'Planning is deterministic by default (no model): the same catalog and requirement give the same roadmap; with assist, your model (MCP sampling) chooses among the candidates. An empty catalog answers CATALOG_EMPTY. ' +
        'Turn the roadmap into a saved, runnable flow with svc_scaffold_flow (pass it back as roadmap, edited if a step is wrong).',
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
          roadmap = { ...roadmap, notes: [...(roadmap.notes ?? []), 'this client does not offer MCP sampling; the scores decided'] };
        } else {
          const asked = await askModelForChoices(roadmap, ask);
          if (asked.choices !== undefined) {
            roadmap = await context.api.planRoadmap({ ...request, choices: Object.fromEntries([...asked.choices].map(([action, id]) => [String(action), id])) });
          } else if (asked.note !== undefined) {
            roadmap = { ...roadmap, notes: [...(roadmap.notes ?? []), asked.note] };
          }
        }
      }
      const next =
        roadmap.steps.length > 0
          ? '\n\nTo save it as a flow, call svc_scaffold_flow with this roadmap (or edit it first: drop or replace a step, fix a binding).'
          : '\n\nNothing to scaffold: rephrase with the words the API uses (svc_list_endpoints shows them), or import the API that does this.';
      return okResult({ ...roadmap }, renderRoadmap(roadmap) + next);
    }),
  );
}
