import { FRAME_COLORS } from '@svc/engine/flow-model';
import { NodeResizer, type NodeProps } from '@xyflow/react';
import { memo, useState } from 'react';
import { useCanvasStatus } from './canvas-context.js';
import type { FrameNode, NoteNode } from './flow-graph.js';

/** The frame palette's colours (border, fill). */
export const FRAME_COLOR_VALUES: Record<(typeof FRAME_COLORS)[number], string> = {
  Purple: '#8b5cf6',
  Blue: '#3b82f6',
  Emerald: '#10b981',
  Amber: '#f59e0b',
  Rose: '#f43f5e',
  Slate: '#64748b',
};

function InlineText(props: {
  value: string;
  label: string;
  onCommit(value: string): void;
  multiline?: boolean;
  className: string;
}) {
  const [draft, setDraft] = useState<string | null>(null);
  if (draft === null) {
    return (
      <div className={props.className} onDoubleClick={() => setDraft(props.value)} title="Double-click to edit">
        {props.value || <span className="muted">{props.label}</span>}
      </div>
    );
  }
  const commit = () => {
    props.onCommit(draft);
    setDraft(null);
  };
  const common = {
    autoFocus: true,
    'aria-label': props.label,
    className: `nodrag nopan ${props.className}-edit`,
    value: draft,
    onChange: (e: { target: { value: string } }) => setDraft(e.target.value),
    onBlur: commit,
    onKeyDown: (e: React.KeyboardEvent) => {
      if (e.key === 'Escape') setDraft(null);
      if (e.key === 'Enter' && !(props.multiline && e.shiftKey)) {
        e.preventDefault();
        commit();
      }
    },
  };
  return props.multiline ? <textarea {...common} /> : <input {...common} />;
}

/**
 * A frame around nodes (`flowData.canvasGroups`): the title edits on double-click, the colour
 * from the palette when selected, and the corners resize it. Dragging it moves its nodes (the
 * canvas page does that); its nodes sit above it, so clicks on them never reach the frame.
 */
export const FrameNodeView = memo(function FrameNodeView({ id, data, selected }: NodeProps<FrameNode>) {
  const { updateFrame } = useCanvasStatus();
  const { group } = data;
  const color = FRAME_COLOR_VALUES[group.color] ?? FRAME_COLOR_VALUES.Slate;
  return (
    <div className="frame" data-frame-title={group.title} style={{ borderColor: color, background: `${color}14` }}>
      <NodeResizer isVisible={selected} minWidth={160} minHeight={100} color={color} />
      <div className="frame-bar" style={{ background: `${color}26` }}>
        <InlineText
          className="frame-title"
          label="Frame title"
          value={group.title}
          onCommit={(title) => updateFrame(id, { title })}
        />
        {selected && (
          <div className="frame-colors nodrag" role="group" aria-label="Frame colour">
            {FRAME_COLORS.map((name) => (
              <button
                key={name}
                type="button"
                className="swatch"
                aria-label={name}
                aria-pressed={group.color === name}
                style={{ background: FRAME_COLOR_VALUES[name] }}
                onClick={() => updateFrame(id, { color: name })}
              />
            ))}
          </div>
        )}
      </div>
    </div>
  );
});

/** A free text note beside frames (`flowData.annotations`); double-click edits it. */
export const NoteNodeView = memo(function NoteNodeView({ id, data }: NodeProps<NoteNode>) {
  const { updateNote } = useCanvasStatus();
  const color = data.annotation.color ? FRAME_COLOR_VALUES[data.annotation.color] : '#f59e0b';
  return (
    <div className="note" style={{ borderColor: color }}>
      <InlineText
        className="note-text"
        label="Note text"
        multiline
        value={data.annotation.text}
        onCommit={(text) => updateNote(id, { text })}
      />
    </div>
  );
});
