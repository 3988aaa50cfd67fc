import { isStopword } from './text.js';
import { isNoun, isVerb } from './word-relations.js';

/**
 * The words that say which one of an entity a requirement means: `the driver OF THE TRUCK NOW
 * LOADING`, `the nurse THAT TREATED THE LATEST PATIENT`, `the first parcel IN THE LATEST
 * SHIPMENT`, `the chefs INVOLVED IN THE RECIPE …`. They describe where the entity's value comes from
 * (the producer), not what the action does with it.
 */

/** Words that open a phrase qualifying the noun before them. */
const OPENERS = /^(of|from|in|on|by|that|which|who|whose|whom|where)$/;
/** Words that open another argument of the verb (`… to my menu`, `… with the email …`): the phrase ends there. */
const CLOSERS = /^(to|into|onto|for|with|and|then)$/;

/**
 * The tokens after `position` that qualify the noun there, up to the next argument of the verb or
 * the clause's end; empty when the noun is not qualified. A participle right after the noun
 * (`the trucks currently loading`, `the chefs involved in …`) opens a phrase too.
 */
export function qualifierTokens(
  tokens: readonly string[],
  position: number,
  isEntityWord: (word: string) => boolean,
): string[] {
  return [...participleBefore(tokens, position), ...phraseAfter(tokens, position, isEntityWord)];
}

/**
 * `all FOLLOWING authors`, `my SAVED recipes`: a participle right before the noun says which ones
 * as a phrase after it would (`the authors I follow`). Not the clause's first word, its verb.
 */
function participleBefore(tokens: readonly string[], position: number): string[] {
  const before = tokens[position - 1];
  if (position < 2 || before === undefined || !/^[a-z]+(ing|ed)$/.test(before)) return [];
  return !isStopword(before) && isVerb(before) ? [before] : [];
}

function phraseAfter(tokens: readonly string[], position: number, isEntityWord: (word: string) => boolean): string[] {
  const bare = (token: string | undefined): string => (token ?? '').toLowerCase().replace(/[^a-z']/g, '');
  // `… to a branch: show that branch's details`: a noun that ends a phrase is qualified by nothing after it.
  if (/[,;:.!?]$/.test(tokens[position] ?? '')) return [];
  // `the book details OF THE LOAN …`: the phrase qualifies the noun the entity's name modifies
  // (but in `the ward nurse that …` it qualifies the nurse, an entity of its own).
  const head = bare(tokens[position + 1]);
  if (
    /^[a-z]+$/.test(tokens[position + 1] ?? '') &&
    !OPENERS.test(head) &&
    !isStopword(head) &&
    isNoun(head) &&
    !isEntityWord(head) &&
    OPENERS.test(bare(tokens[position + 2]))
  )
    return phraseAfter(tokens, position + 1, isEntityWord);
  const next = bare(tokens[position + 1]);
  const afterNext = bare(tokens[position + 2]);
  const opens =
    OPENERS.test(next) ||
    (/(ing|ed)$/.test(next) && isVerb(next)) ||
    (/ly$|^now$/.test(next) && /(ing|ed)$/.test(afterNext) && isVerb(afterNext));
  if (!opens) return [];
  const span: string[] = [];
  for (let at = position + 1; at < tokens.length; at += 1) {
    const token = tokens[at] ?? '';
    if (at > position + 1 && CLOSERS.test(bare(token))) break;
    span.push(token);
    if (/[,;:.!?]$/.test(token)) break;
  }
  return span;
}
