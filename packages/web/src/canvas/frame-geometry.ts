/** Geometry of canvas frames: pure functions over rectangles, shared by the canvas and its tests. */
export interface Point {
  x: number;
  y: number;
}
export interface Rect extends Point {
  width: number;
  height: number;
}
export interface Placed {
  id: string;
  rect: Rect;
}

/** Room between a new frame's edge and the nodes it encloses; the top leaves space for the title. */
export const FRAME_PADDING = { side: 32, top: 56, bottom: 32 };

/** The bounds of a frame drawn around rectangles, or undefined for none. */
export function boundsAround(rects: readonly Rect[], padding = FRAME_PADDING): Rect | undefined {
  if (rects.length === 0) return undefined;
  const left = Math.min(...rects.map((r) => r.x));
  const top = Math.min(...rects.map((r) => r.y));
  const right = Math.max(...rects.map((r) => r.x + r.width));
  const bottom = Math.max(...rects.map((r) => r.y + r.height));
  return {
    x: left - padding.side,
    y: top - padding.top,
    width: right - left + 2 * padding.side,
    height: bottom - top + padding.top + padding.bottom,
  };
}

export const centerOf = (rect: Rect): Point => ({ x: rect.x + rect.width / 2, y: rect.y + rect.height / 2 });

export const containsPoint = (bounds: Rect, point: Point): boolean =>
  point.x >= bounds.x &&
  point.x <= bounds.x + bounds.width &&
  point.y >= bounds.y &&
  point.y <= bounds.y + bounds.height;

/**
 * Which frame holds each node: the smallest frame whose bounds contain the node's centre (frames
 * may nest; a node belongs to the innermost). Answers each frame's node ids, in node order.
 */
export function assignMembership(frames: readonly Placed[], nodes: readonly Placed[]): Map<string, string[]> {
  const members = new Map(frames.map((frame) => [frame.id, [] as string[]]));
  const bySize = [...frames].sort((a, b) => a.rect.width * a.rect.height - b.rect.width * b.rect.height);
  for (const node of nodes) {
    const center = centerOf(node.rect);
    const holder = bySize.find((frame) => containsPoint(frame.rect, center));
    if (holder !== undefined) members.get(holder.id)!.push(node.id);
  }
  return members;
}

/** Where each member goes when its frame moves from `from` to `to`: the same offset for all. */
export function moveMembers(startPositions: ReadonlyMap<string, Point>, from: Point, to: Point): Map<string, Point> {
  const dx = to.x - from.x;
  const dy = to.y - from.y;
  return new Map([...startPositions].map(([id, p]) => [id, { x: p.x + dx, y: p.y + dy }]));
}
