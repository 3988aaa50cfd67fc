import { flowDocumentSchema, SvcError, type FlowSummary, type StoredFlow } from '@svc/engine';
import { z } from 'zod';

export const flowSummarySchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  folderId: z.string().nullable(),
  version: z.number(),
  nodeCount: z.number(),
  updatedAt: z.string(),
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
  /** Where a webhook trigger node's flow starts: POST JSON to `url`. */
  webhookTriggers: z
    .array(z.object({ nodeId: z.string(), nodeName: z.string(), path: z.string(), url: z.string() }))
    .optional(),
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
    throw new SvcError(
      'INVALID_RESPONSE',
      `the svc API answered a flow that is not a flow document (${issue?.path.join('.') || 'document'}: ${issue?.message})`,
    );
  }
  return parsed.data;
}

/** What the tools' output schemas promise of a flow; answers carry the whole document (see svc_get_flow). */
export const flowOutputViewSchema = z.looseObject({
  id: z.string(),
  name: z.string(),
  version: z.number(),
  nodes: z.array(z.looseObject({ id: z.string(), name: z.string() })),
});

/** The document of a saved flow, without what the store keeps beside it (id, version, timestamps). */
export function documentOf(flow: Record<string, unknown>): Record<string, unknown> {
  const { id: _id, version: _version, updatedAt: _updatedAt, createdAt: _createdAt, ...document } = flow;
  return document;
}
