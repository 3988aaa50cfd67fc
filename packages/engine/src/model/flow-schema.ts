import { z } from 'zod';

/** Node names are referenced from expressions, so they must read as identifiers. */
export const NODE_NAME_PATTERN = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Bounds that keep one flow document a reasonable thing to validate, store and run. */
export const MAX_FLOW_NODES = 1_000;
export const MAX_FLOW_CONNECTIONS = 5_000;

export const FRAME_COLORS = ['Purple', 'Blue', 'Emerald', 'Amber', 'Rose', 'Slate'] as const;

export const positionSchema = z.object({ x: z.number(), y: z.number() });

/**
 * A node as stored in a flow. `config` is checked against its node type's own schema by
 * `validateFlow`, so that an unknown type or a bad field is reported with its path.
 */
export const flowNodeSchema = z.object({
  id: z.string().min(1).max(128),
  name: z.string().min(1).max(128),
  type: z.string().min(1),
  position: positionSchema.default({ x: 0, y: 0 }),
  config: z.record(z.string(), z.unknown()).default({}),
  description: z.string().optional(),
});

export const connectionSchema = z.object({
  id: z.string().min(1).max(128),
  source: z.string().min(1),
  sourceHandle: z.string().min(1).default('out'),
  target: z.string().min(1),
  targetHandle: z.string().optional(),
  label: z.string().optional(),
});

export const canvasGroupSchema = z.object({
  id: z.string().min(1),
  title: z.string().default(''),
  color: z.enum(FRAME_COLORS).default('Slate'),
  bounds: z.object({
    x: z.number(),
    y: z.number(),
    width: z.number().nonnegative(),
    height: z.number().nonnegative(),
  }),
  nodeIds: z.array(z.string()).default([]),
});

export const annotationSchema = z.object({
  id: z.string().min(1),
  text: z.string(),
  position: positionSchema,
  color: z.enum(FRAME_COLORS).optional(),
});

export const flowDataSchema = z.object({
  canvasGroups: z.array(canvasGroupSchema).default([]),
  annotations: z.array(annotationSchema).default([]),
});

export const flowInputSchema = z.object({
  type: z.enum(['string', 'number', 'boolean', 'object', 'array', 'any']).default('any'),
  required: z.boolean().default(false),
  default: z.unknown().optional(),
  description: z.string().optional(),
});

/** The flow document: JSON on the wire, YAML accepted from files. */
export const flowDocumentSchema = z.object({
  id: z.string().min(1).max(128).optional(),
  name: z.string().min(1).max(200),
  description: z.string().default(''),
  folderId: z.string().nullable().default(null),
  variables: z.record(z.string(), z.unknown()).default({}),
  inputs: z.record(z.string(), flowInputSchema).default({}),
  outputs: z.record(z.string(), z.string()).default({}),
  nodes: z.array(flowNodeSchema).max(MAX_FLOW_NODES, { message: `a flow holds at most ${MAX_FLOW_NODES} nodes` }),
  connections: z
    .array(connectionSchema)
    .max(MAX_FLOW_CONNECTIONS, { message: `a flow holds at most ${MAX_FLOW_CONNECTIONS} connections` })
    .default([]),
  flowData: flowDataSchema.default({ canvasGroups: [], annotations: [] }),
  version: z.number().int().positive().optional(),
  updatedAt: z.string().optional(),
});

export type FlowNode = z.infer<typeof flowNodeSchema>;
export type Connection = z.infer<typeof connectionSchema>;
export type CanvasGroup = z.infer<typeof canvasGroupSchema>;
export type Annotation = z.infer<typeof annotationSchema>;
export type FlowData = z.infer<typeof flowDataSchema>;
export type FlowInput = z.infer<typeof flowInputSchema>;
/** A flow document after defaults are applied. */
export type FlowDocument = z.infer<typeof flowDocumentSchema>;
/** A flow document as a client may send it (defaults not yet applied). */
export type FlowDocumentInput = z.input<typeof flowDocumentSchema>;
