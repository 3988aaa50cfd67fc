import { isObject, putOwn } from './json-pointer.js';

/** Most JSON values one endpoint's parameters, body and responses keep together. */
export const MAX_ENDPOINT_SCHEMA_NODES = 10_000;
/**
 * Most JSON values all endpoints of one document keep together: their schemas, and their
 * parameters, responses, servers, security and the rest, which are not cut.
 */
export const MAX_DOCUMENT_NODES = 1_000_000;
/**
 * A string counts one value more for every this many characters, and a key as many: a long
 * description that many schemas share is written out once per use, so counting it as one value
 * would bound the values kept but not what they weigh.
 */
export const CHARACTERS_PER_VALUE = 32;

/** What stands where a schema was cut: the reader sees that something was there. */
export const TRUNCATED = Object.freeze({ 'x-truncated': true });
/** What `TRUNCATED` weighs: an object and its `true`. */
const TRUNCATED_WEIGHT = 2;

/** What a key adds to the value it names (nothing for a key shorter than `CHARACTERS_PER_VALUE`). */
export function keyWeight(key: string): number {
  return Math.floor(key.length / CHARACTERS_PER_VALUE);
}

/**
 * What values weigh once written out, memoised per object: resolved references are shared
 * objects (`resolveRefs` expands each once), so a document of a few hundred kilobytes can stand
 * for billions of values written out, and thousands of places can share one object. Each object
 * is weighed once, however many places share it, and never walked out.
 */
export interface Weigher {
  /**
   * How many values `value` holds once written out, a long string or key counting for several
   * (`CHARACTERS_PER_VALUE`), capped at `MAX_DOCUMENT_NODES + 1`.
   */
  weight(value: unknown): number;
  /**
   * The least `value` can be written as: a plain value whole (it is never cut), an empty object
   * or array as itself, any other as `TRUNCATED`.
   */
  least(value: unknown): number;
  /** What the children of an object or array weigh at their least, keys included. */
  childrenLeast(value: object): number;
}

export function createWeigher(): Weigher {
  const cap = MAX_DOCUMENT_NODES + 1;
  const weights = new WeakMap<object, number>();
  const childrenWeights = new WeakMap<object, number>();
  const weight = (value: unknown): number => {
    if (value === null || typeof value !== 'object') return plainWeight(value);
    const known = weights.get(value);
    if (known !== undefined) return known;
    let sum = 1;
    if (Array.isArray(value)) {
      for (const item of value) {
        sum += weight(item);
        if (sum >= cap) break;
      }
    } else {
      for (const [key, item] of Object.entries(value)) {
        sum += keyWeight(key) + weight(item);
        if (sum >= cap) break;
      }
    }
    sum = Math.min(sum, cap);
    weights.set(value, sum);
    return sum;
  };
  const childrenLeast = (value: object): number => {
    const known = childrenWeights.get(value);
    if (known !== undefined) return known;
    let sum = 0;
    if (Array.isArray(value)) for (const item of value) sum += least(item);
    else for (const [key, item] of Object.entries(value)) sum += keyWeight(key) + least(item);
    childrenWeights.set(value, sum);
    return sum;
  };
  // `{}` of children that are all `undefined` is written out empty too.
  const least = (value: unknown): number =>
    value === null || typeof value !== 'object'
      ? plainWeight(value)
      : childrenLeast(value) === 0
        ? 1
        : TRUNCATED_WEIGHT;
  return { weight, least, childrenLeast };
}

/** A value that is not an object or array: `undefined` is not written out. */
function plainWeight(value: unknown): number {
  if (value === undefined) return 0;
  return typeof value === 'string' ? 1 + keyWeight(value) : 1;
}

/**
 * Copies `roots` as plain trees that weigh at most `maxNodes` values in all (`Weigher.weight`),
 * each `TRUNCATED` counted: breadth first, an object or array is copied when what it adds fits
 * what is left, its children counted at the least they can be written as, else it becomes
 * `TRUNCATED`. So the upper levels of every root are kept before any deeper one, a small root
 * comes back whole, and the work is bounded by what is written, never by what is left out.
 * `maxNodes` below what the roots weigh at their least keeps every root at its least.
 */
export function copyWithinBudget(
  roots: readonly unknown[],
  maxNodes: number,
  weigher: Weigher = createWeigher(),
): unknown[] {
  let left = maxNodes;
  for (const root of roots) left -= weigher.least(root);
  const holder: unknown[] = [];
  const queue: Array<{ from: unknown; into: Record<string, unknown> | unknown[]; key: string | number }> = roots.map(
    (from, key) => ({ from, into: holder, key }),
  );
  for (let head = 0; head < queue.length; head += 1) {
    const { from, into, key } = queue[head]!;
    const put = (value: unknown) => {
      if (Array.isArray(into)) into[key as number] = value;
      else putOwn(into, key as string, value);
    };
    // A plain value was paid for whole when its parent was copied.
    if (from === null || typeof from !== 'object') {
      put(from);
      continue;
    }
    // Copied, it weighs one for itself and its children at their least, in place of what was
    // set aside for it (an empty one adds nothing, and is never cut).
    const adds = 1 + weigher.childrenLeast(from) - weigher.least(from);
    if (adds > 0 && adds > left) {
      put(TRUNCATED);
      continue;
    }
    left -= adds;
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
 * The value budget of each endpoint's schemas: the most, up to `MAX_ENDPOINT_SCHEMA_NODES`, that
 * every endpoint alike may keep so that all of them together keep at most `available`. An
 * endpoint keeps `min(size, budget)` of its schemas, never less than `least`, what they weigh cut
 * to their markers (small endpoints keep what they have).
 */
export function endpointBudget(endpoints: ReadonlyArray<{ size: number; least: number }>, available: number): number {
  const kept = (cap: number) =>
    endpoints.reduce((sum, { size, least }) => sum + Math.max(least, Math.min(size, cap)), 0);
  if (kept(MAX_ENDPOINT_SCHEMA_NODES) <= available) return MAX_ENDPOINT_SCHEMA_NODES;
  let low = 1;
  let high = MAX_ENDPOINT_SCHEMA_NODES;
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (kept(middle) <= available) low = middle;
    else high = middle - 1;
  }
  return low;
}
