/**
 * A map that keeps about its `limit` most recently used entries, in two generations: entries go
 * into the newer one, and when that holds half the limit it becomes the older one and the oldest
 * generation is let go whole. An entry read from the older generation moves to the newer, so
 * what is in use stays. Every operation is O(1).
 *
 * A `Map` trimmed oldest-first (`map.delete(map.keys().next().value)`) is not: the iterator
 * walks past every entry deleted before it until the table is rebuilt, so each insert costs
 * more the more entries are kept.
 * @example
 * const known = new BoundedMap<string, string>(20_000);
 * known.set('e1', 'acme');
 * known.get('e1'); // 'acme'
 */
export class BoundedMap<K, V extends NonNullable<unknown>> {
  private newer = new Map<K, V>();
  private older = new Map<K, V>();
  private readonly generation: number;

  constructor(limit: number) {
    if (!Number.isInteger(limit) || limit < 2)
      throw new RangeError(`a bounded map keeps at least 2 entries, not ${limit}`);
    this.generation = Math.floor(limit / 2);
  }

  get(key: K): V | undefined {
    const value = this.newer.get(key);
    if (value !== undefined) return value;
    const old = this.older.get(key);
    if (old !== undefined) this.set(key, old);
    return old;
  }

  set(key: K, value: V): void {
    if (this.newer.size >= this.generation && !this.newer.has(key)) {
      this.older = this.newer;
      this.newer = new Map();
    }
    this.newer.set(key, value);
  }
}
