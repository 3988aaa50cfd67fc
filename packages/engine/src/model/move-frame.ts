import { SvcError } from '../errors.js';
import type { FlowDocument } from './flow-schema.js';

/**
 * Moves a canvas frame and every node it holds by the same offset, so the nodes keep their
 * places relative to the frame. Answers a new document; the input is not changed.
 * @example moveFrame(flow, 'g1', { dx: 120, dy: -40 })
 */
export function moveFrame(flow: FlowDocument, frameId: string, offset: { dx: number; dy: number }): FlowDocument {
  const frame = flow.flowData.canvasGroups.find((group) => group.id === frameId);
  if (!frame) throw new SvcError('FRAME_NOT_FOUND', `frame "${frameId}" is not in flow "${flow.name}"`);
  if (!Number.isFinite(offset.dx) || !Number.isFinite(offset.dy)) {
    throw new SvcError('VALIDATION_ERROR', 'a frame moves by finite numbers dx and dy');
  }
  const members = new Set(frame.nodeIds);
  return {
    ...flow,
    nodes: flow.nodes.map((node) =>
      members.has(node.id)
        ? { ...node, position: { x: node.position.x + offset.dx, y: node.position.y + offset.dy } }
        : node,
    ),
    flowData: {
      ...flow.flowData,
      canvasGroups: flow.flowData.canvasGroups.map((group) =>
        group.id === frameId
          ? { ...group, bounds: { ...group.bounds, x: group.bounds.x + offset.dx, y: group.bounds.y + offset.dy } }
          : group,
      ),
    },
  };
}
