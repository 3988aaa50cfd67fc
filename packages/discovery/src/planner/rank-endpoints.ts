import type { EndpointProfile } from './endpoint-profile.js';
import type { RequirementClause } from './parse-requirement.js';
import { idfOf, type PlannerIndex } from './planner-index.js';
import { isSearch } from './producer-kinds.js';
import { singular, stem } from './text.js';
import { valueFits } from './given-values.js';
import { saysPhrase } from './phrase-evidence.js';
import { verbAgreement } from './verb-agreement.js';
import { speaksOfOtherTime } from './verb-aspect.js';
import { isGenericVerb, methodFit } from './vocabulary.js';
import { isAdjective, isVerb, relatedTerms } from './word-relations.js';

/** How near a verb is to its agent noun (`borrow` and `borrower`), as near as a WordNet derivation. */
const AGENT_CLOSENESS = 0.75;
/** A word reached through another (`favorite` → `best` → `top`) only from words at least this near. */
const SECOND_HOP_MIN = 0.6;
/** … and only where that word is this near the catalog's. */
const SECOND_HOP_LINK = 0.5;
/** A related word counts for less than the word itself (on top of how near the relation is). */
const RELATED_FACTOR = 0.85;
/** Added for an endpoint that says a describing word of the clause and its noun side by side (`current semester`). */
const PHRASE_BONUS = 0.1;
/** A describing word counts as said through a related word this near. */
const PHRASE_CLOSENESS = 0.3;
/** How much what the endpoint does besides the clause's request lowers its score. */
const REVERSE_SHARE = 0.35;
/** An endpoint that needs an entity the clause neither gives nor names, when it gives one, counts this much. */
const ELSEWHERE_FACTOR = 0.7;
/** Added for an endpoint whose path takes a value the clause gives (`ward 42`). */
const GIVEN_BONUS = 0.1;
/** A term the catalog does not know, nor any word related to it, counts this much. */
const UNKNOWN_FACTOR = 0.15;
/** Generic verbs (`make`, `get`) count this much of a content word. */
const GENERIC_VERB_FACTOR = 0.3;
/** Terms that only qualify the object count this much when choosing the action's endpoint. */
const MODIFIER_FACTOR = 0.35;
/** An endpoint whose verb speaks of another time than the clause's (`expired` for `about to expire`) counts this much. */
const OTHER_ASPECT_FACTOR = 0.8;
/** An endpoint that names another action than the clause's verb counts this much. */
const OTHER_ACTION_FACTOR = 0.75;
/** The strongest field weight (summary): a term matched there counts fully. */
const MAX_FIELD_WEIGHT = 3;

export interface RankedEndpoint {
  profile: EndpointProfile;
  /** 0–1. */
  score: number;
  /** Terms of the clause this endpoint matched, stemmed. */
  matched: string[];
  reasons: string[];
}

/** How well a set of terms is covered by an endpoint's description, 0–1, and which terms matched. */
export function termCoverage(
  index: PlannerIndex,
  clauseTerms: string[],
  profile: EndpointProfile,
  lighter: readonly string[] = [],
  surface: Readonly<Record<string, string>> = {},
): { coverage: number; matched: string[] } {
  let got = 0;
  let possible = 0;
  const matched: string[] = [];
  for (const term of new Set(clauseTerms)) {
    const related = [
      ...relatedInCatalog(index, term, surface[term]),
      ...secondHopInCatalog(index, term, surface[term]),
    ];
    // A word neither the catalog nor any word near it uses tells no endpoint apart: it counts little.
    const unknown = !index.idf.has(term) && related.length === 0;
    const weight =
      idfOf(index, term) *
      (unknown ? UNKNOWN_FACTOR : 1) *
      (isGenericVerb(term) ? GENERIC_VERB_FACTOR : 1) *
      (lighter.includes(term) ? MODIFIER_FACTOR : 1);
    possible += weight * MAX_FIELD_WEIGHT;
    let best = profile.fields.get(term) ?? 0;
    if (best < MAX_FIELD_WEIGHT) {
      for (const [other, closeness] of related)
        best = Math.max(best, (profile.fields.get(other) ?? 0) * closeness * RELATED_FACTOR);
    }
    if (best > 0) {
      got += weight * best;
      matched.push(term);
    }
  }
  return { coverage: possible === 0 ? 0 : got / possible, matched };
}

/**
 * The words of the catalog a requirement's term is related to (WordNet, through the word the
 * requirement wrote), with how near each is: only these can change a score.
 */
export function relatedInCatalog(
  index: PlannerIndex,
  term: string,
  surface: string | undefined,
): ReadonlyArray<[string, number]> {
  const key = `${term} ${surface ?? ''}`;
  const cached = index.related.get(key);
  if (cached !== undefined) return cached;
  const found: Array<[string, number]> = [];
  // A related generic verb (`borrow` → `get`) says only what the method says already.
  for (const [related, closeness] of relatedTerms(surface ?? term))
    if (related !== term && index.idf.has(related) && !isGenericVerb(related)) found.push([related, closeness]);
  // `who borrows`: the ones who do what a verb says are its agent noun (`borrowers`, `teachers`);
  // a participle (`the branch it is borrowed from`) speaks of what the verb is done to, not of who does it.
  if (surface !== undefined && isVerb(surface) && !/ed$/.test(surface))
    for (const agent of [`${term}or`, `${term}er`])
      if (index.idf.has(agent) && !found.some(([related]) => related === agent)) found.push([agent, AGENT_CLOSENESS]);
  index.related.set(key, found);
  return found;
}

/**
 * The catalog words a describing word reaches through a word near it, when neither it nor any word
 * near it is the catalog's: `favorite` → `best` → `top` (`the user's top recipes`).
 */
export function secondHopInCatalog(
  index: PlannerIndex,
  term: string,
  surface: string | undefined,
): ReadonlyArray<[string, number]> {
  if (surface === undefined || index.idf.has(term) || !isAdjective(surface) || isVerb(surface)) return [];
  const key = `2 ${term} ${surface}`;
  const cached = index.related.get(key);
  if (cached !== undefined) return cached;
  const found = new Map<string, number>();
  if (!relatedInCatalog(index, term, surface).some(([, closeness]) => closeness >= SECOND_HOP_MIN))
    for (const [middle, first] of relatedTerms(surface)) {
      if (first < SECOND_HOP_MIN || index.idf.has(middle)) continue;
      for (const [related, second] of relatedTerms(middle))
        if (second >= SECOND_HOP_LINK && related !== term && index.idf.has(related) && !isGenericVerb(related))
          found.set(related, Math.max(found.get(related) ?? 0, first * second));
    }
  const list = [...found];
  index.related.set(key, list);
  return list;
}

/**
 * The catalog entity a requirement's word names when it is not one itself: what the catalog's
 * summaries call it (`prescription` for `/rx/{id}`), else the nearest related entity.
 */
export function entityOfWord(index: PlannerIndex, term: string, word: string): string | undefined {
  const alias = index.entityAliases.get(term);
  if (alias !== undefined) return alias;
  let best: [string, number] | undefined;
  for (const [related, closeness] of relatedInCatalog(index, term, word)) {
    const entity = index.knownEntities.has(related) ? related : index.entityAliases.get(related);
    if (entity !== undefined && closeness >= 0.5 && (best === undefined || closeness > best[1]))
      best = [entity, closeness];
  }
  return best?.[0];
}

/** Whether two stemmed words are the same or near (`erase` and `delete`). */
export function near(index: PlannerIndex, term: string, surface: string | undefined, other: string): boolean {
  return (
    term === other ||
    relatedInCatalog(index, term, surface).some(([related, closeness]) => related === other && closeness >= 0.5)
  );
}

/** The terms a clause asks for with the catalog words near them, once per clause. */
const askedTerms = new WeakMap<RequirementClause, Set<string>>();

/**
 * How much of what an endpoint is (its summary's and path's terms, rare ones weighing most) the
 * clause asks for, 0–1: of two endpoints that match the clause alike, the one that does less
 * besides fits better (`Specific prescription` over `Prescription required approvers`).
 */
export function reverseCoverage(index: PlannerIndex, clause: RequirementClause, profile: EndpointProfile): number {
  let got = 0;
  let possible = 0;
  let asked = askedTerms.get(clause);
  if (asked === undefined) {
    asked = new Set<string>();
    for (const term of clause.terms) {
      asked.add(term);
      for (const [related, closeness] of relatedInCatalog(index, term, clause.surface[term]))
        if (closeness >= 0.5) asked.add(related);
    }
    askedTerms.set(clause, asked);
  }
  for (const term of profile.core) {
    const weight = idfOf(index, term) * (isGenericVerb(term) ? GENERIC_VERB_FACTOR : 1);
    possible += weight;
    if (asked.has(term)) got += weight;
  }
  return possible === 0 ? 0 : got / possible;
}

/**
 * How well a method serves the clause's verb. A verb of no known intent (`flag order 12`) still asks
 * for an action, so a read fits it least; a clause with no verb at all is most likely a question.
 */
function clauseMethodFit(clause: RequirementClause, method: string): number {
  if (clause.intent !== undefined) return methodFit(clause.intent, method);
  if (clause.verb !== undefined) return method === 'GET' ? 0.4 : 0.8;
  return method === 'GET' ? 0.8 : 0.6;
}

/**
 * Scores every endpoint for one clause: term coverage (rare terms in summaries and paths count
 * most), scaled by how well the method fits the clause's verb, plus a bonus when the endpoint
 * names that verb as its action (`Enroll Students or Teachers` for "enroll …"), less when it names
 * another action or its verb speaks of another time (`expired` for "about to expire").
 */
export function rankEndpoints(index: PlannerIndex, clause: RequirementClause, limit = 5): RankedEndpoint[] {
  const ranked: RankedEndpoint[] = [];
  const unmatched: RankedEndpoint[] = [];
  const nearTerms = new Map<string, ReadonlySet<string>>();
  const nearOf = (term: string): ReadonlySet<string> => {
    let near = nearTerms.get(term);
    if (near === undefined) {
      const surface = clause.surface[term];
      near = new Set([
        term,
        ...[...relatedInCatalog(index, term, surface), ...secondHopInCatalog(index, term, surface)]
          .filter(([, closeness]) => closeness >= PHRASE_CLOSENESS)
          .map(([related]) => related),
      ]);
      nearTerms.set(term, near);
    }
    return near;
  };
  for (const profile of index.profiles) {
    const { coverage, matched } = termCoverage(index, clause.terms, profile, clause.modifiers, clause.surface);
    if (coverage === 0) {
      // Kept to offer something when nothing matches: the method's fit to the verb orders them.
      if (unmatched.length < limit * 4) {
        const fit = clause.intent !== undefined ? methodFit(clause.intent, profile.endpoint.method) : 0;
        unmatched.push({
          profile,
          score: 0,
          matched: [],
          reasons: [
            `matches none of the clause's words${clause.intent !== undefined ? `; ${profile.endpoint.method} ${fit >= 0.99 ? 'fits' : fit > 0 ? 'partly fits' : 'does not fit'} the ${clause.intent}` : ''}`,
          ],
          fit,
        } as RankedEndpoint & { fit: number });
      }
      continue;
    }
    const method = profile.endpoint.method;
    const fit = clauseMethodFit(clause, method);
    // A verb that says more than create/read/update/delete (`flag`, `renew`, `discharge`) and the endpoint's own action agree.
    const clauseVerb = clause.verb;
    const agreement = verbAgreement(
      clause,
      profile,
      matched,
      (term) => clauseVerb !== undefined && near(index, clauseVerb, clause.surface[clauseVerb], term),
    );
    const verbMatches = agreement === 'same';
    // `Show prescription a3f9…`: an endpoint that takes the value the clause gives for an entity.
    const takesGiven = clause.mentions.some(
      (mention) =>
        mention.given !== undefined &&
        (profile.needs.some(
          (need) =>
            need.in === 'path' &&
            need.required &&
            need.entities.includes(mention.entity) &&
            valueFits(mention.given!, need),
        ) ||
          // `the writer Ursula Le Guin`: a look-up by name of the entity named.
          (profile.resources[0] === mention.entity && isSearch(profile) && !/\d/.test(mention.given!))),
    );
    const reverse = reverseCoverage(index, clause, profile);
    // `the shipment that contains parcel a3f9…`: from the value given, its answer names the entity asked about.
    const walks =
      takesGiven &&
      clause.mentions.some(
        (asked) =>
          asked.given === undefined &&
          !profile.resources.includes(asked.entity) &&
          profile.offers.some(
            (offer) =>
              offer.depth === 0 && (offer.refers === asked.entity || stem(singular(offer.name)) === asked.entity),
          ),
      );
    const phrase = saysPhrase(clause, profile, nearOf);
    let score =
      coverage * (0.45 + 0.55 * fit) * (1 - REVERSE_SHARE + REVERSE_SHARE * reverse) +
      (phrase ? PHRASE_BONUS * fit : 0) +
      (verbMatches ? 0.15 : 0) +
      (takesGiven ? GIVEN_BONUS : 0) +
      (walks ? GIVEN_BONUS : 0);
    if (agreement === 'other') score *= OTHER_ACTION_FACTOR;
    const otherTime = speaksOfOtherTime(clause.aspects, profile.aspects, matched);
    if (otherTime) score *= OTHER_ASPECT_FACTOR;
    if (profile.endpoint.deprecated) score *= 0.8;
    // The clause gives a value to start from; an endpoint that needs an entity it neither gives nor names starts elsewhere.
    const givenEntities = clause.mentions.filter((mention) => mention.given !== undefined).map((m) => m.entity);
    const mentioned = clause.mentions.map((mention) => mention.entity);
    const startsElsewhere =
      givenEntities.length > 0 &&
      profile.needs.some(
        (need) =>
          need.in === 'path' &&
          need.required &&
          need.entities.length > 0 &&
          !need.entities.some((entity) => mentioned.includes(entity)),
      );
    if (startsElsewhere) score *= ELSEWHERE_FACTOR;
    score = Math.min(1, score);
    const said = (term: string): string => `"${clause.surface[term] ?? term}"`;
    const reasons = [`matches ${matched.map(said).join(', ')} (${Math.round(coverage * 100)}% of the clause's weight)`];
    if (clause.intent !== undefined) {
      const verb = clause.verb !== undefined ? (clause.surface[clause.verb] ?? clause.verb) : clause.intent;
      reasons.push(
        `${method} ${fit >= 0.99 ? 'fits' : fit > 0 ? 'partly fits' : 'does not fit'} "${verb}" (${clause.intent})`,
      );
    }
    if (phrase) reasons.push(`says a describing word of the clause with its noun`);
    if (verbMatches) reasons.push(`does what the clause's verb says`);
    if (agreement === 'other') reasons.push(`does another action than the clause's verb`);
    if (otherTime) reasons.push(`speaks of another time than the clause`);
    if (takesGiven) reasons.push('takes the value the requirement gives');
    if (walks) reasons.push('its answer leads to the entity asked about');
    ranked.push({ profile, score, matched, reasons });
  }
  ranked.sort(
    (a, b) =>
      b.score - a.score ||
      a.profile.endpoint.path.length - b.profile.endpoint.path.length ||
      a.profile.endpoint.id.localeCompare(b.profile.endpoint.id),
  );
  if (ranked.length < limit) {
    unmatched.sort(
      (a, b) =>
        (b as RankedEndpoint & { fit: number }).fit - (a as RankedEndpoint & { fit: number }).fit ||
        a.profile.endpoint.path.length - b.profile.endpoint.path.length,
    );
    for (const candidate of unmatched.slice(0, limit - ranked.length))
      ranked.push({ profile: candidate.profile, score: 0, matched: [], reasons: candidate.reasons });
  }
  return ranked.slice(0, limit);
}
