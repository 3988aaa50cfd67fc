import { annotationSchema, canvasGroupSchema, connectionSchema, flowDocumentSchema, flowNodeSchema, SvcError } from '@svc/engine';
import { z } from 'zod';
import { renderFlow } from '../render/render-flow.js';
import { storedFlowSchema, toStoredFlowView } from './flow-views.js';
import { MAX_FLOW_CHARS, MAX_FLOW_CONNECTIONS, MAX_FLOW_NODES } from './limits.js';
import { describeNodeTypes, nodeTypeNames } from './node-types.js';
import { guarded, type ToolContext } from './tool-context.js';
import { okResult, toolErrorSchema } from './tool-error.js';

const EXPRESSIONS =
  'Expressions: any string in a config may hold {{…}} templates that read earlier steps and variables: ' +
  '{{CreateOrder.response.body.id}} (a field of an upstream node\'s response body), {{CreateOrder.statusCode}}, ' +
  "{{ResponseBinding.CreateOrder.body.id}}, {{ResponseBinding.CreateOrder.headers['location']}}, {{flowVars.region}}, {{env.baseUrl}}. " +
  'A node may only read nodes upstream of it (wired before it). A string that is exactly one {{…}} keeps the value\'s type.';

const NODE_EXAMPLE =
  '{"id":"n2","name":"CreateOrder","type":"endpoint","position":{"x":250,"y":0},' +
  '"config":{"method":"POST","url":"{{env.baseUrl}}/orders","body":{"customerId":"{{CreateCustomer.response.body.id}}"},' +
  '"assertions":[{"target":"statusCode","operator":"==","value":201}]}}';

function inputSchemaFor(typeNames: string) {
  const node = flowNodeSchema
    .extend({
      id: flowNodeSchema.shape.id.describe('Stable id, unique in the flow; wires refer to it, e.g. "n1".'),
      name: flowNodeSchema.shape.name.describe(
        'Unique name that expressions use: letters, digits and _, starting with a letter or _, e.g. "CreateOrder".',
      ),
      type: flowNodeSchema.shape.type.describe(`Node type, one of: ${typeNames}.`),
      position: flowNodeSchema.shape.position.describe('Canvas position in pixels, e.g. {"x":250,"y":0}; lay nodes out left to right.'),
      config: flowNodeSchema.shape.config.describe('Step parameters of the node type (see the tool description); strings may hold {{…}} expressions.'),
      description: flowNodeSchema.shape.description.describe('What the step is for.'),
    })
    .describe(`A step of the flow, e.g. ${NODE_EXAMPLE}`);

  const connection = connectionSchema
    .extend({
      id: connectionSchema.shape.id.describe('Stable id, unique in the flow, e.g. "w1".'),
      source: connectionSchema.shape.source.describe('Id of the node the wire leaves.'),
      sourceHandle: connectionSchema.shape.sourceHandle.describe(
        'Output handle of the source: "out" (default), "error" on an endpoint (taken when it fails), "case-0"… or "default" on a switch.',
      ),
      target: connectionSchema.shape.target.describe('Id of the node the wire enters.'),
      targetHandle: connectionSchema.shape.targetHandle.describe('Omit, or "in".'),
      label: connectionSchema.shape.label.describe('Text shown on the wire, e.g. a switch branch label.'),
    })
    .describe('A wire, e.g. {"id":"w1","source":"n1","target":"n2"}');

  return z.object({
    name: flowDocumentSchema.shape.name.describe('Logical name of the flow, e.g. "order-lifecycle".'),
    description: flowDocumentSchema.shape.description.describe('What the flow checks or does.'),
    folderId: flowDocumentSchema.shape.folderId.describe('Folder to file the flow in; null or omitted for none.'),
    nodes: z
      .array(node)
      .min(1)
      .max(MAX_FLOW_NODES)
      .describe('The steps. Steps run when the steps wired into them are done; unwired steps start at once, in parallel.'),
    connections: z
      .array(connection)
      .max(MAX_FLOW_CONNECTIONS)
      .describe('The wires joining the steps, forming a DAG (no cycles); [] for a flow of one step.'),
    variables: flowDocumentSchema.shape.variables.describe('Default flow variables, read as {{flowVars.<name>}}, e.g. {"region":"eu"}.'),
    inputs: flowDocumentSchema.shape.inputs.describe(
      'Parameters the flow takes when another flow runs it, e.g. {"customerId":{"type":"string","required":true}}.',
    ),
    outputs: flowDocumentSchema.shape.outputs.describe(
      'What the flow exposes to a parent flow, e.g. {"orderId":"{{ResponseBinding.CreateOrder.body.id}}"}.',
    ),
    flowData: z
      .object({
        canvasGroups: z
          .array(canvasGroupSchema)
          .default([])
          .describe('Frames around groups of nodes: {"id":"g1","title":"Checkout","color":"Purple","bounds":{"x":0,"y":0,"width":600,"height":300},"nodeIds":["n1","n2"]}. Colors: Purple, Blue, Emerald, Amber, Rose, Slate.'),
        annotations: z.array(annotationSchema).default([]).describe('Free text notes on the canvas: {"id":"a1","text":"…","position":{"x":0,"y":320}}.'),
      })
      .optional()
      .describe('Canvas frames and annotations.'),
  });
}

const outputSchema = z.object({
  flow: storedFlowSchema.optional().describe('The saved flow with its id and version'),
  error: toolErrorSchema.optional(),
});

export function registerCreateFlow(context: ToolContext): void {
  const inputSchema = inputSchemaFor(nodeTypeNames(context.nodeTypes));
  context.server.registerTool(
    'svc_create_flow',
    {
      title: 'Create a flow',
      description:
        'Create and save a complete flow: steps (nodes) joined by wires (connections) into a DAG. The whole flow is validated first; ' +
        'when it does not validate nothing is saved and the answer is VALIDATION_ERROR with every problem and its path ' +
        '(e.g. nodes[1].config.url), so all of them can be fixed in one go. On success it answers the saved flow with its id; run it with svc_run_flow.\n\n' +
        `Node types:\n${describeNodeTypes(context.nodeTypes)}\n\n` +
        `${EXPRESSIONS}\n\n` +
        'Assertion operators: == != > < >= <= contains not_contains starts_with ends_with is_empty is_not_empty; targets: statusCode, latencyMs, body.<path>, headers.<name>. ' +
        'An endpoint without a statusCode assertion fails on a 4xx/5xx answer. Durations: milliseconds or "500ms", "2s", "5m", "1h".\n\n' +
        `Example node: ${NODE_EXAMPLE}`,
      inputSchema,
      outputSchema,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    },
    guarded(context, 'svc_create_flow', async (args: z.infer<typeof inputSchema>) => {
      const size = JSON.stringify(args).length;
      if (size > MAX_FLOW_CHARS) {
        throw new SvcError(
          'PAYLOAD_TOO_LARGE',
          `the flow is ${size} characters of JSON; a flow may hold at most ${MAX_FLOW_CHARS}. Keep large data out of node configs.`,
          { status: 413 },
        );
      }
      const flow = toStoredFlowView(await context.api.createFlow(args));
      return okResult({ flow }, `Created flow ${flow.id}.\n${renderFlow(flow)}`);
    }),
  );
}
