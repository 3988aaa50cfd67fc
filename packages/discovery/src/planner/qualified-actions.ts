import type { EndpointProfile } from './endpoint-profile.js';
import type { RequirementClause } from './parse-requirement.js';
import type { PlannerIndex } from './planner-index.js';
import { termCoverage, type RankedEndpoint } from './rank-endpoints.js';

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
    (mention) => mention.qualifier.length > 0 && mention.given === undefined && !mention.created,
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
  ranked.forEach((candidate, at) => {
    if (at === 0 || candidate.score < first.score * MIN_SHARE || !takesQualified(candidate.profile)) return;
    const coverage = ownCoverage(candidate.profile);
    if (coverage >= firstCoverage + CLEARLY_MORE && (best === undefined || coverage > best.coverage))
      best = { at, coverage };
  });
  return best?.at;
}
