const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * RFC 7396 JSON merge patch: objects merge key by key, `null` removes a key, anything else
 * (arrays included) replaces the value. The target is not changed; a new value is answered.
 * @example
 * applyMergePatch({ a: 1, b: { c: 2 } }, { b: { c: null, d: 3 } }); // { a: 1, b: { d: 3 } }
 */
export function applyMergePatch(target: unknown, patch: unknown): unknown {
  if (!isObject(patch)) return patch;
  const result: Record<string, unknown> = isObject(target) ? { ...target } : {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete result[key];
    else result[key] = applyMergePatch(result[key], value);
  }
  return result;
}
