import type { RequirementVocabulary } from './parse-requirement.js';
import type { PlannerIndex } from './planner-index.js';
import { entityOfWord } from './rank-endpoints.js';
import { roleEntity } from './role-nouns.js';

/**
 * What a catalog tells the requirement reader: which words it uses, which are its entities, and
 * which entity a word names when it is not one itself. A word the catalog's own paths use
 * (`history`, `metadata`) names what the catalog means by it, never a related entity (WordNet's
 * `history` is also an `account`). A word for a person names the catalog's entity for people
 * (`the author of …` is a user).
 */
export function requirementVocabulary(index: PlannerIndex): RequirementVocabulary {
  return {
    isCatalogWord: (term) => index.idf.has(term),
    isEntity: (term) => index.knownEntities.has(term),
    entityOf: (term, word) =>
      index.pathTerms.has(term) ? undefined : (entityOfWord(index, term, word) ?? roleEntity(index, term, word)),
  };
}
