import type { PlanBinding, PlanStep } from './plan-types.js';
import { isSearch } from './producer-kinds.js';

/**
 * Producers before consumers (Kahn's algorithm); among steps that are ready, the earlier clause
 * first, then producers before the step they serve, then look-ups by name (searches) first.
 */
export function orderSteps(steps: PlanStep[], bindings: PlanBinding[]): PlanStep[] {
  const consumersOf = new Map<PlanStep, PlanStep[]>();
  const pending = new Map<PlanStep, number>();
  for (const step of steps) pending.set(step, 0);
  const edges = new Set<string>();
  for (const binding of bindings) {
    const key = `${binding.from.key}>${binding.to.key}`;
    if (edges.has(key)) continue;
    edges.add(key);
    consumersOf.set(binding.from, [...(consumersOf.get(binding.from) ?? []), binding.to]);
    pending.set(binding.to, (pending.get(binding.to) ?? 0) + 1);
  }
  const priority = (step: PlanStep): number[] => [
    step.clause,
    step.role === 'producer' ? 0 : 1,
    isSearch(step.profile) ? 0 : 1,
    step.key,
  ];
  const compare = (a: PlanStep, b: PlanStep): number => {
    const pa = priority(a);
    const pb = priority(b);
    for (let i = 0; i < pa.length; i += 1) if (pa[i] !== pb[i]) return (pa[i] ?? 0) - (pb[i] ?? 0);
    return 0;
  };
  const ready = steps.filter((step) => pending.get(step) === 0);
  const ordered: PlanStep[] = [];
  while (ready.length > 0) {
    ready.sort(compare);
    const step = ready.shift()!;
    ordered.push(step);
    for (const consumer of consumersOf.get(step) ?? []) {
      const left = (pending.get(consumer) ?? 1) - 1;
      pending.set(consumer, left);
      if (left === 0) ready.push(consumer);
    }
  }
  return ordered;
}
