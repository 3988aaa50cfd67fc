import { isStopword, singular, stem, terms, words } from './text.js';
import { intentOfVerb, intentOfWord, ORDINALS, type Intent } from './vocabulary.js';
import { qualifierTokens } from './qualifier-phrases.js';
import { aspectsOf, type Aspect } from './verb-aspect.js';
import { isAdjective, isDictionaryWord, isNoun, isVerb } from './word-relations.js';

/**
 * A requirement read as a list of clauses, one per action it asks for ("pause the pump, turn down
 * the dose and resume the infusion" → three). Quoted text and proper names are values, not words to
 * match against the catalog: `name it 'Summer Reads'`, `books of Ursula Le Guin`.
 */
export interface RequirementClause {
  text: string;
  /** Stemmed content terms, values excluded. */
  terms: string[];
  /** Terms a pronoun stands for (`check its status` after `ship an order`: `order`). */
  inherited: string[];
  /** The word each term was read from, to explain a match in the requirement's own words. */
  surface: Record<string, string>;
  /** What the clause's verbs say of the time, by term: `about to expire` (under way), `expired` (over). */
  aspects: Record<string, Aspect>;
  /**
   * Terms that only qualify the object (`the driver OF THE TRUCK NOW LOADING`): they say which
   * producer to use more than which endpoint the action is.
   */
  modifiers: string[];
  /** The verb's intent, from the clause's first known verb. */
  intent: Intent | undefined;
  /** Stem of that verb. */
  verb: string | undefined;
  quoted: string[];
  /** What the requirement calls a thing it creates or renames: `named Harbor`, `call it 'Weeknights'`. */
  labels: string[];
  /** Capitalised names that are not words of the catalog (`Ursula Le Guin`, `UNESCO`). */
  names: string[];
  /** Identifier-like values the clause gives: hashes, codes, e-mail addresses, URLs (`a3f9…`, `alice@example.com`). */
  values: string[];
  /**
   * Lower-case words that are no word of the catalog nor an English verb or adjective, and no
   * given value already: likely a name (`Which courses has priya taken?`).
   */
  looseNames: string[];
  numbers: number[];
  /** 0-based index from `first`, `second`, … (-1 for `last`), when the clause picks one item. */
  ordinal: number | undefined;
  /** The clause speaks of the caller's own things (`my`, `mine`, `our`). */
  owned: boolean;
  /** The catalog entities the clause names, with what the words around each say about it. */
  mentions: EntityMention[];
}

/**
 * `my first loan` (owned, ordinal 0), `a new loan` (created), `the book Middlemarch` (named):
 * what decides which endpoint should produce a reference to the entity.
 */
export interface EntityMention {
  entity: string;
  owned: boolean;
  created: boolean;
  named: boolean;
  /**
   * `Julia Child's newest cookbook`: picked from what belongs to a named owner (the newest, the
   * latest), so it is found through the owner's list rather than by a name of its own.
   */
  ofNamedOwner: boolean;
  ordinal: number | undefined;
  /** `the driver of the truck …`: the entity this one is reached through. */
  via: string | undefined;
  /**
   * Stemmed terms of the phrase that says which one is meant (`the driver of THE TRUCK NOW
   * LOADING`, `the nurse THAT TREATED THE LATEST PATIENT`): the words of its producer.
   */
  qualifier: string[];
  /** The value the requirement gives for it: `ward 42`, `the user priya`, `container MSCU1…`. */
  given: string | undefined;
}

export interface RequirementVocabulary {
  /** Whether a stemmed word is one the catalog uses (so `My Recipes` stays words to match while `Julia Child` becomes a name). */
  isCatalogWord(term: string): boolean;
  /** Whether a stemmed, singular word is an entity of the catalog (`loan`, `book`). */
  isEntity(term: string): boolean;
  /**
   * The catalog entity a word names when it is not one itself: a word its endpoints' summaries
   * use for it (`prescription` for `/rx/{id}`), or a related English word (`doctor` → `physician`).
   */
  entityOf(term: string, word: string): string | undefined;
  /** Whether a stemmed word names a field of what an entity's own endpoints answer (`tonnage` of a ship's manifest). */
  isFieldOf?(term: string, entity: string): boolean;
}

const SPLIT = /\s*(?:[,;!?]|\.(?:\s|$)|\band then\b|\bthen\b|\band\b|\bafter that\b|\balso\b)\s*/i;

export function parseRequirement(requirement: string, vocabulary: RequirementVocabulary): RequirementClause[] {
  const isCatalogWord = (term: string): boolean => vocabulary.isCatalogWord(term);
  const quotedValues: string[] = [];
  // A quote opens after a space (so the apostrophe of `Child's` does not) and closes before one.
  const protectedText = requirement.replace(
    /(^|[\s(])["'“‘]([^"“”‘’\n]{1,200}?)["'”’](?=$|[^\w])/g,
    (_match, before: string, value: string) => {
      quotedValues.push(value.trim());
      return `${before} QUOTED${quotedValues.length - 1} `;
    },
  );
  const identifierValues: string[] = [];
  // Hashes, codes, e-mail addresses and URLs are values, whatever words they hold.
  const shielded = protectedText.replace(
    /(^|[\s(])(?!QUOTED\d)((?:[\w.+-]+@[\w-]+(?:\.[\w-]+)+)|(?:https?:\/\/\S+)|(?=[\w-]*\d)(?=[\w-]*[a-zA-Z])(?:[\w-]{6,}|\w+-[\w-]+)|[\w]{25,})(?=$|[\s,;:!?)]|\.(?:\s|$))/g,
    (_match, before: string, value: string) => {
      identifierValues.push(value);
      return `${before}VALUE${identifierValues.length - 1}`;
    },
  );
  const clauses: RequirementClause[] = [];
  // `the name and tonnage`, `title and description`: an `and` before a word that is no verb joins
  // two things of one action, not two actions.
  const joined = shielded
    // `… admits a patient to a ward: show that ward's schedule`: a colon before a verb starts another action.
    .replace(/:\s+([A-Za-z]+)/g, (match, next: string) => (isVerb(next) ? `; ${next}` : match))
    .replace(/\band\s+([A-Za-z]+)/g, (match, next: string) =>
      intentOfWord(next.toLowerCase()) === undefined &&
      (!isVerb(next) || isPluralNoun(next.toLowerCase())) &&
      !/^(then|also|after)$/i.test(next)
        ? `ANDJOIN ${next}`
        : match,
    );
  const conditions = new Set<string>();
  const parts = joined
    .split(SPLIT)
    .map((part) => part.replace(/\bANDJOIN\b/g, 'and'))
    .flatMap((part) => {
      // `Pause the heater if it is running`: the condition is a check made first, a read of its own.
      const condition = /^(.*?\S)\s+(?:only\s+)?(?:if|unless)\s+(\S.*)$/i.exec(part);
      if (condition === null) return [part];
      conditions.add(condition[2]!);
      return [condition[2]!, condition[1]!];
    });
  const checks = new Set<RequirementClause>();
  for (const raw of parts) {
    const text = raw.trim();
    if (text === '') continue;
    const quoted = [...text.matchAll(/QUOTED(\d+)/g)].map((match) => quotedValues[Number(match[1])] ?? '');
    const values = [...text.matchAll(/VALUE(\d+)/g)].map((match) => identifierValues[Number(match[1])] ?? '');
    const plain = text.replace(/QUOTED\d+|VALUE\d+/g, ' ');
    const names = properNames(plain, isCatalogWord);
    const nameWords = new Set(names.flatMap((name) => words(name)));
    const clauseWords = words(plain);
    // The clause's verb: an imperative's first word (`flag order 12`, where `order` is no verb), else
    // the first word of the vocabulary's verbs.
    const first = clauseWords[0];
    const imperative =
      first !== undefined &&
      (!isStopword(first) || clauseWords.length > 1) &&
      isVerb(first) &&
      !isPluralNoun(first) &&
      !/^(i|is|are|was|be|do|does|did|have|has|had|can|will|what|which|who|how|let)$/.test(first)
        ? first
        : undefined;
    const verbWord = imperative ?? clauseWords.find((word) => intentOfWord(word) !== undefined);
    const ordinalWord = clauseWords.find((word) => ORDINALS[word] !== undefined);
    const mentions = entityMentions(text, vocabulary, quotedValues, identifierValues);
    const intent = conditions.has(raw) ? 'read' : clauseIntent(verbWord, mentions, text);
    const givenWords = new Set(mentions.map((mention) => mention.given ?? '').filter((value) => /^[a-z]/.test(value)));
    // `make my recipe private` does not ask for a creation: its `make` is not a word to match.
    const overridden =
      verbWord !== undefined && intentOfWord(verbWord) !== undefined && intent !== intentOfWord(verbWord);
    clauses.push({
      text: raw
        .replace(/QUOTED(\d+)/g, (_m, n: string) => `"${quotedValues[Number(n)] ?? ''}"`)
        .replace(/VALUE(\d+)/g, (_m, n: string) => identifierValues[Number(n)] ?? '')
        .replace(/\s+/g, ' ')
        .trim(),
      inherited: [],
      surface: surfaceOf(plain),
      aspects: aspectsOf(plain),
      terms: terms(
        plain
          // `give me`, `show me`, `tell me`: the one asking, not their own things.
          .replace(/^(\s*\w+\s+)me\b/i, '$1')
          .replace(overridden ? new RegExp(`\\b${verbWord}\\b`, 'i') : /$^/, ' ')
          .replace(/\b[a-z][\w']*\b/g, (word) => (givenWords.has(word) ? ' ' : word))
          .replace(/\b[A-Za-z][\w']*\b/g, (word) =>
            nameWords.has(word.toLowerCase().replace(/'s$/, '')) ? ' ' : word,
          ),
      ),
      intent,
      verb: verbWord !== undefined ? stem(verbWord) : undefined,
      quoted,
      labels: labelsOf(text, quotedValues),
      names,
      values,
      looseNames: clauseWords.filter(
        (word) =>
          /^[a-z][a-z0-9_-]*$/.test(word) &&
          word.length > 1 &&
          !isStopword(word) &&
          !OWN_WORDS.has(word) &&
          !vocabulary.isCatalogWord(stem(word)) &&
          !vocabulary.isEntity(stem(singular(word))) &&
          intentOfWord(word) === undefined &&
          ORDINALS[word] === undefined &&
          !SUPERLATIVES.has(word) &&
          !isVerb(word) &&
          !isAdjective(word) &&
          !mentions.some((mention) => mention.given === word),
      ),
      numbers: [...plain.matchAll(/(?<![\w.])(\d+(?:\.\d+)?)(?![\w.])/g)].map((match) => Number(match[1])),
      ordinal: ordinalWord !== undefined ? ORDINALS[ordinalWord] : undefined,
      owned: clauseWords.some((word) => OWN_WORDS.has(word)),
      mentions,
      modifiers: [
        ...new Set([
          ...modifierTerms(
            plain,
            (word) => entityOf(stem(singular(word)), word, vocabulary) !== undefined,
            mentions,
            (field, word) => {
              const entity = entityOf(stem(singular(word)), word, vocabulary);
              return entity !== undefined && (vocabulary.isFieldOf?.(stem(singular(field)), entity) ?? false);
            },
          ),
          ...(intent !== undefined && intent !== 'read' ? participleTerms(plain) : []),
        ]),
      ],
    });
    if (conditions.has(raw)) checks.add(clauses[clauses.length - 1]!);
  }
  // A name inside a qualifying phrase (`the book Good Omens`) is a value, not a word of its producer.
  for (const clause of clauses)
    for (const mention of clause.mentions)
      mention.qualifier = mention.qualifier.filter((term) => clause.terms.includes(term));
  // `ship an order and check its status`: a pronoun stands for what the clause before spoke of;
  // in a condition, for what the action it comes before speaks of (`pause the heater if it …`).
  clauses.forEach((clause, at) => {
    const before = checks.has(clause) ? clauses[at + 1] : clauses[at - 1];
    if (before === undefined || clause.mentions.length > 0 || !/\b(it|its|them|their|this|that)\b/i.test(clause.text))
      return;
    const entity = before.mentions[0]?.entity;
    if (entity !== undefined && !clause.terms.includes(entity)) {
      clause.terms.push(entity);
      clause.inherited.push(entity);
      // A condition asks about a state of the thing (`if it is running`): the thing only says whose.
      if (checks.has(clause)) clause.modifiers.push(entity);
    }
  });
  return clauses;
}

/** `orders`, `messages`: an imperative verb does not end in a plural's `s`, a noun list does. */
function isPluralNoun(word: string): boolean {
  return /[^s]s$/.test(word) && isNoun(word);
}

/** The word of the text each of its terms comes from (the first, when several stem alike). */
function surfaceOf(text: string): Record<string, string> {
  const surface: Record<string, string> = {};
  for (const word of words(text)) {
    const term = terms(word)[0];
    if (term !== undefined) surface[term] ??= word;
  }
  return surface;
}

/**
 * The clause's intent from its verb. A creating verb whose object is followed by a describing
 * word (`make my first recipe private`, `render the page readable`) changes the state of a
 * thing that exists: an update, unless the thing is new.
 */
function clauseIntent(verb: string | undefined, mentions: EntityMention[], text: string): Intent | undefined {
  if (verb === undefined) return undefined;
  const intent = intentOfVerb(verb);
  if (intent !== 'create' || mentions.length === 0 || mentions.some((mention) => mention.created)) return intent;
  const clauseWords = words(text.replace(/QUOTED\d+|VALUE\d+/g, ' '));
  const last = clauseWords.at(-1);
  const before = clauseWords.at(-2);
  const complement =
    last !== undefined &&
    before !== undefined &&
    !isStopword(last) &&
    !isStopword(before) &&
    isAdjective(last) &&
    !isAdjective(before);
  return complement ? 'update' : intent;
}

/**
 * Terms inside `of …` spans that run to the next preposition, and not also outside one. When the
 * word before `of` is no entity of the catalog (`the schedule of the ward …`), the span's first
 * noun owns what is asked and is not a modifier; only what qualifies it is.
 */
function modifierTerms(
  text: string,
  isEntityWord: (word: string) => boolean,
  mentions: readonly EntityMention[],
  isFieldOf: (field: string, entityWord: string) => boolean = () => false,
): string[] {
  const inside: string[] = [];
  const owners: string[] = [];
  const outside = terms(
    text.replace(
      /(\w+)\s+of\b(.*?)(?=\b(?:in|into|to|from|on|onto|for|with)\b|$)/gi,
      (_match, head: string, span: string) => {
        const spanTerms = terms(span);
        // The owner is the span's first run of entity nouns: `the CARGO SHIP that carried …`.
        const spanWords = words(span);
        const start = spanWords.findIndex((word) => isEntityWord(word));
        const run: string[] = [];
        for (let at = start; at >= 0 && at < spanWords.length && isEntityWord(spanWords[at]!); at += 1)
          run.push(spanWords[at]!);
        // `the name and TONNAGE of the cargo ship`: a field of the owner's own answer is what is asked of it.
        const attribute = run.some((word) => isFieldOf(head, word));
        if ((!isEntityWord(head) || attribute) && run.length > 0) owners.push(...terms(run.join(' ')));
        inside.push(...spanTerms);
        return ` ${head} `;
      },
    ),
  );
  // `the items of the first order IN THE LATEST SHIPMENT`: what qualifies the owner qualifies it wherever it ends.
  const ownerQualifiers = mentions
    .filter((mention) => owners.includes(mention.entity))
    .flatMap((mention) => mention.qualifier);
  return [
    ...new Set([
      ...inside.filter((term) => !outside.includes(term) && !owners.includes(term)),
      ...ownerQualifiers.filter((term) => !owners.includes(term)),
    ]),
  ];
}

/**
 * `Put the dish NOW BEING COOKED on my menu`: a participle phrase after a noun says which
 * one the action takes (where its value comes from), not what the action does. Its terms, and
 * not also said outside it, qualify the object. Only a write's: what a read shows is often named
 * by such a phrase (`show the trucks now loading`).
 */
function participleTerms(text: string): string[] {
  const tokens = text.split(/\s+/).filter((token) => token !== '');
  const inside = new Set<number>();
  tokens.forEach((token, position) => {
    const word = words(token)[0];
    if (position === 0 || word === undefined || isStopword(word) || !isNoun(word) || inside.has(position)) return;
    const span = qualifierTokens(tokens, position, () => false);
    const opener = words(span[0] ?? '')[0] ?? '';
    // Only a participle opens it here (`the truck loading`, `the truck now being loaded`); `of …` spans are read elsewhere.
    if (span.length === 0 || /^(of|from|in|on|by|that|which|who|whose|whom|where)$/.test(opener)) return;
    span.forEach((_token, at) => inside.add(position + 1 + at));
  });
  if (inside.size === 0) return [];
  const spanTerms = terms(tokens.filter((_token, at) => inside.has(at)).join(' '));
  const outside = terms(tokens.filter((_token, at) => !inside.has(at)).join(' '));
  return spanTerms.filter((term) => !outside.includes(term));
}

const CREATE_WORDS = new Set(['new', 'create', 'make', 'build', 'generate', 'register']);
/** Words that pick an item of a list by its order rather than by a name. */
const SUPERLATIVES = new Set([
  'newest',
  'latest',
  'oldest',
  'recent',
  'earliest',
  'top',
  'first',
  'last',
  'best',
  'most',
]);
const OWN_WORDS = new Set(['my', 'mine', 'our']);

/** `named Harbor`, `called "Weeknights"`, `name it Soups`, `rename it to Desserts`: the value after the naming words. */
function labelsOf(text: string, quotedValues: string[]): string[] {
  const labels: string[] = [];
  const naming =
    /\b(?:named|called|titled|name(?:d)?\s+it|call(?:ed)?\s+it|rename(?:d)?\b[^.,;]*?\bto|to\s+be\s+called)\s+(QUOTED(\d+)|[A-Z0-9][\w&'-]*(?:\s+[A-Z0-9][\w&'-]*)*)/g;
  for (const match of text.matchAll(naming)) {
    labels.push(match[2] !== undefined ? (quotedValues[Number(match[2])] ?? '') : (match[1] ?? ''));
  }
  return labels.filter((label) => label !== '');
}

/** `doctor` is a `physician` where the catalog says physician. */
function entityOf(term: string, word: string, vocabulary: RequirementVocabulary): string | undefined {
  if (vocabulary.isEntity(term)) return term;
  return vocabulary.entityOf(term, word);
}

/** `spicy recipes`: a describing word the catalog does not know means finding by description. */
function isUnknownWord(word: string | undefined, vocabulary: RequirementVocabulary): boolean {
  if (
    word === undefined ||
    word === '' ||
    isStopword(word) ||
    ORDINALS[word] !== undefined ||
    SUPERLATIVES.has(word) ||
    intentOfWord(word) !== undefined
  )
    return false;
  return /^[a-z]+$/.test(word) && !vocabulary.isCatalogWord(stem(word)) && !OWN_WORDS.has(word);
}

function entityMentions(
  text: string,
  vocabulary: RequirementVocabulary,
  quotedValues: string[],
  identifierValues: string[],
): EntityMention[] {
  const tokens = text.split(/\s+/).filter((token) => token !== '');
  const mentions: Array<EntityMention & { position: number }> = [];
  /** The value a token stands for when it is one: a quote, an identifier, a number or a name. */
  const valueOf = (token: string | undefined): string | undefined => {
    if (token === undefined) return undefined;
    const placeholder = /^(QUOTED|VALUE)(\d+)/.exec(token);
    if (placeholder !== null)
      return (placeholder[1] === 'QUOTED' ? quotedValues : identifierValues)[Number(placeholder[2])];
    const bare = token.replace(/[^\w'&-]/g, '').replace(/'s$/, '');
    if (/^\d+(\.\d+)?$/.test(bare)) return bare;
    if (/^[A-Z0-9][\w&-]*$/.test(bare) && !/^(I|My|A|An|The)$/.test(bare)) {
      // The whole title-case name: `Ursula Le Guin`, `The Lord of the Rings`.
      const at = tokens.indexOf(token);
      const run = [bare];
      for (let next = at + 1; next < tokens.length && !/[,.;!?]$/.test(tokens[next - 1] ?? ''); next += 1) {
        const part = (tokens[next] ?? '').replace(/[^\w'&-]/g, '').replace(/'s$/, '');
        const capital = /^[A-Z0-9]/.test(part);
        const joins = /^[a-z]{1,3}$/.test(part) && isStopword(part) && /^[A-Z]/.test(tokens[next + 1] ?? '');
        if (!capital && !joins) break;
        run.push(part);
      }
      return run.join(' ');
    }
    return undefined;
  };
  tokens.forEach((token, position) => {
    const word = words(token)[0];
    if (word === undefined || /^(QUOTED|VALUE)\d/.test(token)) return;
    const entity = entityOf(stem(singular(word)), word, vocabulary);
    if (entity === undefined || isStopword(word)) return;
    const before = tokens
      .slice(Math.max(0, position - 3), position)
      .map((t) => t.toLowerCase().replace(/[^a-z']/g, ''));
    const after = tokens.slice(position + 1, position + 3);
    const owned = before.some((w) => OWN_WORDS.has(w));
    // `ward 42`, `the user priya`, `container MSCU1…`, `the book "Middlemarch"`: the value follows the noun.
    const next = after[0];
    const nextWord = words(next ?? '')[0];
    const lowerName =
      next !== undefined &&
      nextWord !== undefined &&
      /^[a-z][\w-]*[,.;!?]?$/.test(next) &&
      !isStopword(nextWord) &&
      !vocabulary.isCatalogWord(stem(nextWord)) &&
      intentOfWord(nextWord) === undefined &&
      ORDINALS[nextWord] === undefined &&
      (!isDictionaryWord(nextWord) || (!isVerb(nextWord) && !isAdjective(nextWord))) &&
      (position + 2 >= tokens.length ||
        isStopword(words(after[1] ?? '')[0] ?? '') ||
        /^(until|till)$/i.test(after[1] ?? ''));
    const given = /[,.;!?]$/.test(token) ? undefined : (valueOf(next) ?? (lowerName ? nextWord : undefined));
    // `books by Ursula Le Guin`, `a menu called Harbor`: a name after a linking word.
    const namedAfter =
      given === undefined && /^(of|by|called|named|titled)$/i.test(after[0] ?? '') && valueOf(after[1]) !== undefined;
    const rawBefore = tokens.slice(Math.max(0, position - 3), position);
    const superlative = before.some((w) => SUPERLATIVES.has(w));
    const possessed = rawBefore.some((t) => /^[A-Z0-9][\w&-]*'s$/.test(t.replace(/[^\w'&-]/g, '')));
    const ofNamedOwner = superlative && (possessed || namedAfter);
    const neighbour = tokens[position - 1] ?? '';
    const named =
      !ofNamedOwner &&
      (given !== undefined ||
        namedAfter ||
        /^QUOTED/.test(neighbour) ||
        (/^[A-Z]/.test(neighbour) && !/^(My|I)$/.test(neighbour) && position > 1) ||
        isUnknownWord(before[before.length - 1], vocabulary));
    mentions.push({
      entity,
      // `my first recipe`, or `the first dish from my cookbook` (but `dish Paella to my menu` is named, not owned).
      owned: owned || (!named && tokens.slice(position + 1).some((t) => OWN_WORDS.has(t.toLowerCase()))),
      // `a new recipe`, `create a recipe`; but `make my recipe private` changes one that exists.
      created: before.includes('new') || (!owned && before.some((w) => CREATE_WORDS.has(w))),
      named,
      ordinal: before.map((w) => ORDINALS[w]).find((n) => n !== undefined),
      via: undefined,
      qualifier: terms(
        qualifierTokens(tokens, position, (other) => entityOf(stem(singular(other)), other, vocabulary) !== undefined)
          .join(' ')
          .replace(/QUOTED\d+|VALUE\d+/g, ' '),
      ),
      ofNamedOwner,
      given,
      position,
    });
  });
  // `the driver of the truck now loading`: an `of` between two mentions links them.
  mentions.forEach((mention, at) => {
    const next = mentions[at + 1];
    if (next === undefined) return;
    const raw = tokens.slice(mention.position + 1, next.position);
    const between = raw.map((t) => t.toLowerCase());
    // `the driver of the truck`, but not `books of Ursula Le Guin a new reading list`: a name in between ends the link.
    const nameBetween = raw.some((t, at) => at > 0 && /^[A-Z]/.test(t));
    if (
      next.entity !== mention.entity &&
      !nameBetween &&
      ['of', 'from', 'in', 'on', 'by'].some((word) => between.includes(word))
    )
      mention.via = next.entity;
  });
  return mentions.map(({ position: _position, ...mention }) => mention);
}

/**
 * Runs of capitalised words that are not the clause's first word and not catalog words:
 * `Cook a dish from Julia Child's newest cookbook` → `Julia Child`.
 */
function properNames(text: string, isCatalogWord: (term: string) => boolean): string[] {
  const tokens = text.split(/\s+/).filter((token) => token !== '');
  const names: string[] = [];
  let run: string[] = [];
  const flush = (): void => {
    // Short function words inside a title-case name (`The Lord of the Rings`) stay; trailing ones go.
    while (run.length > 0 && /^[a-z]/.test(run[run.length - 1] ?? '')) run.pop();
    if (run.length > 0) names.push(run.join(' '));
    run = [];
  };
  tokens.forEach((token, position) => {
    const word = token.replace(/[^\w'&-]/g, '').replace(/'s$/, '');
    const capitalised = /^[A-Z0-9][\w'&-]*$/.test(word) && /[A-Za-z]/.test(word);
    const lower = word.toLowerCase();
    const isWord =
      isStopword(lower) || OWN_WORDS.has(lower) || isCatalogWord(stem(lower)) || intentOfWord(lower) !== undefined;
    if (capitalised && position > 0 && !(isWord && run.length === 0)) {
      run.push(word);
    } else if (run.length > 0 && /^[a-z]{1,3}$/.test(word) && isStopword(word)) {
      run.push(word);
    } else {
      flush();
    }
  });
  flush();
  return names.filter((name) => !/^(I|My|Me)$/i.test(name));
}
