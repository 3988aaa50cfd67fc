import type { EndpointProfile } from './endpoint-profile.js';
import type { RequirementClause } from './parse-requirement.js';
import { idfOf, type PlannerIndex } from './planner-index.js';
import { isGenericVerb, methodFit, synonymsOf } from './vocabulary.js';

/** A synonym counts for less than the word itself. */
const SYNONYM_FACTOR = 0.7;
/** Generic verbs (`make`, `get`) count this much of a content word. */
const GENERIC_VERB_FACTOR = 0.3;
/** Terms that only qualify the object count this much when choosing the action's endpoint. */
const MODIFIER_FACTOR = 0.35;
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
): { coverage: number; matched: string[] } {
  let got = 0;
  let possible = 0;
  const matched: string[] = [];
  for (const term of new Set(clauseTerms)) {
    const weight =
      idfOf(index, term) *
      (isGenericVerb(term) ? GENERIC_VERB_FACTOR : 1) *
      (lighter.includes(term) ? MODIFIER_FACTOR : 1);
    possible += weight * MAX_FIELD_WEIGHT;
    let best = profile.fields.get(term) ?? 0;
    if (best < MAX_FIELD_WEIGHT) {
      for (const synonym of synonymsOf(term))
        best = Math.max(best, (profile.fields.get(synonym) ?? 0) * SYNONYM_FACTOR);
    }
    if (best > 0) {
      got += weight * best;
      matched.push(term);
    }
  }
  return { coverage: possible === 0 ? 0 : got / possible, matched };
}

/**
 * Scores every endpoint for one clause: term coverage (rare terms in summaries and paths count
 * most), scaled by how well the method fits the clause's verb, plus a bonus when the summary
 * starts with that verb (`Follow Artists or Users` for "follow …").
 */
export function rankEndpoints(index: PlannerIndex, clause: RequirementClause, limit = 5): RankedEndpoint[] {
  const ranked: RankedEndpoint[] = [];
  for (const profile of index.profiles) {
    const { coverage, matched } = termCoverage(index, clause.terms, profile, clause.modifiers);
    if (coverage === 0) continue;
    const method = profile.endpoint.method;
    const fit = clause.intent !== undefined ? methodFit(clause.intent, method) : method === 'GET' ? 0.8 : 0.6;
    const verbMatches =
      clause.verb !== undefined &&
      profile.summaryVerb !== undefined &&
      (profile.summaryVerb === clause.verb || synonymsOf(clause.verb).has(profile.summaryVerb));
    let score = coverage * (0.45 + 0.55 * fit) + (verbMatches ? 0.15 : 0);
    if (profile.endpoint.deprecated) score *= 0.8;
    score = Math.min(1, score);
    const said = (term: string): string => `"${clause.surface[term] ?? term}"`;
    const reasons = [`matches ${matched.map(said).join(', ')} (${Math.round(coverage * 100)}% of the clause's weight)`];
    if (clause.intent !== undefined) {
      const verb = clause.verb !== undefined ? (clause.surface[clause.verb] ?? clause.verb) : clause.intent;
      reasons.push(
        `${method} ${fit >= 0.99 ? 'fits' : fit > 0 ? 'partly fits' : 'does not fit'} "${verb}" (${clause.intent})`,
      );
    }
    if (verbMatches) reasons.push(`summary starts with the clause's verb`);
    ranked.push({ profile, score, matched, reasons });
  }
  ranked.sort(
    (a, b) =>
      b.score - a.score ||
      a.profile.endpoint.path.length - b.profile.endpoint.path.length ||
      a.profile.endpoint.id.localeCompare(b.profile.endpoint.id),
  );
  return ranked.slice(0, limit);
}
