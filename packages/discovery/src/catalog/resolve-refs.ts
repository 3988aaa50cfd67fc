import { childPointer, isObject, readPointer } from './json-pointer.js';
import type { JsonObject, OpenApiProblem } from './types.js';

/** Maps whose keys are names the author chose (a property called `example` is still a schema). */
const NAME_MAPS = new Set([
  'properties',
  'patternProperties',
  'definitions',
  '$defs',
  'paths',
  'schemas',
  'parameters',
  'responses',
  'requestBodies',
  'headers',
  'examples',
  'securitySchemes',
  'links',
  'callbacks',
]);

/**
 * Extensions (`x-…`) and examples are data to OpenAPI, not part of the description: a `$ref` in
 * them is not a reference to follow. Large real specs point from extensions to files beside them
 * (Spotify's `x-spotify-policy`), and refusing the whole document for that would help nobody.
 */
function isOpaque(key: string): boolean {
  return key.startsWith('x-') || key === 'example';
}

/**
 * Replaces every internal `$ref` of `root` by a copy of its target. A reference met again while
 * its own target is being expanded is a cycle (a tree node whose children are tree nodes); it is
 * left as `{ $ref, 'x-circular': true }` so the result is finite and still says what it recurses
 * into. Sibling keys next to a `$ref` (allowed in 3.1) are kept over the target's.
 *
 * Expansions that met no cycle are cached per reference: large specs reuse the same schemas
 * hundreds of times, and re-expanding each use would grow with the depth of sharing.
 */
export function resolveRefs(root: JsonObject): { resolved: JsonObject; problems: OpenApiProblem[] } {
  const problems: OpenApiProblem[] = [];
  const cache = new Map<string, unknown>();
  const reported = new Set<string>();

  function report(path: string, message: string): void {
    const key = `${path}\n${message}`;
    if (reported.has(key)) return;
    reported.add(key);
    problems.push({ path, message });
  }

  /** `cyclic` is set when the expansion contains a circular marker (so it must not be cached). */
  function walk(node: unknown, path: string, active: string[], cyclic: { value: boolean }): unknown {
    if (Array.isArray(node)) return node.map((item, index) => walk(item, childPointer(path, index), active, cyclic));
    if (!isObject(node)) return node;
    const ref = node.$ref;
    if (typeof ref === 'string') {
      const siblings = Object.fromEntries(Object.entries(node).filter(([key]) => key !== '$ref'));
      const target = expand(ref, path, active, cyclic);
      if (target === undefined) return node;
      if (Object.keys(siblings).length === 0) return target;
      const walkedSiblings = walk(siblings, path, active, cyclic) as JsonObject;
      return isObject(target) ? { ...target, ...walkedSiblings } : target;
    }
    const out: JsonObject = {};
    const keysAreNames = NAME_MAPS.has(path.slice(path.lastIndexOf('/') + 1));
    for (const [key, value] of Object.entries(node)) {
      out[key] = !keysAreNames && isOpaque(key) ? value : walk(value, childPointer(path, key), active, cyclic);
    }
    return out;
  }

  function expand(ref: string, path: string, active: string[], cyclic: { value: boolean }): unknown {
    if (!ref.startsWith('#')) {
      report(path, `external reference "${ref}" is not supported: only references inside the document are resolved`);
      return undefined;
    }
    if (active.includes(ref)) {
      cyclic.value = true;
      return { $ref: ref, 'x-circular': true };
    }
    if (cache.has(ref)) return cache.get(ref);
    const target = readPointer(root, ref);
    if (target === undefined) {
      report(path, `reference "${ref}" points to nothing in the document`);
      return undefined;
    }
    const own = { value: false };
    const expanded = walk(target, ref, [...active, ref], own);
    if (own.value) cyclic.value = true;
    else cache.set(ref, expanded);
    return expanded;
  }

  const resolved = walk(root, '#', [], { value: false }) as JsonObject;
  return { resolved, problems };
}
