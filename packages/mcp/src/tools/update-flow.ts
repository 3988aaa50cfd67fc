import { isSvcError, SvcError, type FlowDocumentInput } from '@svc/engine';
import { z } from 'zod';
import { renderFlow } from '../render/render-flow.js';
import { documentOf, flowOutputViewSchema, toStoredFlowView } from './flow-views.js';
import { flowIdSchema } from './get-flow.js';
import { MAX_FLOW_CHARS } from './limits.js';
import { applyMergePatch } from './merge-patch.js';
import { strictInput } from './strict-input.js';
import { guarded, type ToolContext } from './tool-context.js';
import { okResult, toolOutput } from './tool-error.js';

const inputSchema = strictInput({
  flowId: flowIdSchema,
  expectedVersion: z
    .number()
    .int()
    .positive()
    .describe('The version you last read; a newer saved version refuses the update'),
  document: z.record(z.string(), z.unknown()).optional().describe('The whole new flow, as svc_create_flow takes it'),
  patch: z
    .record(z.string(), z.unknown())
    .optional()
    .describe(
      'JSON merge patch (RFC 7396) of the flow: objects merge, null deletes a key, arrays (nodes, connections) are replaced whole',
    ),
  allowDuplicateName: z.boolean().optional().describe('Save even if another flow of the folder has the name'),
});

/** A stale version said the way an assistant can act on. */
function staleError(flowId: string, expected: number, current: number | undefined): SvcError {
  return new SvcError(
    'CONFLICT',
    `flow ${flowId} is at version ${current ?? '?'}, not expectedVersion ${expected}: it was saved since you read it. ` +
      'Re-read it with svc_get_flow, apply your change to that version, and pass its version as expectedVersion',
    { details: { currentVersion: current, expectedVersion: expected } },
  );
}

export function registerUpdateFlow(context: ToolContext): void {
  context.server.registerTool(
    'svc_update_flow',
    {
      title: 'Update a flow',
      description:
        'Save a new version of a flow: give document (the whole flow) or patch (a JSON merge patch), and expectedVersion from svc_get_flow. ' +
        'Validated like svc_create_flow (VALIDATION_ERROR lists every problem with its path; nothing saved). A stale expectedVersion answers CONFLICT: re-read and retry.',
      inputSchema,
      outputSchema: toolOutput({ flow: flowOutputViewSchema }),
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
    },
    guarded(context, 'svc_update_flow', async (args: z.infer<typeof inputSchema>) => {
      if ((args.document === undefined) === (args.patch === undefined)) {
        throw new SvcError(
          'VALIDATION_ERROR',
          'give exactly one of document (the whole flow) and patch (a JSON merge patch)',
        );
      }
      const current = await context.api.resolveFlow(args.flowId);
      if (current.version !== args.expectedVersion) throw staleError(current.id, args.expectedVersion, current.version);
      const next =
        args.document !== undefined ? documentOf(args.document) : applyMergePatch(documentOf(current), args.patch);
      const size = JSON.stringify(next).length;
      if (size > MAX_FLOW_CHARS) {
        throw new SvcError(
          'PAYLOAD_TOO_LARGE',
          `the flow is ${size} characters of JSON; a flow may hold at most ${MAX_FLOW_CHARS}`,
        );
      }
      let saved;
      try {
        saved = await context.api.updateFlow(current.id, next as FlowDocumentInput, {
          expectedVersion: args.expectedVersion,
          ...(args.allowDuplicateName ? { allowDuplicateName: true } : {}),
        });
      } catch (error) {
        if (isSvcError(error) && error.code === 'CONFLICT') {
          throw staleError(
            current.id,
            args.expectedVersion,
            (error.details as { currentVersion?: number } | undefined)?.currentVersion,
          );
        }
        throw error;
      }
      const flow = toStoredFlowView(saved);
      return okResult({ flow }, `Saved flow ${flow.id} as version ${flow.version}.\n${renderFlow(flow)}`);
    }),
  );
}
