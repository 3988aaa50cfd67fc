import { ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import { toExecutionResult } from '../tools/execution-views.js';
import { toStoredFlowView } from '../tools/flow-views.js';
import { nodeTypesReference } from '../tools/node-types.js';
import type { ToolContext } from '../tools/tool-context.js';

export const NODE_TYPES_URI = 'svc://reference/node-types';

const json = (uri: string, value: unknown) => ({
  contents: [{ uri, mimeType: 'application/json', text: JSON.stringify(value, null, 2) }],
});

/** The first value of a URI template variable (the SDK gives a list for repeated ones). */
const one = (value: string | string[] | undefined): string =>
  decodeURIComponent(Array.isArray(value) ? (value[0] ?? '') : (value ?? ''));

/**
 * Flows and executions as MCP resources (`svc://flows/{flowId}`, `svc://executions/{executionId}`),
 * and the node-type reference the flow tools point to instead of carrying it in every description.
 */
export function registerResources(context: ToolContext): void {
  const { server, api } = context;

  server.registerResource(
    'node-types',
    NODE_TYPES_URI,
    {
      title: 'Node type reference',
      description: 'Node types, handles, config examples, expressions, assertions: what svc_create_flow takes.',
      mimeType: 'text/markdown',
    },
    async (uri) => ({
      contents: [{ uri: uri.href, mimeType: 'text/markdown', text: nodeTypesReference(context.nodeTypes) }],
    }),
  );

  server.registerResource(
    'flow',
    new ResourceTemplate('svc://flows/{flowId}', {
      list: async () => {
        const { flows } = await api.listFlows();
        return {
          resources: flows.map((flow) => ({
            uri: `svc://flows/${encodeURIComponent(flow.id)}`,
            name: flow.name,
            description: `${flow.description ? `${flow.description} · ` : ''}version ${flow.version}, ${flow.nodeCount} node(s)`,
            mimeType: 'application/json',
          })),
        };
      },
    }),
    {
      title: 'Flow',
      description: 'A flow document by id (or exact name), as svc_get_flow answers it.',
      mimeType: 'application/json',
    },
    async (uri, variables) => json(uri.href, toStoredFlowView(await api.resolveFlow(one(variables.flowId)))),
  );

  server.registerResource(
    'execution',
    new ResourceTemplate('svc://executions/{executionId}', { list: undefined }),
    {
      title: 'Execution',
      description: 'An execution with its per-step trace, as svc_get_execution answers it.',
      mimeType: 'application/json',
    },
    async (uri, variables) => json(uri.href, toExecutionResult(await api.getExecution(one(variables.executionId)))),
  );
}
