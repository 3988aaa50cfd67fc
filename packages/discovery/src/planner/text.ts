/**
 * Words of requirements and of specs, reduced to comparable terms: lower case, identifiers split
 * (`getUserLoans`, `due-dates`, `user_id`), crude English stemming so that `cooking`,
 * `cooked` and `cook` meet, and function words dropped.
 */

// `before` and `after` are words: `the visits before visit 8000` asks for the previous ones.
const STOPWORDS = new Set(
  (
    "a an the this that these those it its it's of in on at to into onto for from by with without as and or but then " +
    'so if is are was were be been being do does did done have has had i we our us you your he she they them ' +
    'their his her which who whom whose what when where how all any some each every one two three first second third ' +
    'last right just also than too very can could should would will shall may might must please ' +
    'want need like let lets using use via there here about up down out over again called named'
  ).split(' '),
);

/** Words the stemmer would mangle into a different word. */
const KEEP = new Set([
  'news',
  'status',
  'bus',
  'address',
  'this',
  'was',
  'has',
  'is',
  'us',
  'series',
  'species',
  'analysis',
]);

const MAX_MEMO = 50_000;
const wordsMemo = new Map<string, readonly string[]>();
const stemMemo = new Map<string, string>();

/** Lower-case words of a text, with identifiers split at case changes, `-`, `_` and `/`. */
export function words(text: string): string[] {
  const known = wordsMemo.get(text);
  if (known !== undefined) return [...known];
  const found = splitWords(text);
  if (wordsMemo.size >= MAX_MEMO) wordsMemo.clear();
  wordsMemo.set(text, found);
  return [...found];
}

function splitWords(text: string): string[] {
  return text
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .toLowerCase()
    .replace(/'s\b/g, '')
    .split(/[^a-z0-9]+/)
    .filter((word) => word !== '');
}

/** `orders` → `order`, `cooking` → `cook`, `saved`/`save` → `sav`, `pharmacies` → `pharmacy`. */
export function stem(word: string): string {
  if (word.length <= 3 || KEEP.has(word)) return word;
  const known = stemMemo.get(word);
  if (known !== undefined) return known;
  const found = stemOf(word);
  if (stemMemo.size >= MAX_MEMO) stemMemo.clear();
  stemMemo.set(word, found);
  return found;
}

function stemOf(word: string): string {
  let base = word;
  if (base.endsWith('ies') && base.length > 4) base = `${base.slice(0, -3)}y`;
  else if (base.endsWith('sses')) base = base.slice(0, -2);
  else if (base.endsWith('ing') && base.length > 5) base = base.slice(0, -3);
  else if (base.endsWith('ed') && base.length > 4) base = base.slice(0, -2);
  else if (base.endsWith('es') && /(ch|sh|x|ss)es$/.test(base)) base = base.slice(0, -2);
  else if (base.endsWith('s') && !/(ss|us|is)$/.test(base)) base = base.slice(0, -1);
  // Doubled final consonants of `stopped`, `shipping`.
  if (/([bdgmnprt])\1$/.test(base) && base.length >= 4 && base !== word) base = base.slice(0, -1);
  if (base.endsWith('e') && base.length > 3) base = base.slice(0, -1);
  return base;
}

export function isStopword(word: string): boolean {
  return STOPWORDS.has(word);
}

/** `my` and `mine` point at the caller's own resources, which APIs put under `/me`. */
const SELF_WORDS = new Set(['my', 'mine', 'myself', 'me']);

/** Stemmed content terms of a text, in order, stopwords and numbers dropped. */
export function terms(text: string): string[] {
  return words(text)
    .filter((word) => !STOPWORDS.has(word) && !/^\d+$/.test(word))
    .map((word) => (SELF_WORDS.has(word) ? 'me' : stem(word)));
}

/** `Get Patient's Chart` → `GetPatientsChart`; a valid node name, never empty. */
export function pascalName(text: string): string {
  const name = words(text.replace(/'/g, ''))
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join('')
    .slice(0, 60);
  if (name === '') return 'Step';
  return /^[0-9]/.test(name) ? `Step${name}` : name;
}

/** `dose_mg` → `doseMg`, `X-Request-Id` → `xRequestId`. */
export function camelName(text: string): string {
  const pascal = pascalName(text);
  return pascal.charAt(0).toLowerCase() + pascal.slice(1);
}

/** `recipes` → `recipe`, `pharmacies` → `pharmacy`: an entity name from a collection name. */
export function singular(word: string): string {
  const lower = word.toLowerCase();
  if (lower.endsWith('ies') && lower.length > 4) return `${lower.slice(0, -3)}y`;
  if (/(ch|sh|x|ss)es$/.test(lower)) return lower.slice(0, -2);
  if (lower.endsWith('s') && !/(ss|us|is)$/.test(lower) && lower.length > 3) return lower.slice(0, -1);
  return lower;
}
