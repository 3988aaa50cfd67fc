import { Handle, Position, type NodeProps } from '@xyflow/react';
import { memo } from 'react';
import { runClass, useCanvasStatus } from './canvas-context.js';
import type { StepNode } from './flow-graph.js';
import { handleLabel, nodeKindOf } from './node-kinds.js';

/** A flow node on the canvas: its name and type, one input, its output handles, problems and run state. */
export const StepNodeView = memo(function StepNodeView({ id, data, selected }: NodeProps<StepNode>) {
  const { problemsByNode, runByNode } = useCanvasStatus();
  const { node } = data;
  const kind = nodeKindOf(node.type);
  const handles = kind?.handles(node.config) ?? ['out'];
  const problems = problemsByNode.get(id) ?? [];
  const step = runByNode.get(id);
  const classes = [
    'step',
    `type-${node.type}`,
    runClass(step),
    problems.length ? 'has-problems' : '',
    selected ? 'selected' : '',
  ]
    .filter(Boolean)
    .join(' ');
  return (
    <div className={classes} data-node-name={node.name} data-run-status={step?.status ?? ''}>
      <Handle type="target" position={Position.Left} className="handle-in" />
      <div className="step-head">
        <span className="step-type">{kind?.label ?? node.type}</span>
        {step?.latencyMs != null && <span className="step-latency">{step.latencyMs} ms</span>}
      </div>
      <div className="step-name">{node.name}</div>
      {problems.length > 0 && (
        <div className="step-problems" role="note" aria-label={`${problems.length} problem(s) on ${node.name}`}>
          {problems.slice(0, 3).map((problem, index) => (
            <div key={index} title={problem.path}>
              {problem.message}
            </div>
          ))}
        </div>
      )}
      {step?.status === 'Failed' && step.error && (
        <div className="step-error" role="note">
          {step.error.code}: {step.error.message}
        </div>
      )}
      <div className="step-handles">
        {handles.map((handle) => (
          <div key={handle} className={`out-handle handle-${handle.startsWith('case-') ? 'case' : handle}`}>
            <span>{handleLabel(handle, node.config)}</span>
            <Handle
              type="source"
              id={handle}
              position={Position.Right}
              className={handle.startsWith('case-') || handle === 'default' ? 'switch-handle' : ''}
              aria-label={`${node.name} ${handle}`}
            />
          </div>
        ))}
      </div>
    </div>
  );
});
