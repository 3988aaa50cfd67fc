import { isStopword } from './text.js';
import { isNoun, isVerb } from './word-relations.js';

/**
 * The words that say which one of an entity a requirement means: `the artist OF THE SONG NOW
 * PLAYING`, `the pool THAT PRODUCED THE LATEST BLOCK`, `the first transaction IN THE LATEST
 * BLOCK`, `the singers INVOLVED IN THE SONG …`. They describe where the entity's value comes from
 * (the producer), not what the action does with it.
 */

/** Words that open a phrase qualifying the noun before them. */
const OPENERS = /^(of|from|in|on|by|that|which|who|whose|whom|where)$/;
/** Words that open another argument of the verb (`… to my queue`, `… with the email …`): the phrase ends there. */
const CLOSERS = /^(to|into|onto|for|with|and|then)$/;

/**
 * The tokens after `position` that qualify the noun there, up to the next argument of the verb or
 * the clause's end; empty when the noun is not qualified. A participle right after the noun
 * (`the songs currently playing`, `the artists involved in …`) opens a phrase too.
 */
export function qualifierTokens(
  tokens: readonly string[],
  position: number,
  isEntityWord: (word: string) => boolean,
): string[] {
  return [...participleBefore(tokens, position), ...phraseAfter(tokens, position, isEntityWord)];
}

/**
 * `all FOLLOWING singers`, `my SAVED tracks`: a participle right before the noun says which ones
 * as a phrase after it would (`the singers I follow`). Not the clause's first word, its verb.
 */
function participleBefore(tokens: readonly string[], position: number): string[] {
  const before = tokens[position - 1];
  if (position < 2 || before === undefined || !/^[a-z]+(ing|ed)$/.test(before)) return [];
  return !isStopword(before) && isVerb(before) ? [before] : [];
}

function phraseAfter(tokens: readonly string[], position: number, isEntityWord: (word: string) => boolean): string[] {
  const bare = (token: string | undefined): string => (token ?? '').toLowerCase().replace(/[^a-z']/g, '');
  // `… to a pool: show that pool's metadata`: a noun that ends a phrase is qualified by nothing after it.
  if (/[,;:.!?]$/.test(tokens[position] ?? '')) return [];
  // `the album information OF THE SONG …`: the phrase qualifies the noun the entity's name modifies
  // (but in `the stake pool that …` it qualifies the pool, an entity of its own).
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
