import { SvcError } from '../../errors.js';

export type PathSegment = string | number;

/**
 * Splits a path such as `items[0].id`, `.data['x-y']` or `["a.b"]` into segments. It is a plain
 * parser over the text: nothing in a path is ever evaluated.
 */
export function parsePath(path: string): PathSegment[] {
  const segments: PathSegment[] = [];
  let index = 0;
  const fail = (reason: string): never => {
    throw new SvcError('INVALID_PATH', `invalid path "${path}": ${reason}`);
  };
  while (index < path.length) {
    const char = path[index];
    if (char === '[') {
      index += 1;
      const quote = path[index];
      if (quote === "'" || quote === '"') {
        index += 1;
        let key = '';
        while (index < path.length && path[index] !== quote) {
          // A backslash lets a quoted key hold its own quote character.
          if (path[index] === '\\' && index + 1 < path.length) index += 1;
          key += path[index];
          index += 1;
        }
        if (path[index] !== quote) fail('unclosed quote');
        index += 1;
        if (path[index] !== ']') fail(`expected ] at ${index}`);
        index += 1;
        segments.push(key);
      } else {
        const close = path.indexOf(']', index);
        if (close === -1) fail('unclosed [');
        const text = path.slice(index, close).trim();
        if (!/^\d+$/.test(text)) fail(`index "${text}" is not a whole number; quote keys as ['key']`);
        segments.push(Number(text));
        index = close + 1;
      }
      continue;
    }
    if (char === '.') {
      index += 1;
      if (index >= path.length || path[index] === '.' || path[index] === '[') fail(`empty key at ${index}`);
    }
    let key = '';
    while (index < path.length && path[index] !== '.' && path[index] !== '[') {
      if (path[index] === ']') fail(`unexpected ] at ${index}`);
      key += path[index];
      index += 1;
    }
    if (key !== '') segments.push(key);
  }
  return segments;
}

/**
 * Reads a value at a path in plain data. Only own properties are read (so `__proto__` or
 * `constructor` find nothing); arrays and strings also answer `length`.
 * @example readPath({ items: [{ id: 'a' }] }, ['items', 0, 'id']) // 'a'
 */
export function readPath(value: unknown, segments: readonly PathSegment[]): unknown {
  let current = value;
  for (const segment of segments) {
    if (current === null || current === undefined) return undefined;
    if (Array.isArray(current)) {
      if (segment === 'length') current = current.length;
      else {
        const position = typeof segment === 'number' ? segment : /^\d+$/.test(segment) ? Number(segment) : -1;
        current = position >= 0 && position < current.length ? current[position] : undefined;
      }
    } else if (typeof current === 'string') {
      current = segment === 'length' ? current.length : undefined;
    } else if (typeof current === 'object') {
      const key = String(segment);
      current = Object.hasOwn(current, key) ? (current as Record<string, unknown>)[key] : undefined;
    } else {
      return undefined;
    }
  }
  return current;
}
