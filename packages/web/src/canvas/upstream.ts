/** The ids of nodes upstream of `nodeId` along wires (what its expressions may read). */
export function upstreamOf(nodeId: string, wires: readonly { source: string; target: string }[]): Set<string> {
  const into = new Map<string, string[]>();
  for (const wire of wires) into.set(wire.target, [...(into.get(wire.target) ?? []), wire.source]);
  const seen = new Set<string>();
  const queue = [...(into.get(nodeId) ?? [])];
  while (queue.length > 0) {
    const next = queue.pop()!;
    if (seen.has(next) || next === nodeId) continue;
    seen.add(next);
    queue.push(...(into.get(next) ?? []));
  }
  return seen;
}
