import type { EndpointProfile } from './endpoint-profile.js';
import type { EntityMention, RequirementClause } from './parse-requirement.js';
import type { PlannerIndex } from './planner-index.js';
import { termCoverage, type RankedEndpoint } from './rank-endpoints.js';
import { singular, stem, terms, words } from './text.js';
import { hasFormOf, tellingPrefix } from './value-shapes.js';
import { methodFit } from './vocabulary.js';

/** A candidate that reads the qualified entity is taken when it matches the clause's own words this much better. */
const CLEARLY_MORE = 0.1;
/** … and scores at least this share of the best candidate. */
const MIN_SHARE = 0.5;

/**
 * `Show the scans of the first parcel in the latest shipment`: the words that say which parcel
 * (`in the latest shipment`) name where its id comes from, so the endpoint that best matches
 * them (`GET /shipments/latest/parcels`) is the producer, not the action. The action is the
 * candidate that takes the qualified entity's id and matches the rest of the clause better
 * (`GET /parcels/{code}/scans`). Returns its position among the candidates, or undefined to keep
 * the first.
 */
export function qualifiedAction(
  index: PlannerIndex,
  clause: RequirementClause,
  ranked: readonly RankedEndpoint[],
): number | undefined {
  const qualified = qualifiedMention(clause);
  const first = ranked[0];
  if (qualified === undefined || first === undefined) return undefined;
  const takesQualified = (profile: EndpointProfile): boolean =>
    profile.needs.some((need) => need.in === 'path' && need.required && need.entities.includes(qualified.entity));
  if (takesQualified(first.profile)) return undefined;
  const own = clause.terms.filter((term) => !clause.modifiers.includes(term) && !qualified.qualifier.includes(term));
  const ownCoverage = (profile: EndpointProfile): number =>
    termCoverage(index, own, profile, [], clause.surface).coverage;
  const firstCoverage = ownCoverage(first.profile);
  // `Give the name and phone of <the nurse …>`: the words asked are fields of the answer about the nurse.
  const asked = own.filter((term) => term !== clause.verb && term !== qualified.entity);
  const firstAnswers = answersFields(first.profile, asked);
  let best: { at: number; coverage: number } | undefined;
  // The action still does what the clause's verb asks: a read does not take a write's place.
  const fit = (profile: EndpointProfile): number =>
    clause.intent !== undefined ? methodFit(clause.intent, profile.endpoint.method) : 1;
  ranked.forEach((candidate, at) => {
    if (at === 0 || candidate.score < first.score * MIN_SHARE || !takesQualified(candidate.profile)) return;
    if (fit(candidate.profile) < fit(first.profile)) return;
    const coverage = ownCoverage(candidate.profile);
    const clearly =
      coverage >= firstCoverage + CLEARLY_MORE || (!firstAnswers && answersFields(candidate.profile, asked));
    if (clearly && (best === undefined || coverage > best.coverage)) best = { at, coverage };
  });
  return best?.at;
}

/**
 * The entity a qualifying phrase picks: the first mention a phrase qualifies, or, when that phrase
 * names another qualified entity (`the phone of the ward nurse THAT TREATED THE LATEST PATIENT`),
 * that one: the nurse is what the phrase picks, the phone a field of it.
 */
function qualifiedMention(clause: RequirementClause): EntityMention | undefined {
  const qualifiable = (mention: EntityMention): boolean =>
    mention.qualifier.length > 0 && mention.given === undefined && !mention.created;
  let qualified = clause.mentions.find(qualifiable);
  for (let hops = 0; qualified !== undefined && hops < clause.mentions.length; hops += 1) {
    const outer: EntityMention = qualified;
    const inner = clause.mentions.find(
      (mention) => mention !== outer && qualifiable(mention) && outer.qualifier.includes(mention.entity),
    );
    if (inner === undefined) break;
    qualified = inner;
  }
  return qualified;
}

/**
 * `Show the account of the first borrower of book B`: nothing is asked of the qualified entity
 * but itself, so the action reads that one entity (`GET /accounts/{member_code}`), not a list
 * or history about it that the clause's words happen to match as well. Returns the position of
 * that endpoint among all the ranked ones, or undefined.
 */
export function qualifiedItemAction(clause: RequirementClause, ranked: readonly RankedEndpoint[]): number | undefined {
  if (clause.intent !== 'read') return undefined;
  const qualified = qualifiedMention(clause);
  const first = ranked[0];
  if (qualified === undefined || first === undefined) return undefined;
  const own = clause.terms.filter(
    (term) =>
      !clause.modifiers.includes(term) &&
      !qualified.qualifier.includes(term) &&
      term !== clause.verb &&
      term !== qualified.entity,
  );
  if (own.length > 0) return undefined;
  // `the loans of member M` asks for a list of them, not one.
  const written = words(clause.text).find((word) => stem(singular(word)) === qualified.entity);
  if (written !== undefined && singular(written) !== written) return undefined;
  const at = ranked.findIndex((candidate) => readsOne(candidate.profile, qualified.entity));
  return at > 0 ? at : undefined;
}

/** `GET /accounts/{member_code}`: the endpoint that reads one entity by the one id its path ends with. */
function readsOne(profile: EndpointProfile, entity: string): boolean {
  if (profile.endpoint.method !== 'GET' || profile.resources[0] !== entity) return false;
  const last =
    profile.endpoint.path
      .split('/')
      .filter((segment) => segment !== '')
      .at(-1) ?? '';
  if (!/^\{[^}]+\}(\.\w+)?$/.test(last)) return false;
  const references = profile.needs.filter((need) => need.required && need.in === 'path');
  return references.length === 1 && references[0]!.entities.includes(entity);
}

/** Whether the top of an endpoint's answer has a field for each of the terms (`name`, `phone`), when there are some. */
function answersFields(profile: EndpointProfile, asked: readonly string[]): boolean {
  if (asked.length === 0) return false;
  const fields = new Set(profile.offers.filter((offer) => offer.depth === 0).flatMap((offer) => terms(offer.name)));
  return asked.every((term) => fields.has(term));
}

/**
 * `Which branch is member M registered at? Give me that branch's details`: `that branch` is the
 * one an earlier step names (the member's `branch_id`), so the action reads that one branch by
 * its id (`GET /branches/{branch_id}`) rather than listing every branch (`GET /branches/extended`).
 * Returns the position of the candidate that takes the entity's id, or undefined to keep the first.
 */
/** The entities a clause points back to with a demonstrative (`that branch`, `these books`), stemmed. */
export function referredEntities(clause: RequirementClause): string[] {
  return [...clause.text.matchAll(/\b(?:that|this|these|those|same)\s+([A-Za-z]+)/gi)].map((match) =>
    stem(singular(match[1] ?? '')),
  );
}

export function referredAction(
  clause: RequirementClause,
  ranked: readonly RankedEndpoint[],
  earlier: readonly EndpointProfile[],
): number | undefined {
  const first = ranked[0];
  if (first === undefined) return undefined;
  const referred = referredEntities(clause);
  const mention = clause.mentions.find(
    (candidate) => referred.includes(candidate.entity) && candidate.given === undefined && !candidate.created,
  );
  if (mention === undefined) return undefined;
  const named = earlier.some((profile) =>
    profile.offers.some(
      (offer) =>
        offer.depth === 0 &&
        (offer.refers === mention.entity || (offer.kind === 'id' && offer.entities[0] === mention.entity)),
    ),
  );
  const takes = (profile: EndpointProfile): boolean =>
    profile.needs.some((need) => need.in === 'path' && need.required && need.entities.includes(mention.entity));
  if (!named || takes(first.profile)) return undefined;
  const at = ranked.findIndex(
    (candidate, position) => position > 0 && candidate.score >= first.score * MIN_SHARE && takes(candidate.profile),
  );
  return at > 0 ? at : undefined;
}

/**
 * `Show the history of ward1pu5j…`: no noun names the value, but its form is that of the
 * catalog's ward ids, so the action is the candidate that takes it (`GET /wards/{ward_id}/history`)
 * rather than one whose words match alike and that needs another entity. Returns its position
 * among all the ranked endpoints, or undefined.
 */
export function formedAction(
  index: PlannerIndex,
  clause: RequirementClause,
  ranked: readonly RankedEndpoint[],
): number | undefined {
  const values = clause.values.filter(
    (value) => tellingPrefix(value) && !clause.mentions.some((mention) => mention.given === value),
  );
  const first = ranked[0];
  if (values.length === 0 || first === undefined) return undefined;
  const takes = (profile: EndpointProfile): boolean =>
    profile.needs.some(
      (need) => need.in === 'path' && need.required && values.some((value) => hasFormOf(index, value, need)),
    );
  if (takes(first.profile)) return undefined;
  const at = ranked.findIndex(
    (candidate, position) => position > 0 && candidate.score >= first.score * MIN_SHARE && takes(candidate.profile),
  );
  return at > 0 ? at : undefined;
}
