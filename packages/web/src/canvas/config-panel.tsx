import { NODE_NAME_PATTERN, type FlowNode } from '@svc/engine/flow-model';
import { memo, useMemo, useState } from 'react';
import type { ValidationProblem } from '../api/types.js';
import type { ExpressionScope } from './expression-completions.js';
import { CONFIG_FORMS } from './forms/config-forms.js';
import { configErrors, type Config } from './forms/fields.js';
import { nodeKindOf } from './node-kinds.js';

/**
 * The side panel for the selected node: its name, description and its type's config form. Memoized:
 * dragging the selected node re-renders the canvas page on every move, not this form.
 */
export const ConfigPanel = memo(function ConfigPanel(props: {
  node: FlowNode;
  problems: readonly ValidationProblem[];
  scope: ExpressionScope;
  takenNames: ReadonlySet<string>;
  onChange(node: FlowNode): void;
  /** Renames the node and the expressions that refer to it; answers why not, when it could not. */
  onRename(nodeId: string, name: string): Promise<string | undefined>;
}) {
  const { node, onChange } = props;
  // The name is edited apart and renamed as a whole on Enter or leaving the field: every
  // expression that reads the node follows, and a half-typed name never reaches them.
  const [name, setName] = useState(node.name);
  const [renameError, setRenameError] = useState<string | undefined>();
  const entry = CONFIG_FORMS[node.type];
  const errors = useMemo(
    () => (entry ? configErrors(entry.schema, node.config) : new Map<string, string>()),
    [entry, node.config],
  );
  const nameProblem = !NODE_NAME_PATTERN.test(name)
    ? 'a name starts with a letter or _ and holds letters, digits and _'
    : props.takenNames.has(name)
      ? 'another node has this name'
      : renameError;
  const commitName = async () => {
    if (name === node.name || !NODE_NAME_PATTERN.test(name) || props.takenNames.has(name)) return;
    setRenameError(await props.onRename(node.id, name));
  };
  return (
    <section className="config-panel" aria-label={`Settings of ${node.name}`}>
      <h2>
        {nodeKindOf(node.type)?.label ?? node.type} <span className="muted">{node.id}</span>
      </h2>
      <div className={`field${nameProblem ? ' has-error' : ''}`}>
        <label htmlFor="node-name">Name</label>
        <input
          id="node-name"
          className="nodrag"
          value={name}
          onChange={(e) => {
            setName(e.target.value);
            setRenameError(undefined);
          }}
          onBlur={() => void commitName()}
          onKeyDown={(e) => {
            if (e.key === 'Enter') void commitName();
            if (e.key === 'Escape') setName(node.name);
          }}
          aria-invalid={nameProblem ? true : undefined}
          aria-describedby="node-name-hint"
        />
        <span id="node-name-hint" className="muted small">
          Enter renames it and every expression that reads it.
        </span>
        {nameProblem && (
          <span className="field-error" role="alert">
            {nameProblem}
          </span>
        )}
      </div>
      <div className="field">
        <label htmlFor="node-description">Description</label>
        <input
          id="node-description"
          className="nodrag"
          value={node.description ?? ''}
          onChange={(e) => onChange({ ...node, description: e.target.value || undefined })}
        />
      </div>
      {entry ? (
        <entry.Form
          config={node.config}
          onChange={(config: Config) => onChange({ ...node, config })}
          scope={props.scope}
          errors={errors}
        />
      ) : (
        <p className="error">Unknown node type {node.type}.</p>
      )}
      {props.problems.length > 0 && (
        <div className="problems" role="region" aria-label="Problems of this node">
          <h3>Problems</h3>
          <ul>
            {props.problems.map((problem, index) => (
              <li key={index}>
                <code>{problem.path}</code> {problem.message}
              </li>
            ))}
          </ul>
        </div>
      )}
    </section>
  );
});
