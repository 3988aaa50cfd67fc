import type { Annotation, CanvasGroup } from '@svc/engine';

/** Canvas units: the size a node is drawn at, and the room around it. */
export const NODE_WIDTH = 220;
export const NODE_HEIGHT = 80;
/** Left edge to left edge of neighbouring nodes. */
export const NODE_SPACING = 300;
export const FRAME_PADDING = 40;
/** Room above the nodes for the frame's title. */
export const FRAME_TITLE_HEIGHT = 40;
const ANNOTATION_GAP = 40;

export type FrameColor = CanvasGroup['color'];

/** Nodes left to right in run order, on one row inside the frame. */
export function nodePosition(index: number): { x: number; y: number } {
  return { x: FRAME_PADDING + index * NODE_SPACING, y: FRAME_TITLE_HEIGHT + FRAME_PADDING };
}

/** One frame around every node, at the origin, sized to enclose them with padding. */
export function frameAround(nodeIds: readonly string[], title: string, color: FrameColor): CanvasGroup {
  const count = Math.max(nodeIds.length, 1);
  return {
    id: 'g1',
    title,
    color,
    bounds: {
      x: 0,
      y: 0,
      width: 2 * FRAME_PADDING + (count - 1) * NODE_SPACING + NODE_WIDTH,
      height: FRAME_TITLE_HEIGHT + 2 * FRAME_PADDING + NODE_HEIGHT,
    },
    nodeIds: [...nodeIds],
  };
}

/** A note under the frame, where it does not cover any node. */
export function annotationBelow(frame: CanvasGroup, text: string): Annotation {
  return { id: 'a1', text, position: { x: frame.bounds.x, y: frame.bounds.y + frame.bounds.height + ANNOTATION_GAP } };
}
