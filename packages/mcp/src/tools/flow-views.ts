import { flowDocumentSchema, SvcError, type FlowSummary, type StoredFlow } from '@svc/engine';
import { z } from 'zod';

export const flowSummarySchema = z.object({
  id: z.string().describe('Flow id, the flowId of svc_get_flow and svc_run_flow'),
  name: z.string(),
  description: z.string(),
  folderId: z.string().nullable(),
  version: z.number().describe('Increases with every save'),
  nodeCount: z.number(),
  updatedAt: z.string().describe('Last modified (ISO 8601)'),
  createdAt: z.string(),
});

export type FlowSummaryView = z.infer<typeof flowSummarySchema>;

export function toFlowSummaryView(flow: FlowSummary): FlowSummaryView {
  return {
    id: flow.id,
    name: flow.name,
    description: flow.description ?? '',
    folderId: flow.folderId ?? null,
    version: flow.version,
    nodeCount: flow.nodeCount,
    updatedAt: flow.updatedAt,
    createdAt: flow.createdAt,
  };
}

/** A saved flow as tools answer it: the engine's flow document with its id, version and times. */
export const storedFlowSchema = flowDocumentSchema.extend({
  id: z.string(),
  version: z.number(),
  updatedAt: z.string(),
  createdAt: z.string(),
});

export type StoredFlowView = z.infer<typeof storedFlowSchema>;

/**
 * Parses the flow through the engine's schema, so the answer holds exactly the documented fields
 * with defaults filled in, whichever side (engine or gateway) produced it.
 */
export function toStoredFlowView(flow: StoredFlow): StoredFlowView {
  const parsed = storedFlowSchema.safeParse(flow);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new SvcError('INVALID_RESPONSE', `the svc API answered a flow that is not a flow document (${issue?.path.join('.') || 'document'}: ${issue?.message})`);
  }
  return parsed.data;
}
