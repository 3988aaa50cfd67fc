import { z } from 'zod';

/** Edit distance between two words, compared case-insensitively (so `flowid` is no distance from `flowId`). */
function distance(a: string, b: string): number {
  const x = a.toLowerCase();
  const y = b.toLowerCase();
  let previous = Array.from({ length: y.length + 1 }, (_, index) => index);
  for (let i = 1; i <= x.length; i += 1) {
    const current = [i];
    for (let j = 1; j <= y.length; j += 1) {
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (x[i - 1] === y[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[y.length]!;
}

/** The known key closest to `key`, when it is close enough to be a slip (at most a third of its letters off). */
export function closestKey(key: string, known: readonly string[]): string | undefined {
  let best: { name: string; cost: number } | undefined;
  for (const name of known) {
    const cost = distance(key, name);
    if (best === undefined || cost < best.cost) best = { name, cost };
  }
  return best !== undefined && best.cost <= Math.max(1, Math.floor(key.length / 3)) ? best.name : undefined;
}

/** `unknown key flowid; did you mean flowId?`, one clause per unknown key. */
export function unknownKeysMessage(keys: readonly string[], known: readonly string[]): string {
  return keys
    .map((key) => {
      const near = closestKey(key, known);
      return `unknown key ${key}${near === undefined ? `; known keys: ${known.join(', ')}` : `; did you mean ${near}?`}`;
    })
    .join('; ');
}

/**
 * An object that refuses keys it does not know, naming each with the key it was likely meant to
 * be, instead of dropping it silently (a dropped `flowid` reads as a missing `flowId`).
 * @example
 * strictInput({ flowId: z.string() }).safeParse({ flowid: 'x' }); // "unknown key flowid; did you mean flowId?"
 */
export function strictInput<S extends z.ZodRawShape>(shape: S) {
  const known = Object.keys(shape);
  return z.strictObject(shape, {
    error: (issue) => (issue.code === 'unrecognized_keys' ? unknownKeysMessage(issue.keys, known) : undefined),
  });
}
