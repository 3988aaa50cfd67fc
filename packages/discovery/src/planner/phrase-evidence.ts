import { firstSentences, staticSegments, type EndpointProfile } from './endpoint-profile.js';
import type { RequirementClause } from './parse-requirement.js';
import { terms } from './text.js';
import { isAdjective, isVerb } from './word-relations.js';

/**
 * A describing word and its noun that the requirement says side by side and an endpoint says side
 * by side too, the describing word or one near it (`the current semester` and `Latest semester`, `my
 * favorite recipe` and `the user's top recipes`): evidence that the endpoint is the one the
 * requirement describes, stronger than each word found somewhere in it (`Current time` that
 * speaks of semesters elsewhere). Two nouns side by side say less: an API repeats its nouns together
 * everywhere (`patient record`, `ward`), and a verb's near words are too many (`attached` is no
 * `label`).
 */

/** Pairs of adjacent terms in an endpoint's summary, description and path; `''` stands for a break. */
const pairsOf = new WeakMap<EndpointProfile, ReadonlyArray<readonly [string, string]>>();

function endpointPairs(profile: EndpointProfile): ReadonlyArray<readonly [string, string]> {
  const known = pairsOf.get(profile);
  if (known !== undefined) return known;
  const { summary, description, path } = profile.endpoint;
  const pairs: Array<readonly [string, string]> = [];
  for (const text of [summary, firstSentences(description), staticSegments(path).join(' ')]) {
    const said = termsInOrder(text);
    for (let at = 1; at < said.length; at += 1) pairs.push([said[at - 1]!, said[at]!]);
  }
  pairsOf.set(profile, pairs);
  return pairs;
}

/** A text's terms in order; a sentence or clause break ends a phrase (no pair spans it). */
function termsInOrder(text: string): string[] {
  return text.split(/[.;:,()[\]<>]|\s-\s/).flatMap((part, at) => [...(at > 0 ? [''] : []), ...terms(part)]);
}

/**
 * Whether an endpoint says a describing word of the clause (an adjective that is no verb), or a
 * word near it, right before the clause's next term (`near(term)` holds the term and the catalog
 * words near it).
 */
export function saysPhrase(
  clause: RequirementClause,
  profile: EndpointProfile,
  near: (term: string) => ReadonlySet<string>,
): boolean {
  const asked = clause.terms;
  if (asked.length < 2) return false;
  const pairs = endpointPairs(profile);
  for (let at = 1; at < asked.length; at += 1) {
    const first = asked[at - 1]!;
    const second = asked[at]!;
    // `top recipes OF MY FAVORITE CHEF`: words that only qualify the object say which producer, not which action.
    if (first === second || clause.modifiers.includes(first) || clause.modifiers.includes(second)) continue;
    const surface = clause.surface[first];
    const describing = surface !== undefined && isAdjective(surface) && !isVerb(surface);
    if (!describing) continue;
    const firstNear = near(first);
    for (const [x, y] of pairs) if (y === second && x !== '' && x !== y && firstNear.has(x)) return true;
  }
  return false;
}
