import type { PlannerIndex } from './planner-index.js';
import { relatedInCatalog } from './rank-endpoints.js';
import { nounHops } from './word-relations.js';

/**
 * Role nouns: `the AUTHOR of review 1234`, `the ASSIGNEE of the ticket`, `the first CUSTOMER`. A
 * word for a person that is no entity of the catalog names the catalog's entity for people
 * (`user`, `member`), reached through the field that holds it (a review's `username`). People are
 * the one kind every API's entities share under many role names; WordNet says which nouns are
 * people.
 */

const PERSON = 'person';
const personEntities = new WeakMap<PlannerIndex, ReadonlyArray<{ entity: string; hops: number }>>();
const roles = new WeakMap<PlannerIndex, Map<string, string | undefined>>();

/** The catalog's entities that are people, with how far each is from `person` (`user`: 1). */
function peopleOf(index: PlannerIndex): ReadonlyArray<{ entity: string; hops: number }> {
  const known = personEntities.get(index);
  if (known !== undefined) return known;
  const found: Array<{ entity: string; hops: number }> = [];
  // Only entities the catalog's endpoints are about or take (`user` is always known, not always there).
  const present = new Set(
    index.profiles.flatMap((profile) => [...profile.resources, ...profile.needs.flatMap((need) => need.entities)]),
  );
  for (const entity of index.knownEntities) {
    if (!present.has(entity)) continue;
    // Entities are stems (`archetyp`): the word itself or with its `e` back.
    const hops = nounHops(entity, PERSON) ?? nounHops(`${entity}e`, PERSON);
    if (hops !== undefined) found.push({ entity, hops });
  }
  found.sort((a, b) => a.hops - b.hops || a.entity.localeCompare(b.entity));
  personEntities.set(index, found);
  return found;
}

/**
 * The catalog entity a role noun names: of the catalog's people, the one WordNet relates the
 * word to (`surgeon` → `doctor`), else the most general (`user` before `owner`); undefined for a
 * word that names no person or a catalog without people.
 */
export function roleEntity(index: PlannerIndex, term: string, word: string): string | undefined {
  const cache = roles.get(index) ?? new Map<string, string | undefined>();
  roles.set(index, cache);
  const key = word.toLowerCase();
  if (cache.has(key)) return cache.get(key);
  let entity: string | undefined;
  const people = peopleOf(index);
  // `person` itself names no role: only a kind of person does (`author`, `customer`).
  if (people.length > 0 && (nounHops(key, PERSON) ?? 0) > 0) {
    const related = [...relatedInCatalog(index, term, word)].sort((a, b) => b[1] - a[1]);
    entity =
      related.map(([other]) => people.find((person) => person.entity === other)?.entity).find(Boolean) ??
      people[0]?.entity;
  }
  cache.set(key, entity);
  return entity;
}
