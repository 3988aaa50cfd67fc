import type { CatalogEntry } from '../catalog/catalog-service.js';
import {
  buildProfile,
  entityAliasesOf,
  knownEntitiesOf,
  staticSegments,
  type EndpointProfile,
} from './endpoint-profile.js';
import { terms } from './text.js';
import { shapeKey, tellingPrefix, valuePrefix } from './value-shapes.js';

/**
 * Everything the planner precomputes over a catalog: one profile per endpoint and how rare each
 * term is (rare terms tell endpoints apart; `get` or `user` do not). Build it once per catalog
 * and plan many requirements against it.
 */
export interface PlannerIndex {
  profiles: EndpointProfile[];
  byId: Map<string, EndpointProfile>;
  /** Inverse document frequency of each term over the endpoints. */
  idf: Map<string, number>;
  knownEntities: ReadonlySet<string>;
  /** What the catalog's summaries call the entities its paths abbreviate (`rx` → `prescription`). */
  entityAliases: ReadonlyMap<string, string>;
  /** Prefixes of the examples of each field's values (`patientid` → `pat`), by field name. */
  valueShapes: ReadonlyMap<string, ReadonlySet<string>>;
  /** Stemmed words of the catalog's static path segments (`schedule`, `manifest`): what it names things itself. */
  pathTerms: ReadonlySet<string>;
  /** Catalog words related to a requirement's word, filled as requirements are planned. */
  related: Map<string, ReadonlyArray<[string, number]>>;
}

/**
 * @example
 * const index = buildPlannerIndex((await catalog.listEndpoints('default', { limit: 200 })).items);
 */
export function buildPlannerIndex(endpoints: CatalogEntry[]): PlannerIndex {
  const entityAliases = entityAliasesOf(endpoints);
  const knownEntities = knownEntitiesOf(endpoints, entityAliases);
  const profiles = endpoints.map((endpoint) => buildProfile(endpoint, knownEntities, entityAliases));
  const documentFrequency = new Map<string, number>();
  for (const profile of profiles) {
    for (const term of profile.fields.keys()) documentFrequency.set(term, (documentFrequency.get(term) ?? 0) + 1);
  }
  const count = Math.max(profiles.length, 1);
  const idf = new Map<string, number>();
  for (const [term, frequency] of documentFrequency) idf.set(term, Math.log(1 + count / frequency));
  const valueShapes = valueShapesOf(profiles);
  linkSameForms(profiles, valueShapes);
  return {
    profiles,
    byId: new Map(profiles.map((profile) => [profile.endpoint.id, profile])),
    idf,
    knownEntities,
    entityAliases,
    valueShapes,
    pathTerms: new Set(endpoints.flatMap((endpoint) => terms(staticSegments(endpoint.path).join(' ')))),
    related: new Map(),
  };
}

/** The prefixes of the examples the catalog's responses give for each field name. */
function valueShapesOf(profiles: EndpointProfile[]): Map<string, Set<string>> {
  const shapes = new Map<string, Set<string>>();
  for (const profile of profiles)
    for (const offer of profile.offers) {
      const prefix = offer.example !== undefined ? valuePrefix(offer.example) : undefined;
      if (prefix === undefined) continue;
      const key = shapeKey(offer.name);
      shapes.set(key, (shapes.get(key) ?? new Set<string>()).add(prefix));
    }
  return shapes;
}

/**
 * Marks each offered value whose example has a telling prefix with the other field names whose
 * examples all share it: a `referring_patient` reading `pat1…` is a `patient_id` where every
 * `patient_id` reads `pat1…`.
 */
function linkSameForms(profiles: EndpointProfile[], shapes: ReadonlyMap<string, ReadonlySet<string>>): void {
  const namesByPrefix = new Map<string, string[]>();
  for (const [name, prefixes] of shapes)
    if (prefixes.size === 1)
      for (const prefix of prefixes) namesByPrefix.set(prefix, [...(namesByPrefix.get(prefix) ?? []), name]);
  for (const profile of profiles)
    for (const offer of profile.offers) {
      const example = offer.example;
      const prefix = example !== undefined && tellingPrefix(example) ? valuePrefix(example) : undefined;
      if (prefix === undefined) continue;
      const own = shapeKey(offer.name);
      const others = (namesByPrefix.get(prefix) ?? []).filter((name) => name !== own);
      if (others.length > 0) offer.sameForm = others;
    }
}

/** How rare a term is; a term no endpoint uses counts as the rarest. */
export function idfOf(index: PlannerIndex, term: string): number {
  return index.idf.get(term) ?? Math.log(1 + Math.max(index.profiles.length, 1));
}
