import { describe, expect, it } from 'vitest';
import { BoundedMap } from './bounded-map.js';

describe('BoundedMap', () => {
  it('keeps the newest entries within its limit and lets the oldest go', () => {
    const map = new BoundedMap<number, string>(10);
    for (let key = 0; key < 100; key += 1) map.set(key, `v${key}`);
    // Everything but the newest ten is gone (asking for a missing key changes nothing)...
    for (let key = 0; key < 90; key += 1) expect(map.get(key)).toBeUndefined();
    // ...and at least the newest half of the limit is there.
    for (let key = 99; key >= 95; key -= 1) expect(map.get(key)).toBe(`v${key}`);
  });

  it('keeps an entry that is read while newer ones come and go', () => {
    const map = new BoundedMap<string, number>(4);
    map.set('hot', 1);
    for (let key = 0; key < 50; key += 1) {
      map.set(`cold${key}`, key);
      expect(map.get('hot')).toBe(1);
    }
    expect(map.get('cold0')).toBeUndefined();
  });

  it('answers the latest value of a key set twice', () => {
    const map = new BoundedMap<string, number>(4);
    map.set('a', 1);
    map.set('b', 2);
    map.set('c', 3);
    map.set('a', 4);
    expect(map.get('a')).toBe(4);
    expect(map.get('b')).toBe(2);
  });

  it('refuses a limit under 2', () => {
    expect(() => new BoundedMap(1)).toThrow(RangeError);
    expect(() => new BoundedMap(2.5)).toThrow(RangeError);
  });
});
