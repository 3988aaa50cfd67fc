import type { EndpointProfile } from './endpoint-profile.js';
import type { RequirementClause } from './parse-requirement.js';
import type { PlannerIndex } from './planner-index.js';
import { termCoverage, type RankedEndpoint } from './rank-endpoints.js';
import { isFieldOf } from './requirement-vocabulary.js';
import { singular, stem } from './text.js';
import { methodFit } from './vocabulary.js';

/** A candidate that reads the qualified entity is taken when it matches the clause's own words this much better. */
const CLEARLY_MORE = 0.1;
/** … and scores at least this share of the best candidate. */
const MIN_SHARE = 0.5;

/**
 * `Show the inputs and outputs of the first transaction in the latest block`: the words that say
 * which transaction (`in the latest block`) name where its id comes from, so the endpoint that
 * best matches them (`GET /blocks/latest/txs`) is the producer, not the action. The action is the
 * candidate that takes the qualified entity's id and matches the rest of the clause better
 * (`GET /txs/{hash}/utxos`). Returns its position among the candidates, or undefined to keep the
 * first.
 */
export function qualifiedAction(
  index: PlannerIndex,
  clause: RequirementClause,
  ranked: readonly RankedEndpoint[],
): number | undefined {
  const qualified = clause.mentions.find(
    (mention) =>
      mention.qualifier.length > 0 &&
      mention.given === undefined &&
      !mention.created &&
      // `the name and TICKER of the stake pool …`: a field of the entity the phrase names is asked of that entity.
      !mention.qualifier.some((term) => isFieldOf(index, mention.entity, term)),
  );
  const first = ranked[0];
  if (qualified === undefined || first === undefined) return undefined;
  const takesQualified = (profile: EndpointProfile): boolean =>
    profile.needs.some((need) => need.in === 'path' && need.required && need.entities.includes(qualified.entity));
  if (takesQualified(first.profile)) return undefined;
  const own = clause.terms.filter((term) => !clause.modifiers.includes(term) && !qualified.qualifier.includes(term));
  const ownCoverage = (profile: EndpointProfile): number =>
    termCoverage(index, own, profile, [], clause.surface).coverage;
  const firstCoverage = ownCoverage(first.profile);
  let best: { at: number; coverage: number } | undefined;
  // The action still does what the clause's verb asks: a read does not take a write's place.
  const fit = (profile: EndpointProfile): number =>
    clause.intent !== undefined ? methodFit(clause.intent, profile.endpoint.method) : 1;
  ranked.forEach((candidate, at) => {
    if (at === 0 || candidate.score < first.score * MIN_SHARE || !takesQualified(candidate.profile)) return;
    if (fit(candidate.profile) < fit(first.profile)) return;
    const coverage = ownCoverage(candidate.profile);
    if (coverage >= firstCoverage + CLEARLY_MORE && (best === undefined || coverage > best.coverage))
      best = { at, coverage };
  });
  return best?.at;
}

/**
 * `Which pool is account S delegated to? Give me that pool's details`: `that pool` is the one an
 * earlier step names (the account's `pool_id`), so the action reads that one pool by its id
 * (`GET /pools/{pool_id}`) rather than listing every pool (`GET /pools/extended`). Returns the
 * position of the candidate that takes the entity's id, or undefined to keep the first.
 */
export function referredAction(
  clause: RequirementClause,
  ranked: readonly RankedEndpoint[],
  earlier: readonly EndpointProfile[],
): number | undefined {
  const first = ranked[0];
  if (first === undefined) return undefined;
  const referred = [...clause.text.matchAll(/\b(?:that|this|these|those|same)\s+([A-Za-z]+)/gi)].map((match) =>
    stem(singular(match[1] ?? '')),
  );
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
