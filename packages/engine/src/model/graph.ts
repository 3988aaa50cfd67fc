import type { Connection, FlowNode } from './flow-schema.js';

/** Adjacency of a flow's wires, by node id. Wires to unknown nodes are left out. */
export interface FlowGraph {
  nodeIds: string[];
  incoming: Map<string, Connection[]>;
  outgoing: Map<string, Connection[]>;
}

export function buildGraph(nodes: readonly Pick<FlowNode, 'id'>[], connections: readonly Connection[]): FlowGraph {
  const nodeIds = nodes.map((node) => node.id);
  const incoming = new Map<string, Connection[]>(nodeIds.map((id) => [id, []]));
  const outgoing = new Map<string, Connection[]>(nodeIds.map((id) => [id, []]));
  for (const wire of connections) {
    if (!incoming.has(wire.target) || !outgoing.has(wire.source)) continue;
    outgoing.get(wire.source)!.push(wire);
    incoming.get(wire.target)!.push(wire);
  }
  return { nodeIds, incoming, outgoing };
}

/**
 * Kahn's algorithm. `order` holds every node not on a cycle; `cyclic` the ids that could not be
 * ordered (on a cycle or downstream of one).
 */
export function topologicalOrder(graph: FlowGraph): { order: string[]; cyclic: string[] } {
  const remaining = new Map(graph.nodeIds.map((id) => [id, graph.incoming.get(id)!.length]));
  const queue = graph.nodeIds.filter((id) => remaining.get(id) === 0);
  const order: string[] = [];
  while (queue.length > 0) {
    const id = queue.shift()!;
    order.push(id);
    for (const wire of graph.outgoing.get(id)!) {
      const left = remaining.get(wire.target)! - 1;
      remaining.set(wire.target, left);
      if (left === 0) queue.push(wire.target);
    }
  }
  const ordered = new Set(order);
  return { order, cyclic: graph.nodeIds.filter((id) => !ordered.has(id)) };
}

/** The nodes on one cycle among `candidates` (ids Kahn's algorithm could not order), in wire order. */
export function findCycle(graph: FlowGraph, candidates: readonly string[]): string[] {
  const inCandidates = new Set(candidates);
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (id: string): string[] | undefined => {
    state.set(id, 'open');
    stack.push(id);
    for (const wire of graph.outgoing.get(id) ?? []) {
      if (!inCandidates.has(wire.target)) continue;
      const seen = state.get(wire.target);
      if (seen === 'open') return stack.slice(stack.indexOf(wire.target));
      if (seen === undefined) {
        const cycle = visit(wire.target);
        if (cycle) return cycle;
      }
    }
    stack.pop();
    state.set(id, 'done');
    return undefined;
  };
  for (const id of candidates) {
    if (state.has(id)) continue;
    const cycle = visit(id);
    if (cycle) return cycle;
  }
  return [];
}

/** Every node from which `id` can be reached (its upstream), over an acyclic graph. */
export function ancestorsOf(graph: FlowGraph, id: string, memo = new Map<string, Set<string>>()): Set<string> {
  const known = memo.get(id);
  if (known) return known;
  const result = new Set<string>();
  memo.set(id, result);
  for (const wire of graph.incoming.get(id) ?? []) {
    result.add(wire.source);
    for (const ancestor of ancestorsOf(graph, wire.source, memo)) result.add(ancestor);
  }
  return result;
}

/**
 * The body of each loop node: every node its `L` handle reaches, following all wires. Bodies
 * nest: an inner loop and its body lie inside its outer loop's body.
 */
export function loopBodies(graph: FlowGraph, loopNodeIds: Iterable<string>): Map<string, Set<string>> {
  const bodies = new Map<string, Set<string>>();
  for (const loopId of loopNodeIds) {
    const body = new Set<string>();
    const queue = (graph.outgoing.get(loopId) ?? [])
      .filter((wire) => wire.sourceHandle === 'L')
      .map((wire) => wire.target);
    while (queue.length > 0) {
      const id = queue.pop()!;
      if (body.has(id) || id === loopId) continue;
      body.add(id);
      for (const wire of graph.outgoing.get(id) ?? []) queue.push(wire.target);
    }
    bodies.set(loopId, body);
  }
  return bodies;
}

/** The innermost loop whose body holds each node (null at the top level). */
export function innermostLoops(
  nodeIds: readonly string[],
  bodies: Map<string, Set<string>>,
): Map<string, string | null> {
  const levelOf = new Map<string, string | null>();
  for (const id of nodeIds) {
    let innermost: string | null = null;
    for (const [loopId, body] of bodies) {
      if (body.has(id) && (innermost === null || bodies.get(innermost)!.has(loopId))) innermost = loopId;
    }
    levelOf.set(id, innermost);
  }
  return levelOf;
}
