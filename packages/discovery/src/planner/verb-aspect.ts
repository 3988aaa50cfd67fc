import { isStopword, stem, words } from './text.js';
import { isVerb } from './word-relations.js';

/**
 * Whether a verb speaks of something under way or ahead (`expiring`, `now loading`, `about to
 * expire`, `being loaded`) or of something over (`expired`, `recently loaded`). The stemmer makes
 * `expiring` and `expired` one term; this keeps what the form of the word says.
 */
export type Aspect = 'ongoing' | 'done';

/**
 * Whether one of `terms` is a verb the clause and the endpoint use in different aspects (`about to
 * expire` and `List of expired memberships`): the endpoint speaks of another time.
 */
export function speaksOfOtherTime(
  clauseAspects: Readonly<Record<string, Aspect>>,
  endpointAspects: Readonly<Record<string, Aspect>>,
  terms: readonly string[],
): boolean {
  return terms.some(
    (term) =>
      clauseAspects[term] !== undefined &&
      endpointAspects[term] !== undefined &&
      clauseAspects[term] !== endpointAspects[term],
  );
}

/** Words before a verb's base form that put it ahead: `about to expire`, `going to ship`, `will close`. */
const AHEAD = /^(about|going)$/;

/**
 * The aspect of each verb of a text, by its stemmed term; a term the text uses in both aspects is
 * left out.
 *
 * @example
 * aspectsOf('Which memberships are about to expire?'); // { expir: 'ongoing' }
 * aspectsOf('List of expired memberships'); // { expir: 'done' }
 */
export function aspectsOf(text: string): Record<string, Aspect> {
  const found: Record<string, Aspect> = {};
  const mixed = new Set<string>();
  const all = words(text);
  all.forEach((word, at) => {
    if (isStopword(word)) return;
    const aspect = aspectOf(word, all.slice(Math.max(0, at - 3), at));
    if (aspect === undefined) return;
    const term = stem(word);
    if (found[term] !== undefined && found[term] !== aspect) mixed.add(term);
    found[term] = aspect;
  });
  for (const term of mixed) delete found[term];
  return found;
}

function aspectOf(word: string, before: string[]): Aspect | undefined {
  const [third, second, first] = [before.at(-3), before.at(-2), before.at(-1)];
  if (word.endsWith('ing') && isVerbBase(word.slice(0, -3))) return 'ongoing';
  if (word.endsWith('ed') && isVerbBase(word.slice(0, -2))) {
    // `being loaded`, `about to be shipped`: under way or ahead, though passive.
    if (first === 'being' || (first === 'be' && second === 'to' && AHEAD.test(third ?? ''))) return 'ongoing';
    return 'done';
  }
  if (first === 'will' || (first === 'to' && AHEAD.test(second ?? ''))) return isVerb(word) ? 'ongoing' : undefined;
  return undefined;
}

/** Whether what is left of a word without its ending is a verb: `expir` (expire), `stopp` (stop), `cook`. */
function isVerbBase(base: string): boolean {
  if (base.length < 2) return false;
  if (isVerb(base) || isVerb(`${base}e`)) return true;
  return /([bdgklmnprt])\1$/.test(base) && isVerb(base.slice(0, -1));
}
