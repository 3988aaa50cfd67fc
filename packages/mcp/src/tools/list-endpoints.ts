import { listEndpointsQuerySchema } from '@svc/discovery';
import { z } from 'zod';
import { LIST_ENDPOINTS_LIMIT } from '../api/svc-api.js';
import { oneLine, table } from '@svc/engine/text-table';
import { strictInput } from './strict-input.js';
import { guarded, type ToolContext } from './tool-context.js';
import { okResult, toolOutput } from './tool-error.js';

const inputSchema = strictInput({ search: listEndpointsQuerySchema.shape.search });

const outputSchema = toolOutput({
  endpoints: z.array(z.looseObject({ id: z.string(), specId: z.string(), method: z.string(), path: z.string() })),
  hasMore: z.boolean(),
});

interface EndpointSummary {
  id: string;
  specId: string;
  method: string;
  path: string;
  summary: string;
  tags: string[];
  parameters: string[];
  hasRequestBody: boolean;
}

export function registerListEndpoints(context: ToolContext): void {
  context.server.registerTool(
    'svc_list_endpoints',
    {
      title: 'List catalog endpoints',
      description:
        "List the endpoints of the workspace's API catalog (imported with svc_import_openapi): id, spec, method, path, summary, tags " +
        `and parameters. search matches ids, "METHOD /path", summaries and tags. Answers at most ${LIST_ENDPOINTS_LIMIT}; hasMore says when a search should narrow it.`,
      inputSchema,
      outputSchema,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    guarded(context, 'svc_list_endpoints', async (args: z.infer<typeof inputSchema>) => {
      const { endpoints, hasMore } = await context.api.listEndpoints(args.search ? { search: args.search } : {});
      const views: EndpointSummary[] = endpoints.map((endpoint) => ({
        id: endpoint.id,
        specId: endpoint.specId,
        method: endpoint.method,
        path: endpoint.path,
        summary: endpoint.summary,
        tags: endpoint.tags,
        parameters: endpoint.parameters.map((param) => `${param.in}:${param.name}${param.required ? '' : '?'}`),
        hasRequestBody: endpoint.requestBody !== null,
      }));
      return okResult({ endpoints: views, hasMore }, renderEndpoints(views, hasMore, args.search));
    }),
  );
}

function renderEndpoints(endpoints: EndpointSummary[], hasMore: boolean, search: string | undefined): string {
  if (endpoints.length === 0) {
    return search
      ? `No endpoint matches "${search}".`
      : 'The catalog is empty: import an OpenAPI document with svc_import_openapi.';
  }
  const rows = [['ID', 'METHOD', 'PATH', 'SPEC', 'SUMMARY']];
  for (const endpoint of endpoints)
    rows.push([endpoint.id, endpoint.method, endpoint.path, endpoint.specId, oneLine(endpoint.summary, 60)]);
  const more = hasMore ? `\nMore than ${endpoints.length} endpoints match; narrow the search.` : '';
  return `${endpoints.length} endpoint(s):\n${table(rows)}${more}`;
}
