import type { EndpointProfile } from './endpoint-profile.js';
import { staticSegments } from './endpoint-profile.js';
import type { RequirementClause } from './parse-requirement.js';
import { singular, stem, words } from './text.js';
import { isNoun, isVerb, relatedTerms } from './word-relations.js';

/**
 * `Member M RESERVES a copy at a branch`: a verb that relates the entity the requirement gives
 * to the one an action needs names the relation, and the catalog names its endpoints after such
 * relations (`/members/{id}/reservations`, `/orders/{id}/refunds`). Of the producers that offer the
 * needed value, the one whose path is that verb's noun is the relation the requirement means.
 */

/** How near two words must be in WordNet (a derivation is 0.75) to count as one word family. */
const FAMILY = 0.7;

/** Whether two words are one family: the same stem, or one derived from the other (`reserve`, `reservations`). */
export function sameFamily(word: string, other: string): boolean {
  const a = stem(word.toLowerCase());
  const b = stem(other.toLowerCase());
  if (a === b) return true;
  return (relatedTerms(word).get(b) ?? 0) >= FAMILY || (relatedTerms(other).get(a) ?? 0) >= FAMILY;
}

/**
 * The clause's verbs besides the one that asks for the action (`show`), and besides the words the
 * consumer itself matched: the relations it speaks of, as written. A word that is also a noun
 * counts only in a verb's inflection (`reserves`, `treated`), and no entity's name counts.
 */
export function relationVerbs(
  clause: RequirementClause,
  consumerWords: readonly string[],
  isEntity: (term: string) => boolean,
): string[] {
  return clause.terms
    .filter((term) => term !== clause.verb && !consumerWords.includes(term) && !isEntity(stem(singular(term))))
    .map((term) => clause.surface[term] ?? term)
    .filter(
      (word) =>
        /^[a-z]+$/.test(word) &&
        isVerb(word) &&
        (/(s|ed|ing)$/.test(word) || !isNoun(word)) &&
        !isEntity(stem(singular(word))),
    );
}

/** Whether a static segment of the producer's path is one of the relation verbs' family. */
export function namesRelation(profile: EndpointProfile, verbs: readonly string[]): boolean {
  if (verbs.length === 0) return false;
  const segmentWords = staticSegments(profile.endpoint.path).flatMap((segment) => words(segment));
  return verbs.some((verb) => segmentWords.some((word) => sameFamily(verb, word)));
}
