import { basename } from 'node:path';
import { importOpenApiBodySchema, MAX_OPENAPI_DOCUMENT_CHARS } from '@svc/discovery';
import { SvcError } from '@svc/engine';
import { readBoundedFile, unreadableReason } from '@svc/engine/bounded-file';
import { z } from 'zod';
import { strictInput } from './strict-input.js';
import { guarded, type ToolContext } from './tool-context.js';
import { okResult, toolOutput } from './tool-error.js';

const body = importOpenApiBodySchema.shape;

const inputSchema = strictInput({
  document: body.document.optional(),
  path: z
    .string()
    .min(1)
    .max(4096)
    .optional()
    .describe(
      'A file to read the document from, on the machine svc-mcp runs on (local mode only). Give document or path',
    ),
  name: body.name,
});

const outputSchema = toolOutput({
  spec: z.looseObject({ id: z.string(), endpointCount: z.number() }),
  added: z.array(z.string()),
  removed: z.array(z.string()),
  changed: z.array(z.string()),
});

export function registerImportOpenApi(context: ToolContext): void {
  context.server.registerTool(
    'svc_import_openapi',
    {
      title: 'Import an OpenAPI document',
      description:
        "Import an OpenAPI 3.0/3.1 or Swagger 2.0 document (JSON or YAML) into the workspace's API catalog: every operation becomes an " +
        'endpoint with an id (its operationId, else method and path), parameters, request and response schemas and security. ' +
        'Importing a spec of the same name again replaces it and answers the endpoint ids added, removed and changed. ' +
        'Pass the text as document, or a local file as path (local mode only). A broken document answers INVALID_OPENAPI with every problem and where it is.',
      inputSchema,
      outputSchema,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    guarded(context, 'svc_import_openapi', async (args: z.infer<typeof inputSchema>) => {
      const { text, fileName } = await documentText(context, args);
      const result = await context.api.importOpenApi({
        document: text,
        ...(args.name ? { name: args.name } : {}),
        ...(fileName ? { fileName } : {}),
      });
      const spec = {
        id: result.spec.id,
        name: result.spec.name,
        title: result.spec.title,
        version: result.spec.version,
        sourceVersion: result.spec.sourceVersion,
        endpointCount: result.spec.endpointCount,
      };
      return okResult(
        { spec, added: result.added, removed: result.removed, changed: result.changed },
        renderImport(spec, result),
      );
    }),
  );
}

async function documentText(
  context: ToolContext,
  args: z.infer<typeof inputSchema>,
): Promise<{ text: string; fileName?: string }> {
  if ((args.document === undefined) === (args.path === undefined)) {
    throw new SvcError('VALIDATION_ERROR', 'give exactly one of document (the text) and path (a local file)');
  }
  if (args.document !== undefined) return { text: args.document };
  const path = args.path!;
  if (context.api.mode !== 'local') {
    throw new SvcError(
      'PATH_NOT_SUPPORTED',
      'svc-mcp talks to a remote svc API here, which cannot read files on this machine; pass the document text as document instead',
    );
  }
  let text: string;
  try {
    // A regular file within the size a document may have: a FIFO or a device would never end.
    text = readBoundedFile(path, MAX_OPENAPI_DOCUMENT_CHARS);
  } catch (error) {
    throw new SvcError('FILE_NOT_READABLE', `cannot read "${path}": ${unreadableReason(error)}`, { cause: error });
  }
  return { text, fileName: basename(path) };
}

function renderImport(
  spec: { id: string; title: string; version: string; sourceVersion: string; endpointCount: number },
  result: { added: string[]; removed: string[]; changed: string[] },
): string {
  const from = spec.sourceVersion === '2.0' ? ' (converted from Swagger 2.0)' : '';
  const lines = [
    `Imported "${spec.title}" ${spec.version} as spec ${spec.id}${from}: ${spec.endpointCount} endpoint(s).`,
  ];
  const list = (label: string, ids: string[]) => {
    if (ids.length > 0) lines.push(`${label} (${ids.length}): ${ids.join(', ')}`);
  };
  list('Added', result.added);
  list('Removed', result.removed);
  list('Changed', result.changed);
  if (result.added.length + result.removed.length + result.changed.length === 0)
    lines.push('No endpoint changed since the last import.');
  return lines.join('\n');
}
