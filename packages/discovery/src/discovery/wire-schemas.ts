import { z } from 'zod';
import type { Roadmap } from '../planner/roadmap.js';

/**
 * Wire schemas of the discovery doors (REST bodies, MCP tool inputs): planning a requirement into
 * a roadmap, and scaffolding a roadmap into a saved flow. A roadmap sent back by a client is
 * checked here for its shape only; whether its steps, bindings and inputs fit together is the
 * scaffolder's check (`INVALID_ROADMAP` with every problem and its path).
 */

export const MAX_REQUIREMENT_CHARS = 2000;
/** Well above what the planner proposes (25 steps), so an edited plan has room. */
export const MAX_ROADMAP_STEPS = 100;

/** Spec summaries and descriptions are copied into roadmaps, and some specs write long ones. */
const text = z.string().max(20_000);
const name = z.string().min(1).max(200);
const score = z.number().min(0).max(1);

export const requirementSchema = z
  .string()
  .trim()
  .min(1)
  .max(MAX_REQUIREMENT_CHARS)
  .describe(
    'What the flow should do, in plain language, e.g. \'create a playlist for me named "Focus"\'. Quote values to pass them as they are',
  );

const specIdSchema = z.string().min(1).max(128);

const targetSchema = z.object({
  step: name.describe('The step name that receives the value'),
  in: z.enum(['path', 'query', 'header', 'body']),
  name: z.string().min(1).max(500).describe('Parameter name, or the body field as a dotted path'),
});

const stepSchema = z.object({
  name: name.describe('The node name in the scaffolded flow, unique in the roadmap, e.g. GetCurrentUsersProfile'),
  endpointId: z.string().min(1).max(300),
  specId: specIdSchema,
  method: z.string().min(1).max(20),
  path: z.string().min(1).max(2000).describe('As the spec writes it, e.g. /users/{user_id}/playlists'),
  summary: text,
  reason: text,
  score,
  role: z.enum(['requested', 'producer']),
  action: z.number().int().min(0).optional(),
});

const bindingSchema = z.object({
  expression: z.string().max(2000).describe('e.g. {{ResponseBinding.GetCurrentUsersProfile.body.id}}'),
  from: z.object({ step: name, source: z.enum(['body', 'headers']), path: z.string().max(2000) }),
  to: targetSchema,
  confidence: score,
  reason: text,
});

const inputSchema = z.object({
  name: name.describe('The flowVars name'),
  description: text,
  required: z.boolean(),
  schema: z.unknown().optional(),
  example: z.unknown().optional(),
  usedBy: z.array(targetSchema).max(200),
});

const candidateSchema = z.object({
  endpointId: z.string().min(1).max(300),
  method: z.string().min(1).max(20),
  path: z.string().min(1).max(2000),
  summary: text,
  score,
  reasons: z.array(text).max(50),
});

const actionSchema = z.object({
  phrase: text,
  candidates: z.array(candidateSchema).max(50),
  chosen: z.number().int().min(0).nullable(),
  feeds: targetSchema.optional(),
});

/** A roadmap as `svc_plan_roadmap` and `POST /api/gateway/discovery/roadmaps` answer it. */
export const roadmapSchema = z
  .object({
    requirement: z.string().trim().min(1).max(MAX_REQUIREMENT_CHARS),
    steps: z.array(stepSchema).min(1).max(MAX_ROADMAP_STEPS),
    bindings: z.array(bindingSchema).max(1000),
    inputs: z.array(inputSchema).max(500),
    confidence: score,
    actions: z.array(actionSchema).max(MAX_ROADMAP_STEPS),
    decidedBy: z.enum(['scores', 'sampling']),
    notes: z.array(z.string()).optional(),
  })
  .describe('A roadmap as svc_plan_roadmap answers it (steps, bindings, inputs, confidence, actions), possibly edited');

// The schema and the planner's type stay one shape: a roadmap the planner answers is accepted back.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const roadmapShapeMatches: Same<z.infer<typeof roadmapSchema>, Roadmap> = true;
void roadmapShapeMatches;

export const planRoadmapBodySchema = z
  .object({
    requirement: requirementSchema,
    specId: specIdSchema.optional().describe('Plan with the endpoints of this spec only (default: the whole catalog)'),
    choices: z
      .record(z.string().regex(/^\d{1,3}$/), z.string().min(1).max(300))
      .optional()
      .describe(
        'A model\'s choice among the ranked candidates: endpoint id by action index, e.g. {"0":"create-playlist"}; the roadmap then says decidedBy "sampling"',
      ),
  })
  .strict();

export const scaffoldFlowBodySchema = z
  .object({
    roadmap: roadmapSchema.optional(),
    requirement: requirementSchema
      .optional()
      .describe('Plan this requirement first, then scaffold its roadmap (give this or roadmap)'),
    specId: specIdSchema.optional().describe('With requirement: plan with the endpoints of this spec only'),
    name: z
      .string()
      .trim()
      .min(1)
      .max(200)
      .optional()
      .describe('The flow name (default: read from the requirement, e.g. create-playlist-me-named-focus)'),
    folderId: z.string().min(1).max(128).nullable().optional().describe('The folder to save the flow in'),
  })
  .strict()
  .superRefine((body, context) => {
    if ((body.roadmap === undefined) === (body.requirement === undefined)) {
      context.addIssue({
        code: 'custom',
        message: 'give exactly one of roadmap and requirement',
        path: [body.roadmap === undefined ? 'requirement' : 'roadmap'],
      });
    }
    if (body.specId !== undefined && body.roadmap !== undefined) {
      context.addIssue({
        code: 'custom',
        message: 'specId goes with requirement; a roadmap names the spec of each step',
        path: ['specId'],
      });
    }
  });

export type PlanRoadmapBody = z.infer<typeof planRoadmapBodySchema>;
export type ScaffoldFlowBody = z.infer<typeof scaffoldFlowBodySchema>;
