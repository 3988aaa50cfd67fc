import { describeRunNeeds, roadmapSchema, scaffoldFlowBodySchema, type Roadmap, type RunNeeds } from '@svc/discovery';
import { SvcError, type StoredFlow } from '@svc/engine';
import { z } from 'zod';
import { guarded, type ToolContext } from './tool-context.js';
import { strictInput } from './strict-input.js';
import { okResult, toolOutput } from './tool-error.js';

const body = scaffoldFlowBodySchema.shape;

const EXACTLY_ONE = 'give exactly one of roadmap (from svc_plan_roadmap) and requirement';

// Exactly one of roadmap and requirement: checked here rather than as a top-level oneOf, which
// some assistants' tool-schema dialects refuse.
const inputSchema = strictInput({
  roadmap: z
    .record(z.string(), z.unknown())
    .optional()
    .describe('The roadmap svc_plan_roadmap answered (its JSON), as is or edited. Give this or requirement'),
  requirement: body.requirement
    .unwrap()
    .optional()
    .describe('Plan this requirement first, then scaffold it. Give this or roadmap'),
  specId: body.specId,
  name: body.name,
}).superRefine((args, ctx) => {
  if ((args.roadmap === undefined) === (args.requirement === undefined))
    ctx.addIssue({ code: 'custom', message: EXACTLY_ONE, path: ['roadmap'] });
  if (args.specId !== undefined && args.requirement === undefined)
    ctx.addIssue({ code: 'custom', message: 'specId goes with requirement', path: ['specId'] });
});

/** The roadmap as the planner's own schema reads it, or VALIDATION_ERROR with every problem under `roadmap`. */
function parseRoadmap(value: unknown): Roadmap {
  const parsed = roadmapSchema.safeParse(value);
  if (parsed.success) return parsed.data as Roadmap;
  const problems = parsed.error.issues.map((issue) => ({
    code: 'INVALID_ROADMAP',
    message: issue.message,
    path: ['roadmap', ...issue.path].join('.'),
  }));
  throw new SvcError(
    'VALIDATION_ERROR',
    `the roadmap does not fit svc_plan_roadmap's shape: ${problems[0]?.path}: ${problems[0]?.message}`,
    { details: { problems } },
  );
}

const outputSchema = toolOutput({
  flowId: z.string(),
  name: z.string(),
  version: z.number(),
  nodes: z.array(z.looseObject({ id: z.string(), name: z.string(), method: z.string(), path: z.string() })),
  env: z
    .array(z.looseObject({ name: z.string(), required: z.boolean() }))
    .describe("What svc_run_flow's env should carry"),
  inputs: z.array(z.looseObject({ name: z.string(), required: z.boolean() })),
  run: z
    .looseObject({ tool: z.string(), arguments: z.record(z.string(), z.unknown()) })
    .describe('A call that runs the flow once its <placeholders> are replaced'),
  roadmap: z.record(z.string(), z.unknown()),
});

export function registerScaffoldFlow(context: ToolContext): void {
  context.server.registerTool(
    'svc_scaffold_flow',
    {
      title: 'Scaffold a flow from a roadmap',
      description:
        'Save a roadmap from svc_plan_roadmap (or a requirement, planned first; exactly one) as a runnable flow: one endpoint node per step, wired in order, ' +
        'bindings as {{ResponseBinding.<Step>.body.<path>}} templates, each asserting the success status. Answers the flow id and a ready svc_run_flow call ' +
        'with the env keys it reads (baseUrl, credentials). Unknown endpoints: ENDPOINT_NOT_FOUND; parts that do not fit: INVALID_ROADMAP with every problem.',
      inputSchema,
      outputSchema,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    },
    guarded(context, 'svc_scaffold_flow', async (args: z.infer<typeof inputSchema>) => {
      const { flow, roadmap } = await context.api.scaffoldFlow({
        ...(args.roadmap !== undefined ? { roadmap: parseRoadmap(args.roadmap) } : {}),
        ...(args.requirement !== undefined ? { requirement: args.requirement } : {}),
        ...(args.specId !== undefined ? { specId: args.specId } : {}),
        ...(args.name !== undefined ? { name: args.name } : {}),
      });
      const needs = describeRunNeeds(flow);
      const nodes = nodeViews(flow, roadmap);
      const runEnv = Object.fromEntries(
        needs.env.map((variable) => [variable.name, variable.default ?? `<${variable.name}>`]),
      );
      // Required inputs with no default must be given for a run to start.
      const missing = needs.inputs.filter((input) => input.required && input.default === undefined);
      const runInputs = Object.fromEntries(missing.map((input) => [input.name, `<${input.name}>`]));
      const run = {
        tool: 'svc_run_flow' as const,
        arguments: { flowId: flow.id, env: runEnv, ...(missing.length > 0 ? { inputs: runInputs } : {}) },
      };
      return okResult(
        {
          flowId: flow.id,
          name: flow.name,
          version: flow.version,
          nodes,
          env: needs.env,
          inputs: needs.inputs,
          run,
          roadmap,
        },
        renderScaffold(flow, nodes, needs, run),
      );
    }),
  );
}

function nodeViews(flow: StoredFlow, roadmap: Roadmap) {
  const steps = new Map(roadmap.steps.map((step) => [step.name, step]));
  return flow.nodes.map((node) => {
    const step = steps.get(node.name);
    const config = node.config as { method?: unknown };
    return {
      id: node.id,
      name: node.name,
      method: step?.method ?? String(config.method ?? 'GET'),
      path: step?.path ?? '',
    };
  });
}

function renderScaffold(
  flow: StoredFlow,
  nodes: ReturnType<typeof nodeViews>,
  needs: RunNeeds,
  run: { arguments: { flowId: string; env: Record<string, unknown>; inputs?: Record<string, unknown> } },
): string {
  const lines = [`Saved flow "${flow.name}" (id ${flow.id}, version ${flow.version}) with ${nodes.length} node(s):`];
  nodes.forEach((node, index) => lines.push(`  ${index + 1}. ${node.name}: ${node.method.toUpperCase()} ${node.path}`));
  lines.push('', `Run it with svc_run_flow ${JSON.stringify(run.arguments)}, replacing the <…> placeholders.`);
  if (needs.env.length > 0) {
    lines.push('Env it reads:');
    for (const variable of needs.env) {
      const fill = variable.required ? 'required' : `optional, default ${JSON.stringify(variable.default)}`;
      lines.push(`  - ${variable.name} (${fill}): ${variable.usedBy.join(', ')}`);
    }
  }
  if (needs.inputs.length > 0) {
    lines.push('Inputs (flowVars):');
    for (const input of needs.inputs) {
      const fill =
        input.default !== undefined
          ? `= ${JSON.stringify(input.default)}`
          : input.required
            ? '(required, no value)'
            : '(optional)';
      lines.push(`  - ${input.name} ${fill}`);
    }
  }
  const missing = needs.inputs.filter((input) => input.required);
  if (missing.length > 0) {
    lines.push(
      '',
      `A run is refused until ${missing.map((input) => input.name).join(', ')} ${missing.length === 1 ? 'has' : 'have'} a value: give the value in the requirement ` +
        '(quoted, e.g. named "Focus") and scaffold again, or set it as a default of the flow\'s inputs.',
    );
  }
  return lines.join('\n');
}
