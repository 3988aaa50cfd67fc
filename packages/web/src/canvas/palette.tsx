import { FRAME_COLORS } from '@svc/engine/flow-model';
import { memo, type DragEvent } from 'react';
import { FRAME_COLOR_VALUES } from './frame-node.js';
import { NODE_KINDS } from './node-kinds.js';

/** What a palette item carries when dragged onto the canvas. */
export type PaletteItem =
  { kind: 'node'; type: string } | { kind: 'frame'; color: (typeof FRAME_COLORS)[number] } | { kind: 'note' };

export const PALETTE_MIME = 'application/x-svc-palette';

/**
 * Every node type, the frame colours and a note: drag one onto the canvas, or press Enter on it
 * to add it in the middle of the view.
 */
export const Palette = memo(function Palette({
  onAdd,
  onFrameSelection,
  canFrameSelection,
}: {
  onAdd(item: PaletteItem): void;
  onFrameSelection(color: (typeof FRAME_COLORS)[number]): void;
  canFrameSelection: boolean;
}) {
  const start = (item: PaletteItem) => (event: DragEvent) => {
    event.dataTransfer.setData(PALETTE_MIME, JSON.stringify(item));
    event.dataTransfer.effectAllowed = 'move';
  };
  return (
    <aside className="palette" aria-label="Node palette">
      <h2>Nodes</h2>
      <ul>
        {NODE_KINDS.map((kind) => (
          <li key={kind.type}>
            <button
              type="button"
              draggable
              className={`palette-item type-${kind.type}`}
              data-node-type={kind.type}
              onDragStart={start({ kind: 'node', type: kind.type })}
              onClick={() => onAdd({ kind: 'node', type: kind.type })}
              title={kind.description}
            >
              <strong>{kind.label}</strong>
              <span className="muted small">{kind.description}</span>
            </button>
          </li>
        ))}
      </ul>
      <h2>Frames</h2>
      <p className="muted small">
        {canFrameSelection
          ? 'Click a colour to frame the selected nodes.'
          : 'Drag a colour onto the canvas, or select nodes first.'}
      </p>
      <div className="frame-palette">
        {FRAME_COLORS.map((color) => (
          <button
            key={color}
            type="button"
            draggable
            className="swatch"
            aria-label={`${color} frame`}
            data-frame-color={color}
            style={{ background: FRAME_COLOR_VALUES[color] }}
            onDragStart={start({ kind: 'frame', color })}
            onClick={() => (canFrameSelection ? onFrameSelection(color) : onAdd({ kind: 'frame', color }))}
          />
        ))}
      </div>
      <button
        type="button"
        draggable
        className="palette-item"
        onDragStart={start({ kind: 'note' })}
        onClick={() => onAdd({ kind: 'note' })}
      >
        <strong>Text note</strong>
      </button>
    </aside>
  );
});
