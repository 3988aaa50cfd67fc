import { collectNode } from './collect.js';
import { delayNode } from './delay.js';
import { endpointNode } from './endpoint/index.js';
import { forNode } from './for.js';
import { repeatNode } from './repeat.js';
import { subflowNode } from './subflow.js';
import { switchNode } from './switch.js';
import type { NodeTypeDefinition } from './types.js';
import { variablesNode } from './variables.js';
import { webhookNode } from './webhook.js';

// Each definition is typed by its own config; the registry holds them side by side.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyNodeType = NodeTypeDefinition<any>;
export type NodeRegistry = ReadonlyMap<string, AnyNodeType>;

export const BUILTIN_NODE_TYPES: readonly AnyNodeType[] = [
  endpointNode,
  switchNode,
  variablesNode,
  delayNode,
  forNode,
  repeatNode,
  collectNode,
  subflowNode,
  webhookNode,
];

/** A registry of node types by `type`; a later definition of the same type replaces an earlier one. */
export function createNodeRegistry(definitions: readonly AnyNodeType[] = BUILTIN_NODE_TYPES): NodeRegistry {
  return new Map(definitions.map((definition) => [definition.type, definition]));
}
