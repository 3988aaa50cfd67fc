import { flowDocumentSchema, SvcError, type FlowDocumentInput } from '@svc/engine';
import { z } from 'zod';
import { renderFlow } from '../render/render-flow.js';
import { flowOutputViewSchema, toStoredFlowView } from './flow-views.js';
import { MAX_FLOW_CHARS, MAX_FLOW_CONNECTIONS, MAX_FLOW_NODES } from './limits.js';
import { nodeInputSchema } from './node-schemas.js';
import { strictInput } from './strict-input.js';
import { guarded, type ToolContext } from './tool-context.js';
import { okResult, toolOutput } from './tool-error.js';

const NODE_EXAMPLE =
  '{"id":"n2","name":"CreateOrder","type":"endpoint","config":{"method":"POST","url":"{{env.baseUrl}}/orders",' +
  '"body":{"customerId":"{{CreateCustomer.response.body.id}}"},"assertions":[{"target":"statusCode","operator":"==","value":201}]}}';

const connectionSchema = strictInput({
  id: z.string().min(1).max(128),
  source: z.string().min(1).describe('Node id'),
  sourceHandle: z
    .string()
    .min(1)
    .optional()
    .describe('Default out; error on endpoint; case-0… / default on switch; L / D on for and repeat'),
  target: z.string().min(1).describe('Node id'),
  targetHandle: z.string().optional(),
  label: z.string().optional(),
});

function inputSchemaFor(context: ToolContext) {
  return strictInput({
    name: flowDocumentSchema.shape.name,
    description: z.string().optional(),
    folderId: z.string().nullable().optional(),
    nodes: z.array(nodeInputSchema(context.nodeTypes)).min(1).max(MAX_FLOW_NODES),
    connections: z.array(connectionSchema).max(MAX_FLOW_CONNECTIONS),
    variables: z.record(z.string(), z.unknown()).optional().describe('Defaults of {{flowVars.<name>}}'),
    inputs: flowDocumentSchema.shape.inputs
      .optional()
      .describe('Parameters a run or parent flow gives, e.g. {"customerId":{"type":"string","required":true}}'),
    outputs: z
      .record(z.string(), z.string())
      .optional()
      .describe('Exposed to a parent flow, e.g. {"orderId":"{{ResponseBinding.CreateOrder.body.id}}"}'),
    flowData: z
      .object({
        canvasGroups: z.array(z.record(z.string(), z.unknown())).optional(),
        annotations: z.array(z.record(z.string(), z.unknown())).optional(),
      })
      .optional()
      .describe(
        'Canvas frames and notes: {"canvasGroups":[{"id":"g1","title":"Checkout","color":"Purple","bounds":{"x":0,"y":0,"width":600,"height":300},"nodeIds":["n1"]}],' +
          '"annotations":[{"id":"a1","text":"…","position":{"x":0,"y":320}}]}; colors Purple, Blue, Emerald, Amber, Rose, Slate',
      ),
    allowDuplicateName: z.boolean().optional().describe('Save even if another flow of the folder has the name'),
  });
}

export function registerCreateFlow(context: ToolContext): void {
  const inputSchema = inputSchemaFor(context);
  context.server.registerTool(
    'svc_create_flow',
    {
      title: 'Create a flow',
      description:
        'Create and save a flow: nodes joined by connections into a DAG; unwired nodes start at once. ' +
        'Strings may hold {{…}} templates: {{CreateOrder.response.body.id}}, {{CreateOrder.statusCode}}, {{ResponseBinding.CreateOrder.body.id}}, {{env.baseUrl}}, {{flowVars.x}}; ' +
        'a node reads only nodes wired before it. Endpoint URLs are absolute or start with a template ({{env.baseUrl}}/orders). ' +
        'An endpoint without a statusCode assertion fails on 4xx/5xx. Nothing is saved unless all validates: VALIDATION_ERROR lists every problem with its path. ' +
        'A name its folder has already is FLOW_NAME_TAKEN. Node types, handles and config examples: resource svc://reference/node-types. ' +
        `Example node: ${NODE_EXAMPLE}`,
      inputSchema,
      outputSchema: toolOutput({ flow: flowOutputViewSchema }),
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    },
    guarded(context, 'svc_create_flow', async (args: z.infer<typeof inputSchema>) => {
      const { allowDuplicateName, ...document } = args;
      const size = JSON.stringify(document).length;
      if (size > MAX_FLOW_CHARS) {
        throw new SvcError(
          'PAYLOAD_TOO_LARGE',
          `the flow is ${size} characters of JSON; a flow may hold at most ${MAX_FLOW_CHARS}. Keep large data out of node configs.`,
        );
      }
      const saved = await context.api.createFlow(
        document as FlowDocumentInput,
        allowDuplicateName ? { allowDuplicateName: true } : {},
      );
      const flow = toStoredFlowView(saved);
      return okResult({ flow }, `Created flow ${flow.id} (version ${flow.version}).\n${renderFlow(flow)}`);
    }),
  );
}
