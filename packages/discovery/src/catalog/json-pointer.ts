import type { JsonObject } from './types.js';

/**
 * Sets `key` on a copy being built as an own property, whatever the key: `out[key] = …` with the
 * key `__proto__` (a spec may hold one, and JSON.parse keeps it as data) would set the copy's
 * prototype instead, and what it holds would read as the copy's own fields.
 */
export function putOwn(target: JsonObject, key: string, value: unknown): void {
  if (key === '__proto__')
    Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function escapePointerToken(token: string): string {
  return token.replace(/~/g, '~0').replace(/\//g, '~1');
}

export function pointer(...tokens: Array<string | number>): string {
  return '#' + tokens.map((token) => '/' + escapePointerToken(String(token))).join('');
}

export function childPointer(base: string, token: string | number): string {
  return `${base}/${escapePointerToken(String(token))}`;
}

/** Reads the value at an internal reference (`#/a/b~1c`); undefined when nothing is there. */
export function readPointer(root: unknown, ref: string): unknown {
  if (ref === '#') return root;
  if (!ref.startsWith('#/')) return undefined;
  let current: unknown = root;
  for (const raw of ref.slice(2).split('/')) {
    let token: string;
    try {
      token = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    } catch {
      return undefined;
    }
    if (Array.isArray(current)) {
      const index = Number(token);
      if (!Number.isInteger(index)) return undefined;
      current = current[index];
    } else if (isObject(current) && Object.prototype.hasOwnProperty.call(current, token)) {
      current = current[token];
    } else {
      return undefined;
    }
  }
  return current;
}
