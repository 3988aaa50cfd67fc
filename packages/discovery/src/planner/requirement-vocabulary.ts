import type { RequirementVocabulary } from './parse-requirement.js';
import type { PlannerIndex } from './planner-index.js';
import { entityOfWord } from './rank-endpoints.js';
import { roleEntity } from './role-nouns.js';
import { singular, stem } from './text.js';

/**
 * What a catalog tells the requirement reader: which words it uses, which are its entities, and
 * which entity a word names when it is not one itself. A word the catalog's own paths use
 * (`schedule`, `manifest`) names what the catalog means by it, never a related entity (WordNet's
 * `schedule` is also a `plan`). A word for a person names the catalog's entity for people
 * (`the author of …` is a user).
 */
export function requirementVocabulary(index: PlannerIndex): RequirementVocabulary {
  return {
    isFieldOf: (term, entity) => isFieldOf(index, term, entity),
    isCatalogWord: (term) => index.idf.has(term),
    isEntity: (term) => index.knownEntities.has(term),
    entityOf: (term, word) =>
      index.pathTerms.has(term) ? undefined : (entityOfWord(index, term, word) ?? roleEntity(index, term, word)),
  };
}

/** Whether a stemmed word names a top-level field of what an entity's own reads answer (`tonnage` of a ship). */
export function isFieldOf(index: PlannerIndex, term: string, entity: string): boolean {
  return fieldsByEntity(index).get(entity)?.has(term) ?? false;
}

/** The top-level fields each entity's own endpoints answer (`/ships/{ship_id}/manifest` → `tonnage`, `name`, …). */
const fieldsOf = new WeakMap<PlannerIndex, Map<string, Set<string>>>();

function fieldsByEntity(index: PlannerIndex): Map<string, Set<string>> {
  const known = fieldsOf.get(index);
  if (known !== undefined) return known;
  const found = new Map<string, Set<string>>();
  for (const profile of index.profiles) {
    const entity = profile.resources[0];
    if (entity === undefined || profile.endpoint.method !== 'GET') continue;
    const own = found.get(entity) ?? new Set<string>();
    for (const offer of profile.offers) if (offer.depth === 0 && !offer.container) own.add(stem(singular(offer.name)));
    found.set(entity, own);
  }
  fieldsOf.set(index, found);
  return found;
}
