import { describe, expect, it } from 'vitest';
import { parsePath, readPath } from './read-path.js';

describe('parsePath', () => {
  it('splits dots, numeric indexes and quoted keys', () => {
    expect(parsePath('.items[0].id')).toEqual(['items', 0, 'id']);
    expect(parsePath('[\'a.b\']["c d"].e-f')).toEqual(['a.b', 'c d', 'e-f']);
    expect(parsePath("[ 12 ]['it\\'s']")).toEqual([12, "it's"]);
    expect(parsePath('')).toEqual([]);
  });

  it('rejects unclosed brackets, bare non-numeric indexes and empty keys', () => {
    expect(() => parsePath('.a[0')).toThrow(/unclosed \[/);
    expect(() => parsePath(".a['x]")).toThrow(/unclosed quote/);
    expect(() => parsePath('.a[x]')).toThrow(/not a whole number/);
    expect(() => parsePath('.a..b')).toThrow(/empty key/);
  });
});

describe('readPath', () => {
  const data = { items: [{ id: 'a' }, { id: 'b' }], name: 'abc', 'x-y': { z: null } };

  it('reads nested values, array lengths and string lengths', () => {
    expect(readPath(data, ['items', 1, 'id'])).toBe('b');
    expect(readPath(data, ['items', '0', 'id'])).toBe('a');
    expect(readPath(data, ['items', 'length'])).toBe(2);
    expect(readPath(data, ['name', 'length'])).toBe(3);
    expect(readPath(data, ['x-y', 'z'])).toBeNull();
  });

  it('finds nothing past the end, through null, or on the prototype', () => {
    expect(readPath(data, ['items', 5, 'id'])).toBeUndefined();
    expect(readPath(data, ['x-y', 'z', 'deeper'])).toBeUndefined();
    expect(readPath(data, ['constructor'])).toBeUndefined();
    expect(readPath(data, ['__proto__'])).toBeUndefined();
    expect(readPath(data, ['items', 'map'])).toBeUndefined();
  });
});
