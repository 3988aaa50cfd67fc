import { SvcError } from '../errors.js';
import { renameNodeInJavaScript, renameNodeInTemplate } from '../expressions/index.js';
import { RESERVED_ROOTS } from '../expressions/types.js';
import type { NodeRegistry } from '../nodes/registry.js';
import { NODE_NAME_PATTERN, type FlowDocument } from './flow-schema.js';
import { formatJsonPath, mapStrings } from './walk-strings.js';

/**
 * Renames a node and rewrites every expression that refers to it, through the parsed
 * expressions (templates and JavaScript), never by text search. Answers a new document; the
 * input is not changed.
 * @example renameNode(flow, 'n1', 'CreateOrder', registry)
 */
export function renameNode(flow: FlowDocument, nodeId: string, newName: string, registry: NodeRegistry): FlowDocument {
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

  const rewriteTemplates = (value: unknown, skip: ReadonlySet<string> = new Set()) =>
    mapStrings(value, (text, path) =>
      text.includes('{{') && !skip.has(formatJsonPath(path)) ? renameNodeInTemplate(text, oldName, newName) : text,
    );

  const nodes = flow.nodes.map((candidate) => {
    const definition = registry.get(candidate.type);
    const parsed = definition?.configSchema.safeParse(candidate.config);
    const scripts = parsed?.success ? (definition!.scripts?.(parsed.data) ?? []) : [];
    const scriptPaths = new Set(scripts.map((script) => formatJsonPath(script.path)));
    const config = mapStrings(candidate.config, (text, path) => {
      if (scriptPaths.has(formatJsonPath(path))) return renameNodeInJavaScript(text, oldName, newName);
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
