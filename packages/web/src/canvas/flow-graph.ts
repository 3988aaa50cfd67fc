import type { Edge, Node } from '@xyflow/react';
import type { Annotation, CanvasGroup, FlowDocument, FlowNode } from '@svc/engine/flow-model';
import { assignMembership, type Placed } from './frame-geometry.js';

export type StepNode = Node<{ node: FlowNode }, 'step'>;
export type FrameNode = Node<{ group: CanvasGroup }, 'frame'>;
export type NoteNode = Node<{ annotation: Annotation }, 'note'>;
export type CanvasNode = StepNode | FrameNode | NoteNode;
export type Wire = Edge<Record<string, never>, 'wire'>;

/** Canvas ids of frames and notes carry a prefix: a flow's node ids are free-form. */
export const frameNodeId = (groupId: string) => `frame:${groupId}`;
export const noteNodeId = (annotationId: string) => `note:${annotationId}`;

/** The size a step node is drawn at before the canvas has measured it. */
export const STEP_SIZE = { width: 200, height: 64 };

/** The canvas's nodes and wires for a flow document: frames behind, notes and steps above. */
export function toGraph(flow: FlowDocument): { nodes: CanvasNode[]; edges: Wire[] } {
  const frames: FrameNode[] = flow.flowData.canvasGroups.map((group) => ({
    id: frameNodeId(group.id),
    type: 'frame',
    position: { x: group.bounds.x, y: group.bounds.y },
    width: group.bounds.width,
    height: group.bounds.height,
    zIndex: -1,
    data: { group },
  }));
  const notes: NoteNode[] = flow.flowData.annotations.map((annotation) => ({
    id: noteNodeId(annotation.id),
    type: 'note',
    position: annotation.position,
    data: { annotation },
  }));
  const steps: StepNode[] = flow.nodes.map((node) => ({
    id: node.id,
    type: 'step',
    position: node.position,
    data: { node },
  }));
  const edges: Wire[] = flow.connections.map((wire) => ({
    id: wire.id,
    type: 'wire',
    source: wire.source,
    target: wire.target,
    sourceHandle: wire.sourceHandle,
  }));
  return { nodes: [...frames, ...notes, ...steps], edges };
}

const rectOf = (node: CanvasNode) => ({
  x: node.position.x,
  y: node.position.y,
  width: node.measured?.width ?? node.width ?? STEP_SIZE.width,
  height: node.measured?.height ?? node.height ?? STEP_SIZE.height,
});

export const placedSteps = (nodes: readonly CanvasNode[]): Placed[] =>
  nodes.filter((node): node is StepNode => node.type === 'step').map((node) => ({ id: node.id, rect: rectOf(node) }));

export const placedFrames = (nodes: readonly CanvasNode[]): Placed[] =>
  nodes.filter((node): node is FrameNode => node.type === 'frame').map((node) => ({ id: node.id, rect: rectOf(node) }));

/**
 * The frames' members after nodes moved or a frame was drawn or resized: each step belongs to the
 * innermost frame around its centre. Frames whose members did not change keep their objects.
 */
export function withMembership(nodes: CanvasNode[]): CanvasNode[] {
  const members = assignMembership(placedFrames(nodes), placedSteps(nodes));
  return nodes.map((node) => {
    if (node.type !== 'frame') return node;
    const nodeIds = members.get(node.id) ?? [];
    const same =
      nodeIds.length === node.data.group.nodeIds.length && nodeIds.every((id, i) => id === node.data.group.nodeIds[i]);
    return same ? node : { ...node, data: { group: { ...node.data.group, nodeIds } } };
  });
}

/** The flow document the canvas shows: `base` with the canvas's nodes, wires, frames and notes. */
export function toDocument(base: FlowDocument, nodes: readonly CanvasNode[], edges: readonly Wire[]): FlowDocument {
  const round = (n: number) => Math.round(n);
  const steps: FlowNode[] = [];
  const canvasGroups: CanvasGroup[] = [];
  const annotations: Annotation[] = [];
  for (const node of nodes) {
    if (node.type === 'step') {
      steps.push({ ...node.data.node, position: { x: round(node.position.x), y: round(node.position.y) } });
    } else if (node.type === 'frame') {
      const rect = rectOf(node);
      canvasGroups.push({
        ...node.data.group,
        bounds: { x: round(rect.x), y: round(rect.y), width: round(rect.width), height: round(rect.height) },
      });
    } else if (node.type === 'note') {
      annotations.push({ ...node.data.annotation, position: { x: round(node.position.x), y: round(node.position.y) } });
    }
  }
  return {
    ...base,
    nodes: steps,
    connections: edges.map((edge) => ({
      id: edge.id,
      source: edge.source,
      target: edge.target,
      sourceHandle: edge.sourceHandle ?? 'out',
    })),
    flowData: { ...base.flowData, canvasGroups, annotations },
  };
}

/**
 * Which canvas item a validation problem's path points at: `nodes[2].config.url` → the third
 * node, `connections[1].source` → the second wire, `flowData.canvasGroups[0]…` → the first frame.
 */
export function problemTarget(
  path: string,
  flow: FlowDocument,
): { kind: 'node' | 'wire' | 'frame'; id: string; field: string } | undefined {
  const match = /^(nodes|connections|flowData\.canvasGroups)\[(\d+)\]\.?(.*)$/.exec(path);
  if (match === null) return undefined;
  const index = Number(match[2]);
  const field = match[3] ?? '';
  if (match[1] === 'nodes') {
    const node = flow.nodes[index];
    return node && { kind: 'node', id: node.id, field };
  }
  if (match[1] === 'connections') {
    const wire = flow.connections[index];
    return wire && { kind: 'wire', id: wire.id, field };
  }
  const group = flow.flowData.canvasGroups[index];
  return group && { kind: 'frame', id: frameNodeId(group.id), field };
}
