import type { Connection, FlowNode } from '../model/flow-schema.js';
import { buildGraph, innermostLoops, loopBodies, topologicalOrder } from '../model/graph.js';
import type { AnyNodeType, NodeRegistry } from '../nodes/registry.js';
import type { StoredFlow } from '../store/types.js';
import { SvcError } from '../errors.js';
import { validationError } from '../model/field-problems.js';
import { formatJsonPath } from '../model/walk-strings.js';

export interface CompiledNode {
  node: FlowNode;
  definition: AnyNodeType;
  /** Config parsed by the node type's schema, defaults applied, templates unresolved. */
  config: unknown;
  incoming: Connection[];
  outgoing: Connection[];
  /** True when a wire leaves the `error` handle: a failure routes there instead of failing the run. */
  routesErrors: boolean;
  /** A webhook node in wait mode: it has a callback URL from the start of the run. */
  awaitsCallback: boolean;
}

/** A flow version prepared for running: configs parsed once, wires indexed, nodes in order. */
export interface CompiledFlow {
  flow: StoredFlow;
  /** Nodes in topological order. */
  order: CompiledNode[];
  byId: Map<string, CompiledNode>;
  byName: Map<string, CompiledNode>;
  /**
   * Nodes by level, in topological order: the top level under `null`, and under each loop node's
   * id the nodes of its body that are not inside a loop nested in it.
   */
  levels: Map<string | null, CompiledNode[]>;
}

/** Compiles a saved (hence valid) flow version. */
export function compileFlow(flow: StoredFlow, registry: NodeRegistry): CompiledFlow {
  const graph = buildGraph(flow.nodes, flow.connections);
  const { order, cyclic } = topologicalOrder(graph);
  if (cyclic.length > 0) throw new SvcError('VALIDATION_ERROR', `flow "${flow.name}" has a cycle`);
  const byId = new Map<string, CompiledNode>();
  for (const node of flow.nodes) {
    const definition = registry.get(node.type);
    if (!definition) throw new SvcError('VALIDATION_ERROR', `flow "${flow.name}": unknown node type "${node.type}"`);
    const outgoing = graph.outgoing.get(node.id)!;
    const parsed = definition.configSchema.safeParse(node.config);
    if (!parsed.success) {
      // Saved under a rule since tightened (a trigger path with a `..` segment): the flow runs
      // again once it is saved with the config corrected.
      const index = flow.nodes.indexOf(node);
      throw validationError(
        `flow "${flow.name}" version ${flow.version}`,
        parsed.error.issues.map((issue) => ({
          code: 'INVALID_CONFIG',
          message: issue.message,
          path: formatJsonPath(['nodes', index, 'config', ...issue.path]),
        })),
      );
    }
    const config = parsed.data;
    byId.set(node.id, {
      node,
      definition,
      config,
      awaitsCallback: node.type === 'component-webhook' && (config as { mode?: string }).mode === 'wait',
      incoming: graph.incoming.get(node.id)!,
      outgoing,
      routesErrors: outgoing.some((wire) => wire.sourceHandle === 'error'),
    });
  }
  const compiledOrder = order.map((id) => byId.get(id)!);
  const loops = compiledOrder.filter((entry) => entry.definition.loop !== undefined).map((entry) => entry.node.id);
  const levelOf = innermostLoops(order, loopBodies(graph, loops));
  const levels = new Map<string | null, CompiledNode[]>([
    [null, []],
    ...loops.map((id) => [id, []] as [string, CompiledNode[]]),
  ]);
  for (const entry of compiledOrder) levels.get(levelOf.get(entry.node.id) ?? null)!.push(entry);
  return {
    flow,
    order: compiledOrder,
    byId,
    byName: new Map(compiledOrder.map((entry) => [entry.node.name, entry])),
    levels,
  };
}
