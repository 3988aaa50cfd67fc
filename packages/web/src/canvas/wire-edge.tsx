import { BaseEdge, EdgeLabelRenderer, getBezierPath, useStore, type EdgeProps } from '@xyflow/react';
import { memo } from 'react';
import { useCanvasStatus } from './canvas-context.js';
import type { StepNode, Wire } from './flow-graph.js';
import { handleLabel } from './node-kinds.js';

/** Switch branches are drawn in this purple, with the case label as a badge. */
export const SWITCH_WIRE_COLOR = '#8b5cf6';

/**
 * A wire: Switch branches purple with their case badge, `error` wires dashed, wires with
 * problems red, wires of a skipped branch faded like their nodes.
 */
export const WireEdge = memo(function WireEdge(props: EdgeProps<Wire>) {
  const {
    id,
    source,
    target,
    sourceHandleId,
    sourceX,
    sourceY,
    targetX,
    targetY,
    sourcePosition,
    targetPosition,
    selected,
  } = props;
  // The source's data object keeps its identity while nodes are dragged: no re-render then.
  const sourceNode = useStore((state) => (state.nodeLookup.get(source) as unknown as StepNode | undefined)?.data?.node);
  const { problemsByWire, runByNode } = useCanvasStatus();
  const [path, labelX, labelY] = getBezierPath({ sourceX, sourceY, targetX, targetY, sourcePosition, targetPosition });
  const handle = sourceHandleId ?? 'out';
  const isSwitch = sourceNode?.type === 'switch';
  const problems = problemsByWire.get(id) ?? [];
  const skipped = runByNode.get(target)?.status === 'Skipped' || runByNode.get(source)?.status === 'Skipped';
  const classes = [
    'wire',
    isSwitch ? 'wire-switch' : '',
    handle === 'error' ? 'wire-error' : '',
    problems.length ? 'wire-problem' : '',
    skipped ? 'run-skipped' : '',
    selected ? 'selected' : '',
  ]
    .filter(Boolean)
    .join(' ');
  const stroke = problems.length
    ? '#dc2626'
    : isSwitch
      ? SWITCH_WIRE_COLOR
      : handle === 'error'
        ? '#f97316'
        : undefined;
  const badge = isSwitch ? handleLabel(handle, sourceNode.config) : handle === 'out' ? undefined : handle;
  return (
    <>
      <BaseEdge
        id={id}
        path={path}
        className={classes}
        style={{ stroke, strokeWidth: isSwitch ? 2.5 : 2, strokeDasharray: handle === 'error' ? '6 4' : undefined }}
      />
      {(badge !== undefined || problems.length > 0) && (
        <EdgeLabelRenderer>
          <div
            className={`wire-badge ${isSwitch ? 'switch-badge' : ''} ${problems.length ? 'problem-badge' : ''} ${skipped ? 'run-skipped' : ''}`}
            data-wire-id={id}
            title={problems.map((p) => p.message).join('\n') || undefined}
            style={{ transform: `translate(-50%, -50%) translate(${labelX}px, ${labelY}px)` }}
          >
            {problems.length ? `⚠ ${problems[0]!.message}` : badge}
          </div>
        </EdgeLabelRenderer>
      )}
    </>
  );
});
