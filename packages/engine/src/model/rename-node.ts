import { renameNodeInJavaScript } from '../expressions/javascript.js';
import type { NodeRegistry } from '../nodes/registry.js';
import type { FlowDocument } from './flow-schema.js';
import { rewriteNodeName } from './rewrite-node-name.js';

/**
 * Renames a node and rewrites every expression that refers to it, through the parsed
 * expressions (templates and JavaScript), never by text search. Answers a new document; the
 * input is not changed.
 * @example renameNode(flow, 'n1', 'CreateOrder', registry)
 */
export function renameNode(flow: FlowDocument, nodeId: string, newName: string, registry: NodeRegistry): FlowDocument {
  return rewriteNodeName(flow, nodeId, newName, {
    scriptsOf(node) {
      const definition = registry.get(node.type);
      const parsed = definition?.configSchema.safeParse(node.config);
      return parsed?.success ? (definition!.scripts?.(parsed.data) ?? []) : [];
    },
    renameInScript: renameNodeInJavaScript,
  });
}
