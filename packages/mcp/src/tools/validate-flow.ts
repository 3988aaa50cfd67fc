import { z } from 'zod';
import { strictInput } from './strict-input.js';
import { guarded, type ToolContext } from './tool-context.js';
import { okResult, problemSchema, renderToolError, toolOutput } from './tool-error.js';

const inputSchema = strictInput({
  document: z.record(z.string(), z.unknown()).describe('A flow as svc_create_flow takes it'),
});

export function registerValidateFlow(context: ToolContext): void {
  context.server.registerTool(
    'svc_validate_flow',
    {
      title: 'Validate a flow',
      description:
        'Check a flow document as saving would, without saving: answers valid, and every problem with its path (e.g. nodes[1].config.url).',
      inputSchema,
      outputSchema: toolOutput({ valid: z.boolean(), problems: z.array(problemSchema) }),
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    guarded(context, 'svc_validate_flow', async (args: z.infer<typeof inputSchema>) => {
      const problems = (await context.api.validateFlow(args.document)).map(({ code, message, path }) => ({
        code,
        message,
        path,
      }));
      const text =
        problems.length === 0
          ? 'The flow is valid: svc_create_flow would save it.'
          : renderToolError({ code: 'VALIDATION_ERROR', message: '', problems });
      return okResult({ valid: problems.length === 0, problems }, text);
    }),
  );
}
