import { stem } from './text.js';
import { hypernymLemmas } from './word-relations.js';

/**
 * What the words of a requirement mean for an API: which HTTP methods a verb asks for, and which
 * words name the same thing. General API vocabulary only; a catalog's own words are matched
 * through its summaries, paths and schemas.
 */

export type Intent = 'create' | 'read' | 'update' | 'delete';

const INTENT_VERBS: Record<Intent, string[]> = {
  create: [
    'create',
    'make',
    'add',
    'new',
    'register',
    'post',
    'submit',
    'place',
    'generate',
    'open',
    'build',
    'insert',
    'upload',
    'start',
    'send',
    'issue',
    'sign',
  ],
  read: [
    'get',
    'show',
    'list',
    'find',
    'search',
    'look',
    'fetch',
    'retrieve',
    'view',
    'display',
    'read',
    'check',
    'tell',
    'give',
    'what',
    'which',
    'who',
    'whose',
    'how',
    'recommend',
    'browse',
    'see',
    'count',
    'query',
    'lookup',
    'download',
    'confirm',
    'verify',
    'monitor',
  ],
  update: [
    'update',
    'change',
    'rename',
    'set',
    'modify',
    'edit',
    'turn',
    'switch',
    'increase',
    'decrease',
    'adjust',
    'move',
    'mark',
    'replace',
    'put',
    'enable',
    'disable',
    'assign',
    'approve',
    'reject',
    'complete',
    'close',
    'save',
    'store',
    'follow',
  ],
  delete: [
    'delete',
    'remove',
    'clear',
    'erase',
    'drop',
    'cancel',
    'unfollow',
    'unsubscribe',
    'revoke',
    'destroy',
    'purge',
    'empty',
  ],
};

const INTENT_OF_WORD = new Map<string, Intent>();
for (const [intent, verbs] of Object.entries(INTENT_VERBS) as Array<[Intent, string[]]>) {
  for (const verb of verbs) INTENT_OF_WORD.set(verb, intent);
}

/** The intent a (lower-case, unstemmed) word signals, if it is a verb this vocabulary knows. */
export function intentOfWord(word: string): Intent | undefined {
  return INTENT_OF_WORD.get(word);
}

/** Read verbs that read only as `… me`: they say nothing of the verbs that are kinds of them. */
const TO_THE_ASKER = new Set(['tell', 'give', 'show']);

/**
 * The intent of a verb the list above does not hold, through what WordNet says it is a kind of
 * (`terminate` is a kind of `end`, `warehouse` of `store`): the first listed verb among its broader
 * verbs, nearest first, else the head of a phrasal one among them (`append` is `add on`).
 */
export function intentOfVerb(word: string): Intent | undefined {
  const listed = INTENT_OF_WORD.get(word);
  if (listed !== undefined) return listed;
  // `tell me`, `give me`, `show me` read for the one asking; a verb that is a kind of telling or
  // giving (`refund`, `donate`) hands something over instead.
  const broader = hypernymLemmas(word).filter((lemma) => !TO_THE_ASKER.has(lemma));
  for (const lemma of broader) {
    const intent = INTENT_OF_WORD.get(lemma);
    if (intent !== undefined) return intent;
  }
  // Else the head verb of a phrasal one among them: `append` is `add on`.
  for (const lemma of broader) {
    const head = lemma.split('_')[0] ?? '';
    const intent = lemma.includes('_') && !TO_THE_ASKER.has(head) ? INTENT_OF_WORD.get(head) : undefined;
    if (intent !== undefined) return intent;
  }
  return undefined;
}

/**
 * Verbs that only say create/read/update/delete: the method says that already, so as words to
 * match they count for little (`make` must not pick `Add Item to Order` over `Create Menu`).
 */
const GENERIC_VERBS = new Set(
  'create make add new register post submit generate build get show list fetch retrieve view display read tell give what which who check update change modify edit set turn switch delete remove clear erase drop put want'
    .split(' ')
    .map(stem),
);

export function isGenericVerb(term: string): boolean {
  return GENERIC_VERBS.has(term);
}

/** How well an HTTP method serves an intent, 0–1. */
export function methodFit(intent: Intent, method: string): number {
  const table: Record<Intent, Record<string, number>> = {
    create: { POST: 1, PUT: 0.7, PATCH: 0.3 },
    read: { GET: 1, POST: 0.15, HEAD: 0.5 },
    update: { PUT: 1, PATCH: 1, POST: 0.6 },
    delete: { DELETE: 1, POST: 0.2, PUT: 0.2 },
  };
  return table[intent][method] ?? 0;
}

/** Words that say the plan should pick one item of a list rather than pass the whole list. */
export const ORDINALS: Record<string, number> = { first: 0, second: 1, third: 2, fourth: 3, fifth: 4, last: -1 };
