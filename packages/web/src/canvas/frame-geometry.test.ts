import { describe, expect, it } from 'vitest';
import { assignMembership, boundsAround, FRAME_PADDING, moveMembers } from './frame-geometry.js';

describe('frame geometry', () => {
  it('draws a frame around rectangles with room for its title', () => {
    const bounds = boundsAround([
      { x: 100, y: 100, width: 200, height: 60 },
      { x: 400, y: 300, width: 200, height: 60 },
    ]);
    expect(bounds).toEqual({
      x: 100 - FRAME_PADDING.side,
      y: 100 - FRAME_PADDING.top,
      width: 500 + 2 * FRAME_PADDING.side,
      height: 260 + FRAME_PADDING.top + FRAME_PADDING.bottom,
    });
    expect(boundsAround([])).toBeUndefined();
  });

  it('gives each node to the innermost frame around its centre', () => {
    const outer = { id: 'outer', rect: { x: 0, y: 0, width: 1000, height: 1000 } };
    const inner = { id: 'inner', rect: { x: 100, y: 100, width: 300, height: 300 } };
    const members = assignMembership(
      [outer, inner],
      [
        { id: 'a', rect: { x: 150, y: 150, width: 100, height: 40 } },
        { id: 'b', rect: { x: 600, y: 600, width: 100, height: 40 } },
        // Its corner is inside, its centre is not: it stays out.
        { id: 'c', rect: { x: 1950, y: 10, width: 100, height: 40 } },
        { id: 'd', rect: { x: 360, y: 120, width: 200, height: 40 } },
      ],
    );
    expect(members.get('inner')).toEqual(['a']);
    expect(members.get('outer')).toEqual(['b', 'd']);
  });

  it('moves every member by the frame’s offset', () => {
    const moved = moveMembers(
      new Map([
        ['a', { x: 10, y: 20 }],
        ['b', { x: -5, y: 7 }],
      ]),
      { x: 100, y: 100 },
      { x: 160, y: 70 },
    );
    expect(Object.fromEntries(moved)).toEqual({ a: { x: 70, y: -10 }, b: { x: 55, y: -23 } });
  });
});
