import { SvcError } from '../errors.js';
import { renameNodeInTemplate } from '../expressions/references.js';
import { RESERVED_ROOTS } from '../expressions/types.js';
import { NODE_NAME_PATTERN, type FlowDocument, type FlowNode } from './flow-schema.js';
import type { ScriptLocation } from './node-scripts.js';
import { formatJsonPath, mapStrings } from './walk-strings.js';

/** How a rename reads a flow's JavaScript: where each node's scripts are, and how to rename in one. */
export interface ScriptRenaming {
  scriptsOf(node: FlowNode): ScriptLocation[];
  renameInScript(code: string, from: string, to: string): string;
}

/**
 * Renames a node and rewrites every expression that refers to it, through the parsed
 * expressions (templates, and JavaScript as `scripts` says), never by text search. Answers a new
 * document; the input is not changed. `renameNode` (the engine) and `renameFlowNode` (browsers)
 * call it with their own way to read scripts.
 */
export function rewriteNodeName(
  flow: FlowDocument,
  nodeId: string,
  newName: string,
  scripts: ScriptRenaming,
): FlowDocument {
  const node = flow.nodes.find((candidate) => candidate.id === nodeId);
  if (!node) throw new SvcError('NODE_NOT_FOUND', `node "${nodeId}" is not in flow "${flow.name}"`);
  if (!NODE_NAME_PATTERN.test(newName) || RESERVED_ROOTS.has(newName)) {
    throw new SvcError(
      'VALIDATION_ERROR',
      `"${newName}" cannot be a node name: use letters, digits and "_", starting with a letter or "_"`,
    );
  }
  if (flow.nodes.some((other) => other.id !== nodeId && other.name === newName)) {
    throw new SvcError('CONFLICT', `another node is already named "${newName}"`);
  }
  const oldName = node.name;
  if (oldName === newName) return flow;

  const rewriteTemplates = (value: unknown) =>
    mapStrings(value, (text) => (text.includes('{{') ? renameNodeInTemplate(text, oldName, newName) : text));

  const nodes = flow.nodes.map((candidate) => {
    const scriptPaths = new Set(scripts.scriptsOf(candidate).map((script) => formatJsonPath(script.path)));
    const config = mapStrings(candidate.config, (text, path) => {
      if (scriptPaths.has(formatJsonPath(path))) return scripts.renameInScript(text, oldName, newName);
      return text.includes('{{') ? renameNodeInTemplate(text, oldName, newName) : text;
    }) as Record<string, unknown>;
    return { ...candidate, name: candidate.id === nodeId ? newName : candidate.name, config };
  });

  return {
    ...flow,
    nodes,
    outputs: rewriteTemplates(flow.outputs) as Record<string, string>,
    variables: rewriteTemplates(flow.variables) as Record<string, unknown>,
  };
}
