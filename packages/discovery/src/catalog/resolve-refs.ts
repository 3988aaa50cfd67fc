import { childPointer, isObject, putOwn, readPointer } from './json-pointer.js';
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
 * Every reference is expanded once and its expansion shared by every use: large specs reuse the
 * same schemas hundreds of times, and schemas that refer to one another in a ring (a document
 * model's nodes, a cloud API's resources) would otherwise be expanded again along every path
 * through the ring, which grows exponentially with its size (a 200 KB document could take
 * gigabytes). An expansion made inside a cycle keeps its marker where the cycle closed, also
 * where it is used outside that cycle: the result stays finite, in time and size linear in the
 * document, and the marker still says what the schema recurses into.
 */
/** References expanded inside one another at most; a deeper one is left as `{ $ref, "x-truncated": true }`. */
export const MAX_REFERENCE_DEPTH = 64;

/**
 * Keys the references that have keys beside `$ref` copy from their targets, in all. Such a
 * reference cannot share its target (its own keys win over the target's), and a few hundred
 * kilobytes of them pointing at one wide target would otherwise copy it thousands of times.
 */
export const MAX_MERGED_KEYS = 1_000_000;

export function resolveRefs(root: JsonObject): { resolved: JsonObject; problems: OpenApiProblem[] } {
  const problems: OpenApiProblem[] = [];
  const cache = new Map<string, unknown>();
  const reported = new Set<string>();
  const keyCounts = new WeakMap<object, number>();
  let merged = 0;

  function report(path: string, message: string): void {
    const key = `${path}\n${message}`;
    if (reported.has(key)) return;
    reported.add(key);
    problems.push({ path, message });
  }

  function walk(node: unknown, path: string, active: string[]): unknown {
    if (Array.isArray(node)) return node.map((item, index) => walk(item, childPointer(path, index), active));
    if (!isObject(node)) return node;
    const ref = node.$ref;
    if (typeof ref === 'string') {
      const siblings = Object.fromEntries(Object.entries(node).filter(([key]) => key !== '$ref'));
      const target = expand(ref, path, active);
      if (target === undefined) return node;
      if (Object.keys(siblings).length === 0) return target;
      const walkedSiblings = walk(siblings, path, active) as JsonObject;
      if (!isObject(target)) return target;
      let keys = keyCounts.get(target);
      if (keys === undefined) {
        keys = Object.keys(target).length;
        keyCounts.set(target, keys);
      }
      // Past the cap the document is refused: one problem, at the reference that passed it.
      if (merged > MAX_MERGED_KEYS) return target;
      merged += keys;
      if (merged > MAX_MERGED_KEYS) {
        report(
          path,
          `references with keys beside "$ref" copy what they refer to, and here the copies pass ${MAX_MERGED_KEYS} keys`,
        );
        return target;
      }
      return { ...target, ...walkedSiblings };
    }
    const out: JsonObject = {};
    const keysAreNames = NAME_MAPS.has(path.slice(path.lastIndexOf('/') + 1));
    for (const [key, value] of Object.entries(node)) {
      putOwn(out, key, !keysAreNames && isOpaque(key) ? value : walk(value, childPointer(path, key), active));
    }
    return out;
  }

  function expand(ref: string, path: string, active: string[]): unknown {
    if (!ref.startsWith('#')) {
      report(path, `external reference "${ref}" is not supported: only references inside the document are resolved`);
      return undefined;
    }
    if (active.includes(ref)) return { $ref: ref, 'x-circular': true };
    // A chain of thousands of references, each inside the last, would nest the walk past the stack.
    if (active.length >= MAX_REFERENCE_DEPTH) return { $ref: ref, 'x-truncated': true };
    if (cache.has(ref)) return cache.get(ref);
    const target = readPointer(root, ref);
    if (target === undefined) {
      report(path, `reference "${ref}" points to nothing in the document`);
      return undefined;
    }
    const expanded = walk(target, ref, [...active, ref]);
    cache.set(ref, expanded);
    return expanded;
  }

  const resolved = walk(root, '#', []) as JsonObject;
  return { resolved, problems };
}
