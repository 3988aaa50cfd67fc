import { isObject } from './json-pointer.js';

/** Most JSON values one endpoint's parameters, body and responses keep together. */
export const MAX_ENDPOINT_SCHEMA_NODES = 10_000;
/** Most JSON values all endpoints of one document keep together. */
export const MAX_DOCUMENT_SCHEMA_NODES = 1_000_000;

/** What stands where a schema was cut: the reader sees that something was there. */
export const TRUNCATED = Object.freeze({ 'x-truncated': true });

/**
 * How many JSON values `value` holds once written out. Resolved references are shared objects
 * (`resolveRefs` expands each once), so a document of a few hundred kilobytes can stand for
 * billions of values written out: sizes are memoised per object and capped, never walked out.
 */
export function expandedSize(value: unknown, memo: WeakMap<object, number>, cap: number): number {
  if (value === null || typeof value !== 'object') return 1;
  const known = memo.get(value);
  if (known !== undefined) return known;
  let size = 1;
  for (const child of Array.isArray(value) ? value : Object.values(value)) {
    size += expandedSize(child, memo, cap);
    if (size >= cap) break;
  }
  size = Math.min(size, cap);
  memo.set(value, size);
  return size;
}

/**
 * Copies `roots` as plain trees of at most `maxNodes` values in all, breadth first: the upper
 * levels of every root are kept whole before any deeper one, and what the budget does not reach
 * becomes `{ "x-truncated": true }`. A small root comes back whole.
 */
export function copyWithinBudget(roots: readonly unknown[], maxNodes: number): unknown[] {
  let left = maxNodes;
  const holder: unknown[] = [];
  const queue: Array<{ from: unknown; into: Record<string, unknown> | unknown[]; key: string | number }> = roots.map(
    (from, key) => ({ from, into: holder, key }),
  );
  for (let head = 0; head < queue.length; head += 1) {
    const { from, into, key } = queue[head]!;
    const put = (value: unknown) => {
      if (Array.isArray(into)) into[key as number] = value;
      else into[key as string] = value;
    };
    if (from === null || typeof from !== 'object') {
      // A plain value costs its place but is never cut: its parent, already kept, bounds them.
      left -= 1;
      put(from);
      continue;
    }
    if (left <= 0) {
      put(TRUNCATED);
      continue;
    }
    left -= 1;
    if (Array.isArray(from)) {
      const copy: unknown[] = [];
      put(copy);
      from.forEach((item, index) => queue.push({ from: item, into: copy, key: index }));
    } else if (isObject(from)) {
      const copy: Record<string, unknown> = {};
      put(copy);
      for (const [name, item] of Object.entries(from)) queue.push({ from: item, into: copy, key: name });
    }
  }
  return holder;
}

/**
 * The node budget of each endpoint's schemas: `MAX_ENDPOINT_SCHEMA_NODES`, lowered for every
 * endpoint alike when the document's endpoints would together keep more than
 * `MAX_DOCUMENT_SCHEMA_NODES` (small endpoints keep what they have).
 */
export function endpointBudget(sizes: readonly number[]): number {
  const kept = (cap: number) => sizes.reduce((sum, size) => sum + Math.min(size, cap), 0);
  if (kept(MAX_ENDPOINT_SCHEMA_NODES) <= MAX_DOCUMENT_SCHEMA_NODES) return MAX_ENDPOINT_SCHEMA_NODES;
  let low = 1;
  let high = MAX_ENDPOINT_SCHEMA_NODES;
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (kept(middle) <= MAX_DOCUMENT_SCHEMA_NODES) low = middle;
    else high = middle - 1;
  }
  return low;
}
