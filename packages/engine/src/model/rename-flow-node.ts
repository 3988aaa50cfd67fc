/**
 * Renaming a node for clients that run no flows (the web app): the engine's rename, reading the
 * built-in node types' scripts and parsing JavaScript with acorn imported as an ES module, with
 * nothing that needs Node. Published as `@svc/engine/rename-node`; kept apart from
 * `@svc/engine/flow-model` so that reading a flow document never loads a JavaScript parser.
 */
import { parse } from 'acorn';
import { renameNodeInJavaScriptWith } from '../expressions/javascript-references.js';
import type { FlowDocument } from './flow-schema.js';
import { builtInScriptsOf } from './node-scripts.js';
import { rewriteNodeName } from './rewrite-node-name.js';

export { isSvcError } from '../errors.js';

/**
 * Renames a node of a flow document and rewrites the expressions that refer to it: `{{…}}`
 * templates anywhere in the configs, outputs and variables, and the JavaScript of Switch
 * expression mode, Repeat's `breakWhen` and webhook pre-scripts. Throws `SvcError`:
 * `VALIDATION_ERROR` for a name that cannot be a node's, `CONFLICT` for one another node has,
 * `EXPRESSION_SYNTAX` for a script that does not parse.
 * @example renameFlowNode(flow, 'n1', 'CreateOrder').nodes[1].config.url // '{{CreateOrder.body.id}}'
 */
export function renameFlowNode(flow: FlowDocument, nodeId: string, newName: string): FlowDocument {
  return rewriteNodeName(flow, nodeId, newName, {
    scriptsOf: builtInScriptsOf,
    renameInScript: (code, from, to) => renameNodeInJavaScriptWith(parse, code, from, to),
  });
}
