import { stem } from './text.js';

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
    'book',
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
    'ship',
    'complete',
    'close',
    'save',
    'store',
    'follow',
    'play',
    'pause',
    'resume',
    'skip',
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

/**
 * Verbs that only say create/read/update/delete: the method says that already, so as words to
 * match they count for little (`make` must not pick `Add Item to Queue` over `Create Playlist`).
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

/** Groups of words that name the same thing in API descriptions. */
const SYNONYM_GROUPS: string[][] = [
  ['track', 'song', 'music', 'tune'],
  ['artist', 'singer', 'band', 'musician'],
  ['user', 'profile', 'account'],
  ['now', 'current', 'currently'],
  ['create', 'make', 'new', 'add', 'register', 'generate', 'build'],
  ['get', 'show', 'list', 'fetch', 'retrieve', 'view', 'display', 'read', 'find', 'look', 'lookup'],
  ['delete', 'remove', 'clear', 'erase', 'drop'],
  ['update', 'change', 'modify', 'edit', 'rename', 'adjust', 'detail'],
  ['next', 'skip'],
  ['previous', 'back'],
  ['save', 'add', 'put', 'store', 'keep', 'library'],
  ['play', 'resume', 'start', 'playback', 'player'],
  ['pause', 'stop'],
  ['favorite', 'top', 'favourite'],
  ['recommend', 'recommendation', 'related', 'similar'],
  ['follow', 'subscribe'],
  ['unfollow', 'unsubscribe'],
  ['order', 'purchase', 'buy', 'checkout'],
  ['ship', 'shipment', 'deliver', 'delivery', 'dispatch'],
  ['pay', 'payment', 'charge'],
  ['repeat', 'loop'],
  ['volume', 'loud', 'loudness'],
  ['private', 'public'],
  ['newest', 'latest', 'recent', 'new'],
  ['customer', 'client', 'buyer'],
  ['product', 'item', 'article'],
  ['login', 'signin', 'authenticate', 'token', 'session'],
  ['image', 'photo', 'picture'],
  ['coupon', 'discount', 'voucher'],
  ['device', 'speaker'],
  ['search', 'find', 'query'],
];

const SYNONYMS = new Map<string, Set<string>>();
for (const group of SYNONYM_GROUPS) {
  const stems = group.map(stem);
  for (const term of stems) {
    const set = SYNONYMS.get(term) ?? new Set<string>();
    for (const other of stems) if (other !== term) set.add(other);
    SYNONYMS.set(term, set);
  }
}

/** Stemmed terms that mean the same as a stemmed term (not including itself). */
export function synonymsOf(term: string): ReadonlySet<string> {
  return SYNONYMS.get(term) ?? EMPTY;
}

const EMPTY: ReadonlySet<string> = new Set();

/** Words that say the plan should pick one item of a list rather than pass the whole list. */
export const ORDINALS: Record<string, number> = { first: 0, second: 1, third: 2, fourth: 3, fifth: 4, last: -1 };
