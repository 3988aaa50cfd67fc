import { describeRunNeeds, roadmapSchema, scaffoldFlowBodySchema, type Roadmap, type RunNeeds } from '@svc/discovery';
import { SvcError, type StoredFlow } from '@svc/engine';
import { z } from 'zod';
import { roadmapOutputSchema } from './plan-roadmap.js';
import { guarded, type ToolContext } from './tool-context.js';
import { okResult, toolErrorSchema } from './tool-error.js';

const body = scaffoldFlowBodySchema.shape;

const inputSchema = z.object({
  roadmap: roadmapSchema.optional().describe('A roadmap from svc_plan_roadmap, as answered or edited. Give this or requirement'),
  requirement: body.requirement,
  name: body.name,
});

const nodeSchema = z.object({ id: z.string(), name: z.string().describe('The node name, as the roadmap step'), method: z.string(), path: z.string() });
const envSchema = z.object({
  name: z.string().describe('Read in the flow as {{env.<name>}}'),
  required: z.boolean().describe('False when the flow has a default for it (the spec server for baseUrl)'),
  default: z.unknown().optional(),
  usedBy: z.array(z.string()).describe('Where it is read, e.g. "CreatePlaylist header Authorization"'),
});
const inputViewSchema = z.object({
  name: z.string().describe('Read in the flow as {{flowVars.<name>}}'),
  type: z.string(),
  required: z.boolean().describe('True when a run without it is refused (no default)'),
  default: z.unknown().optional(),
  description: z.string().optional(),
});

const outputSchema = z.object({
  flowId: z.string().optional(),
  name: z.string().optional(),
  version: z.number().optional(),
  nodes: z.array(nodeSchema).optional().describe('In run order, wired out → next'),
  env: z.array(envSchema).optional().describe("What svc_run_flow's env should carry"),
  inputs: z.array(inputViewSchema).optional(),
  run: z
    .object({
      tool: z.literal('svc_run_flow'),
      arguments: z.object({ flowId: z.string(), env: z.record(z.string(), z.unknown()), inputs: z.record(z.string(), z.unknown()).optional() }),
    })
    .optional()
    .describe('A call that runs the flow once the placeholders in env are replaced'),
  roadmap: roadmapOutputSchema.optional().describe('The roadmap the flow was built from'),
  error: toolErrorSchema.optional(),
});

export function registerScaffoldFlow(context: ToolContext): void {
  context.server.registerTool(
    'svc_scaffold_flow',
    {
      title: 'Scaffold a flow from a roadmap',
      description:
        'Turn a roadmap from svc_plan_roadmap (or a requirement, planned first; give exactly one) into a saved flow: one endpoint node per step, named as the step, ' +
        'wired in run order, laid out in one canvas frame titled with the requirement. Bindings become {{ResponseBinding.<Step>.body.<path>}} templates in URLs, ' +
        'queries, headers and bodies; inputs become flowVars (with the requirement\'s values as defaults); each node asserts the spec\'s success status. ' +
        'Answers the flow id, its node names, and how to run it with svc_run_flow: the env values it reads (baseUrl, defaulting to the spec\'s server, and ' +
        'credentials named after the spec\'s security schemes, e.g. oauth20Token or apiKey). A step naming an endpoint the catalog lacks answers ENDPOINT_NOT_FOUND ' +
        'with its path; a roadmap whose parts do not fit together answers INVALID_ROADMAP with every problem.',
      inputSchema,
      outputSchema,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    },
    guarded(context, 'svc_scaffold_flow', async (args: z.infer<typeof inputSchema>) => {
      if ((args.roadmap === undefined) === (args.requirement === undefined)) {
        throw new SvcError('VALIDATION_ERROR', 'give exactly one of roadmap (from svc_plan_roadmap) and requirement', { status: 400 });
      }
      const { flow, roadmap } = await context.api.scaffoldFlow({
        ...(args.roadmap !== undefined ? { roadmap: args.roadmap } : {}),
        ...(args.requirement !== undefined ? { requirement: args.requirement } : {}),
        ...(args.name !== undefined ? { name: args.name } : {}),
      });
      const needs = describeRunNeeds(flow);
      const nodes = nodeViews(flow, roadmap);
      const runEnv = Object.fromEntries(needs.env.map((variable) => [variable.name, variable.default ?? `<${variable.name}>`]));
      // Required inputs with no default must be given for a run to start.
      const missing = needs.inputs.filter((input) => input.required && input.default === undefined);
      const runInputs = Object.fromEntries(missing.map((input) => [input.name, `<${input.name}>`]));
      const run = {
        tool: 'svc_run_flow' as const,
        arguments: { flowId: flow.id, env: runEnv, ...(missing.length > 0 ? { inputs: runInputs } : {}) },
      };
      return okResult(
        { flowId: flow.id, name: flow.name, version: flow.version, nodes, env: needs.env, inputs: needs.inputs, run, roadmap },
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
    return { id: node.id, name: node.name, method: step?.method ?? String(config.method ?? 'GET'), path: step?.path ?? '' };
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
      const fill = input.default !== undefined ? `= ${JSON.stringify(input.default)}` : input.required ? '(required, no value)' : '(optional)';
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
