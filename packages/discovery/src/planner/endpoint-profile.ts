import type { CatalogEntry } from '../catalog/catalog-service.js';
import { isObject } from '../catalog/json-pointer.js';
import { endpointActions, type EndpointAction } from './endpoint-actions.js';
import { aspectsOf, type Aspect } from './verb-aspect.js';
import {
  arrayItems,
  pinnedValue,
  requiredProperties,
  schemaProperties,
  schemaTitle,
  successSchema,
  successSchemas,
} from './schema-walk.js';
import { isStopword, singular, stem, terms, words } from './text.js';
import { intentOfWord } from './vocabulary.js';
import { isDictionaryWord } from './word-relations.js';

/**
 * What the planner knows of one endpoint: the terms that describe it (with how strongly each
 * field counts), the resource it is about, the values it needs from elsewhere (path parameters,
 * required query and body fields, references to other resources) and the values its success
 * response offers to later steps.
 */
export interface EndpointProfile {
  endpoint: CatalogEntry;
  /** Stemmed term → weight of the strongest field it appears in. */
  fields: Map<string, number>;
  /** The terms of the summary and the path: what the endpoint is, to see how much of it a clause asks for. */
  core: string[];
  /** Stem of the summary's first word (`Admit Patients` → `admit`), when the summary starts with a verb-like word. */
  summaryVerb: string | undefined;
  /** The actions the endpoint names (its summary's verb, a verb ending its path, the states its input chooses among). */
  actions: EndpointAction[];
  /** What its summary's and path's verbs say of the time (`expiring` under way, `expired` over), by term. */
  aspects: Record<string, Aspect>;
  /** Entity stems this endpoint is about, most specific first (`/wards/{id}/patients` → `patient`). */
  resources: string[];
  needs: NeededInput[];
  offers: OfferedValue[];
  /** Lower-case words of the description, to find what it says other endpoints give (`obtained from the authorize endpoint`). */
  descriptionWords: string[];
}

export type ValueKind = 'id' | 'uri' | 'value';

export interface NeededInput {
  in: 'path' | 'query' | 'header' | 'body';
  /** Parameter name or dotted body path. */
  name: string;
  required: boolean;
  kind: ValueKind;
  /** Entity stems the value refers to (`patient_id` → `patient`), most likely first. */
  entities: string[];
  /** An array (or comma-separated list) of references, e.g. `ids`. */
  list: boolean;
  /** A bare `id`/`ids`/`uri` outside the path: what it refers to comes from the request's words. */
  generic: boolean;
  schema: unknown;
  description: string;
  /** The entities were read from the description (`Must be a book or a journal uri`), not the name. */
  described?: boolean;
}

export interface OfferedValue {
  /** `items[0].id`, `id`, `books.items[0].uri`. */
  path: string;
  /** The last property name, e.g. `id`. */
  name: string;
  kind: ValueKind;
  /** Entity stems of the object the value belongs to. */
  entities: string[];
  /** Depth of nesting; shallower values are the endpoint's own. */
  depth: number;
  /** A whole list or object, passed on by name. */
  container?: boolean;
  /** The entity the name's first words refer to (`rx_code` → `prescription`, `ward_id` → `ward`). */
  refers?: string;
  /** The schema's example of a text value (`member1q7ka…`), to learn the form the catalog's values take. */
  example?: string;
  /**
   * Other field names whose examples have this value's form (a ward's `attending` reads
   * `doc1…` like every `doctor_id`): the value is one of theirs, whatever its own name.
   */
  sameForm?: string[];
}

/** Field weights: where a term appears says how much it tells about the endpoint. */
const WEIGHT = {
  summary: 3,
  operationId: 2,
  path: 2.5,
  tags: 1,
  description: 1,
  parameters: 0.6,
  schema: 0.6,
  response: 0.5,
  /** A top-level field of the response: what the endpoint answers (`inputs`, `outputs`). */
  ownField: 1,
};
const GENERIC_KEYS = new Set([
  'item',
  'items',
  'data',
  'result',
  'results',
  'content',
  'value',
  'values',
  'record',
  'records',
  'entries',
  'list',
  'elements',
  'node',
  'nodes',
  'object',
]);
const MAX_OFFERS = 120;

export function valueKind(name: string): ValueKind {
  if (/^(id|ids)$/i.test(name) || /[_-](id|ids)$/i.test(name) || /[a-z0-9](Id|ID|Ids|IDs)$/.test(name)) return 'id';
  if (/^(uri|uris|href)$/i.test(name) || /[_-](uri|uris)$/i.test(name) || /[a-z0-9](Uri|URI|Uris)$/.test(name))
    return 'uri';
  return 'value';
}

/**
 * `patient_id` → `patient`, `petId` → `pet`, `parent_uri` → `parent`, `newCustomer` →
 * `customer`; undefined for a bare `id`.
 */
export function entityOfName(name: string): string | undefined {
  const parts = words(name);
  if (parts.length < 2) return undefined;
  const head = valueKind(name) === 'value' ? parts : parts.slice(0, -1);
  const last = head[head.length - 1];
  return last === undefined ? undefined : stem(singular(last));
}

/** The entity an input's own name identifies: `patient_id` → `patient`, `username` → `user`. */
export function nameEntity(name: string, known: ReadonlySet<string>): string | undefined {
  return entityOfName(name) ?? compoundEntity(name, known);
}

/**
 * `username`, `userid`, `groupslug`: one word that joins an entity of the catalog to what
 * identifies it, so it identifies that entity (`/user-loans/{username}` takes a user, not a loan).
 */
function compoundEntity(name: string, known: ReadonlySet<string>): string | undefined {
  const match = /^([a-z]{3,}?)(name|id|key|code|slug|handle|login)$/.exec(name.toLowerCase());
  const entity = match?.[1] !== undefined ? stem(singular(match[1])) : undefined;
  return entity !== undefined && known.has(entity) ? entity : undefined;
}

/** Names the catalog's paths use for entities, mapped to what its summaries call them (`rxs` → `prescription`). */
export type EntityAliases = ReadonlyMap<string, string>;

const NO_ALIASES: EntityAliases = new Map();

/** A path segment without a file extension: `latest.json` → `latest`, `{id}.json` → `{id}`. */
export function bareSegment(segment: string): string {
  return segment.replace(/\.(json|xml|ya?ml|txt|csv|html?)$/i, '');
}

/** The entity a static path segment names: `patients` → `patient`, `rxs` → `prescription` where the catalog says so. */
export function segmentEntity(segment: string, aliases: EntityAliases = NO_ALIASES): string {
  const noun = stem(singular(words(bareSegment(segment)).at(-1) ?? ''));
  return aliases.get(noun) ?? noun;
}

/** The static segments of a path, extensions dropped: `/w/{id}/beds.json` → `w`, `beds`. */
export function staticSegments(path: string): string[] {
  return path
    .split('/')
    .map(bareSegment)
    .filter((segment) => segment !== '' && !segment.startsWith('{'));
}

/**
 * What the summaries call a collection whose path name is not what they say: `GET /rxs/{code}`
 * is `Specific prescription`, `GET /pt/{mrn}` is `Get a single patient`. Read from endpoints that
 * fetch one item (`/<collection>/{param}`), when the summary never uses the path's name and
 * names one noun.
 */
export function entityAliasesOf(endpoints: CatalogEntry[]): Map<string, string> {
  const votes = new Map<string, Map<string, number>>();
  for (const endpoint of endpoints) {
    if (endpoint.method !== 'GET') continue;
    const all = endpoint.path.split('/').map(bareSegment);
    // `/c/{id}/show`: an item read through a verb segment is still the item.
    const segments = intentOfWord(all.at(-1) ?? '') === 'read' ? all.slice(0, -1) : all;
    const last = segments.at(-1) ?? '';
    const collection = segments.at(-2) ?? '';
    if (!last.startsWith('{') || collection === '' || collection.startsWith('{')) continue;
    const noun = stem(singular(words(collection).at(-1) ?? ''));
    // Only a name that is no English word of its own is an abbreviation to read (`rxs`, `pt`).
    if (noun.length > 3 && isDictionaryWord(singular(words(collection).at(-1) ?? ''))) continue;
    const said = words(endpoint.summary).filter(
      (word) => !isStopword(word) && intentOfWord(word) === undefined && !/^(specific|single|one|given|by)$/.test(word),
    );
    const stems = said.map((word) => stem(singular(word)));
    if (stems.includes(noun) || stems.some((term) => term.startsWith(noun) && noun.length >= 3)) continue;
    const paramWords = new Set(words(last).map((word) => stem(word)));
    const nouns = stems.filter((term) => !paramWords.has(term));
    if (nouns.length === 0) continue;
    // The summary's last noun names what is fetched (`Get a single user by username` → `user`).
    const named = nouns[0]!;
    const tally = votes.get(noun) ?? new Map<string, number>();
    tally.set(named, (tally.get(named) ?? 0) + 1);
    votes.set(noun, tally);
  }
  const aliases = new Map<string, string>();
  for (const [noun, tally] of votes) {
    const [best] = [...tally].sort((a, b) => b[1] - a[1]);
    if (best !== undefined && best[0] !== noun) aliases.set(noun, best[0]);
  }
  return aliases;
}

/** Static path segments are the catalog's nouns: `/wards/{ward_id}/patients` → `ward`, `patient`. */
export function pathNouns(path: string): string[] {
  return staticSegments(path)
    .flatMap((segment) => words(segment))
    .map((word) => stem(singular(word)));
}

export function buildProfile(
  endpoint: CatalogEntry,
  knownEntities: ReadonlySet<string>,
  aliases: EntityAliases = NO_ALIASES,
): EndpointProfile {
  const fields = new Map<string, number>();
  const add = (text: string, weight: number): void => {
    for (const term of terms(text)) if ((fields.get(term) ?? 0) < weight) fields.set(term, weight);
  };
  add(endpoint.summary, WEIGHT.summary);
  add(endpoint.operationId ?? '', WEIGHT.operationId);
  add(staticSegments(endpoint.path).join(' '), WEIGHT.path);
  // What the catalog calls the path's abbreviations (`rxs` is `prescription`) counts as the path.
  for (const segment of staticSegments(endpoint.path)) {
    const alias = aliases.get(stem(singular(words(segment).at(-1) ?? '')));
    if (alias !== undefined && (fields.get(alias) ?? 0) < WEIGHT.path) fields.set(alias, WEIGHT.path);
  }
  add(endpoint.tags.join(' '), WEIGHT.tags);
  add(firstSentences(endpoint.description), WEIGHT.description);
  add(endpoint.parameters.map((param) => param.name).join(' '), WEIGHT.parameters);
  add(Object.keys(schemaProperties(endpoint.requestBody?.schema)).join(' '), WEIGHT.parameters);
  const response = successSchema(endpoint.responses);
  add(schemaTitle(response) ?? '', WEIGHT.schema);

  const summaryWords = words(endpoint.summary);
  const firstWord = summaryWords[0];
  const summaryVerb =
    firstWord !== undefined && (intentOfWord(firstWord) !== undefined || !knownEntities.has(stem(singular(firstWord))))
      ? stem(firstWord)
      : undefined;
  const resources = resourcesOf(endpoint, knownEntities, aliases, false);
  const offers = successSchemas(endpoint.responses)
    .flatMap((schema) => offersOf(schema, resources, knownEntities, aliases))
    .filter((offer, position, all) => all.findIndex((other) => other.path === offer.path) === position);
  // The names of what the response holds say what the endpoint answers (`supply.circulating`).
  for (const offer of offers)
    if (offer.depth <= 1)
      for (const term of terms(offer.name))
        if ((fields.get(term) ?? 0) < (offer.depth === 0 ? WEIGHT.ownField : WEIGHT.response))
          fields.set(term, offer.depth === 0 ? WEIGHT.ownField : WEIGHT.response);
  const core = [
    ...new Set([
      ...terms(endpoint.summary.trim() !== '' ? endpoint.summary : (endpoint.operationId ?? '')),
      ...staticSegments(endpoint.path).flatMap((segment) => {
        const alias = aliases.get(stem(singular(words(segment).at(-1) ?? '')));
        return alias !== undefined ? [alias] : terms(segment);
      }),
    ]),
  ];
  return {
    endpoint,
    fields,
    core,
    summaryVerb,
    actions: endpointActions(endpoint, knownEntities),
    aspects: aspectsOf(`${endpoint.summary} ${staticSegments(endpoint.path).join(' ')}`),
    resources,
    needs: needsOf(endpoint, resources, knownEntities, aliases),
    descriptionWords: words(`${endpoint.summary} ${endpoint.description}`),
    // `/me/pump` answers a pump's state, not a user: the root is what the path's end or the summary names.
    offers,
  };
}

/**
 * The catalog's entities: what a path parameter identifies (`/patients/{patient_id}` →
 * `patient`) and what responses return as objects with an `id` (`doctors: [{ id, … }]`).
 * Action segments such as `/pump/pause` are not entities.
 */
export function knownEntitiesOf(endpoints: CatalogEntry[], aliases: EntityAliases = NO_ALIASES): Set<string> {
  const known = new Set<string>(['user']);
  for (const endpoint of endpoints) {
    const segments = endpoint.path.split('/').map(bareSegment);
    segments.forEach((segment, position) => {
      const next = segments[position + 1];
      if (next !== undefined && next.startsWith('{') && !segment.startsWith('{') && segment !== '') {
        known.add(segmentEntity(segment, aliases));
      }
    });
    const last = segments.filter((segment) => segment !== '' && !segment.startsWith('{')).at(-1);
    for (const response of successSchemas(endpoint.responses)) {
      collectIdentifiedKeys(response, known, 0);
      // `POST /customers` answering `{ id, … }` or a self link creates customers.
      const properties = schemaProperties(response);
      // `/orders/{orderId}/ship` answers the order: `ship` is an action, not a collection.
      const action = last !== undefined && intentOfWord(words(last)[0] ?? '') !== undefined;
      if (
        endpoint.method === 'POST' &&
        last !== undefined &&
        !action &&
        ('id' in properties || 'links' in properties || '_links' in properties)
      ) {
        known.add(segmentEntity(last, aliases));
      }
    }
  }
  known.delete('');
  return known;
}

function collectIdentifiedKeys(schema: unknown, known: Set<string>, depth: number): void {
  if (depth > 4) return;
  const items = arrayItems(schema);
  if (items !== undefined) {
    collectIdentifiedKeys(items, known, depth + 1);
    return;
  }
  const properties = schemaProperties(schema);
  const pinned = pinnedValue(properties.type);
  if (pinned !== undefined && 'id' in properties) known.add(stem(singular(pinned)));
  for (const [name, child] of Object.entries(properties)) {
    const childItems = arrayItems(child);
    const target = childItems ?? child;
    // A list names its items' entity only in the plural (`doctors`, not `waitlist`).
    const namesItems = childItems === undefined || singular(name) !== name.toLowerCase();
    if ('id' in schemaProperties(target) && namesItems && !GENERIC_KEYS.has(name.toLowerCase()))
      known.add(stem(singular(name)));
    collectIdentifiedKeys(child, known, depth + 1);
  }
}

/** The opening of a description, markup and asides in brackets dropped: what it says first. */
export function firstSentences(text: string): string {
  return text
    .replace(/<[^>]+>/g, ' ')
    .replace(/\([^)]*\)/g, ' ')
    .slice(0, 300);
}

function resourcesOf(
  endpoint: CatalogEntry,
  known: ReadonlySet<string>,
  aliases: EntityAliases,
  withParents = true,
): string[] {
  const out: string[] = [];
  const push = (entity: string | undefined): void => {
    if (entity !== undefined && entity !== '' && known.has(entity) && !out.includes(entity)) out.push(entity);
  };
  const statics = staticSegments(endpoint.path);
  // `/pet/findByTags`: a segment that starts with a verb is an action, not a collection.
  const collections = statics.filter(
    (segment) => intentOfWord(words(segment)[0] ?? '') === undefined || segment === 'me',
  );
  const last = collections[collections.length - 1];
  if (last === 'me') push('user');
  else if (last !== undefined) push(segmentEntity(last, aliases));
  // `Enroll Students or Teachers`, `Get Currently Admitted Patient`: the summary's nouns.
  for (const word of words(endpoint.summary)) push(stem(singular(word)));
  if (!withParents) return out;
  for (const segment of collections.slice(0, -1).reverse())
    push(segment === 'me' ? 'user' : segmentEntity(segment, aliases));
  return out;
}

function needsOf(
  endpoint: CatalogEntry,
  resources: string[],
  known: ReadonlySet<string>,
  aliases: EntityAliases,
): NeededInput[] {
  const needs: NeededInput[] = [];
  const segments = endpoint.path.split('/').map(bareSegment);
  for (const param of endpoint.parameters) {
    if (param.in === 'cookie') continue;
    const kind = valueKind(param.name);
    const entities: string[] = [];
    let described = false;
    const own = entityOfName(param.name) ?? (param.in === 'path' ? compoundEntity(param.name, known) : undefined);
    if (own !== undefined) entities.push(own);
    if (param.in === 'path') {
      // `/doctors/{id}`: the segment before the parameter names what the id identifies.
      const at = segments.indexOf(`{${param.name}}`);
      const before = at > 0 ? segments[at - 1] : undefined;
      if (before !== undefined && !before.startsWith('{')) {
        const noun = before === 'me' ? 'user' : segmentEntity(before, aliases);
        if (noun !== '' && !entities.includes(noun)) entities.push(noun);
      }
    } else if (kind !== 'value' && own === undefined) {
      for (const resource of resources) if (!entities.includes(resource)) entities.push(resource);
      // `uri` of an endpoint about no entity, described as `The uri of the item to add. Must be a book or a journal uri`.
      if (entities.length === 0) {
        entities.push(...describedEntities(parameterDescription(param), known, aliases));
        described = entities.length > 0;
      }
    }
    const knownEntities = entities.filter((entity) => known.has(entity) || entity === own);
    needs.push({
      in: param.in,
      name: param.name,
      required: param.required,
      // A path parameter after a collection identifies one of it, whatever its name (`{code}`, `{username}`).
      kind: param.in === 'path' && kind === 'value' && knownEntities.length > 0 ? 'id' : kind,
      entities: knownEntities,
      list: /s$/i.test(param.name) && kind !== 'value',
      generic: param.in !== 'path' && own === undefined,
      schema: param.schema,
      description: param.description ?? '',
      ...(described ? { described } : {}),
    });
  }
  const body = endpoint.requestBody;
  if (body !== null) {
    const properties = schemaProperties(body.schema);
    const required = new Set(requiredProperties(body.schema));
    for (const [name, schema] of Object.entries(properties)) {
      const kind = valueKind(name);
      const nested = required.has(name) && kind === 'value' ? nestedReference(name, schema) : undefined;
      if (nested !== undefined) {
        needs.push(nested);
        continue;
      }
      // Optional plain fields are kept only to be fed by a same-named output of an earlier step.
      if (needs.some((need) => need.name === name && need.in === 'query')) continue;
      const own = entityOfName(name);
      const entities = own !== undefined ? [own] : kind !== 'value' ? [...resources] : [];
      needs.push({
        in: 'body',
        name,
        required: required.has(name),
        kind,
        entities,
        list: arrayItems(schema) !== undefined || (/s$/i.test(name) && kind !== 'value'),
        generic: own === undefined,
        schema,
        description: isObject(schema) && typeof schema.description === 'string' ? schema.description : '',
      });
    }
  }
  return needs;
}

/** `books: [{ uri }]` (required): a list of references to books, fed as `books[0].uri`. */
function nestedReference(name: string, schema: unknown): NeededInput | undefined {
  const items = arrayItems(schema);
  if (items === undefined) return undefined;
  const property = Object.entries(schemaProperties(items)).find(([key]) => valueKind(key) !== 'value');
  if (property === undefined) return undefined;
  const [key, child] = property;
  return {
    in: 'body',
    name: `${name}[0].${key}`,
    required: true,
    kind: valueKind(key),
    entities: [stem(singular(name))],
    list: true,
    generic: false,
    schema: child,
    description: isObject(schema) && typeof schema.description === 'string' ? schema.description : '',
  };
}

/** What a parameter's description says, on the parameter or on its schema. */
function parameterDescription(param: CatalogEntry['parameters'][number]): string {
  if (param.description !== undefined && param.description.trim() !== '') return param.description;
  return isObject(param.schema) && typeof param.schema.description === 'string' ? param.schema.description : '';
}

/** The catalog's entities a description names, in order, at most two (`Must be a book or a journal uri`). */
function describedEntities(description: string, known: ReadonlySet<string>, aliases: EntityAliases): string[] {
  const found: string[] = [];
  for (const word of words(firstSentences(description))) {
    const noun = stem(singular(word));
    const entity = aliases.get(noun) ?? noun;
    if (!isStopword(word) && known.has(entity) && !found.includes(entity)) found.push(entity);
    if (found.length === 2) break;
  }
  return found;
}

/** The values of the success response, breadth first, with the entity each belongs to. */
function offersOf(
  response: unknown,
  resources: string[],
  known: ReadonlySet<string>,
  aliases: EntityAliases,
): OfferedValue[] {
  const refersOf = (name: string): string | undefined => {
    const parts = words(name);
    if (parts.length < 2) return undefined;
    const entity = stem(singular(parts.slice(0, -1).at(-1) ?? ''));
    // `rx_code` names what the paths call `rxs`: a short abbreviation's plural is its path name.
    const resolved = aliases.get(entity) ?? aliases.get(`${entity}s`) ?? entity;
    return known.has(resolved) ? resolved : undefined;
  };
  const offers: OfferedValue[] = [];
  if (response === undefined) return offers;
  const queue: Array<{ schema: unknown; path: string; entities: string[]; depth: number }> = [
    { schema: response, path: '', entities: resources.slice(0, 1), depth: 0 },
  ];
  while (queue.length > 0 && offers.length < MAX_OFFERS) {
    const { schema, path, entities, depth } = queue.shift()!;
    const items = arrayItems(schema);
    if (items !== undefined) {
      // `["PX81…", "PX92…"]` described as `Code of the parcel`: each item is a value of its own.
      const scalar = scalarItem(items, known, aliases);
      if (scalar !== undefined)
        offers.push({
          path: `${path}[0]`,
          name: scalar.name,
          kind: valueKind(scalar.name),
          entities: scalar.entity !== undefined ? [scalar.entity] : entities,
          depth: depth + 1,
        });
      else if (depth < 5) queue.push({ schema: items, path: `${path}[0]`, entities, depth: depth + 1 });
      continue;
    }
    const properties = schemaProperties(schema);
    const pinnedType = pinnedValue(properties.type);
    const own = pinnedType !== undefined ? [stem(singular(pinnedType)), ...entities] : entities;
    for (const [name, child] of Object.entries(properties)) {
      const childPath = path === '' ? name : `${path}.${name}`;
      const isContainer = arrayItems(child) !== undefined || Object.keys(schemaProperties(child)).length > 0;
      if (isContainer) {
        // A whole list or object can be passed on by name (`products` → `products`).
        if (depth <= 0) offers.push({ path: childPath, name, kind: 'value', entities: own, depth, container: true });
        if (depth >= 4) continue;
        const noun = stem(singular(name));
        const childEntities = GENERIC_KEYS.has(name.toLowerCase()) ? own : known.has(noun) ? [noun] : [noun, ...own];
        queue.push({ schema: child, path: childPath, entities: childEntities, depth: depth + 1 });
      } else {
        const example = isObject(child) && typeof child.example === 'string' ? child.example : undefined;
        offers.push({
          path: childPath,
          name,
          kind: valueKind(name),
          entities: own,
          depth,
          refers: refersOf(name),
          ...(example !== undefined ? { example } : {}),
        });
      }
    }
  }
  return offers;
}

/**
 * What a list of plain values holds, by the item's description (`Code of the parcel` → a
 * `code` of a parcel, `Encoded ward ID` → `ward_id`); undefined for objects, lists,
 * and values no short description names.
 */
function scalarItem(
  items: unknown,
  known: ReadonlySet<string>,
  aliases: EntityAliases,
): { name: string; entity?: string } | undefined {
  if (!isObject(items) || arrayItems(items) !== undefined || Object.keys(schemaProperties(items)).length > 0)
    return undefined;
  if (items.type !== undefined && items.type !== 'string' && items.type !== 'integer') return undefined;
  const said = typeof items.description === 'string' ? words(items.description) : [];
  const entityOf = (word: string | undefined): string | undefined => {
    if (word === undefined) return undefined;
    const noun = stem(singular(word));
    const entity = aliases.get(noun) ?? noun;
    return known.has(entity) ? entity : undefined;
  };
  if (said.length > 0 && said.length <= 8) {
    const of = said.indexOf('of');
    if (of > 0) {
      const owner = said.slice(of + 1).find((word) => !isStopword(word));
      return { name: said[of - 1]!, entity: entityOf(owner) };
    }
    if (said.length >= 2) {
      const [before, last] = said.slice(-2) as [string, string];
      return { name: `${before}_${singular(last)}`, entity: entityOf(before) };
    }
  }
  return undefined;
}
