import type { CatalogEntry } from '../catalog/catalog-service.js';
import { isObject } from '../catalog/json-pointer.js';
import { schemaProperties } from './schema-walk.js';
import { singular, stem, words } from './text.js';
import { intentOfVerb, intentOfWord, isGenericVerb, type Intent } from './vocabulary.js';
import { isNoun, isVerb } from './word-relations.js';

/** One action an endpoint names, by its stem, with the intent it stands for. */
export interface EndpointAction {
  term: string;
  intent: Intent | undefined;
  /** A verb that only says create/read/update/delete (`Update a single order`). */
  generic: boolean;
  /**
   * One of the states an input chooses among (`shipped` of `status`), not what the endpoint says it
   * does: it tells that the endpoint can do the clause's action, never that it does another.
   */
  choice: boolean;
}

/**
 * The actions an endpoint says it performs, in its own words: the verb its summary starts with
 * (`Lock an account from being edited` → lock), the first word of its operation id (`performOrderAction`
 * → perform), a verb that ends its path (`/pump/pause`, `/accounts/{id}/locked`) and the states an
 * input of its request chooses among (`status: shipped | held | cancelled` → ship, hold, cancel).
 * A requirement's verb is the action it asks for; these say which action each endpoint is.
 */
export function endpointActions(endpoint: CatalogEntry, knownEntities: ReadonlySet<string>): EndpointAction[] {
  const found = new Map<string, EndpointAction>();
  // A word that is also one of the catalog's entities is its verb only when it is a plain CRUD verb (`List refills`).
  const add = (word: string | undefined, choice = false): void => {
    if (word === undefined || word.length < 2 || !isVerb(word)) return;
    const term = stem(word);
    const crud = intentOfWord(word) !== undefined;
    if ((knownEntities.has(stem(singular(word))) && !crud) || found.has(term)) return;
    found.set(term, { term, intent: intentOfVerb(word), generic: isGenericVerb(term), choice });
  };
  const summary = words(endpoint.summary);
  // `List of expired memberships` names a list; `List refills of a prescription` does the listing.
  if (summary[1] !== 'of') add(summary[0]);
  add(words(endpoint.operationId ?? '')[0]);
  // The path's last segment when it is a word, not a parameter: `/pump/pause`, `/accounts/{id}/locked.json`.
  const last = (endpoint.path.split('/').at(-1) ?? '').replace(/\.[a-z]+$/i, '');
  // A plural noun there is a collection (`/prescriptions/{id}/refills`), and a word the summary uses after
  // its verb is its object (`Add Item to Print Queue` at `/printer/queue`): neither is an action.
  const segmentWord = words(last)[0];
  const collection = segmentWord !== undefined && /[^s]s$/.test(segmentWord) && isNoun(segmentWord);
  const object = segmentWord !== undefined && summary.slice(1).some((word) => stem(word) === stem(segmentWord));
  if (!last.startsWith('{') && !collection && !object) add(segmentWord);
  for (const value of inputChoices(endpoint)) add(words(value)[0], true);
  return [...found.values()];
}

/** The string values a write's inputs choose among (`enum` of a parameter or a body field). */
function inputChoices(endpoint: CatalogEntry): string[] {
  // A read's choices filter what it answers (`?status=shipped`); only a write's choices are states it sets.
  if (endpoint.method === 'GET' || endpoint.method === 'HEAD') return [];
  const schemas: unknown[] = endpoint.parameters.filter((param) => param.in !== 'header').map((param) => param.schema);
  schemas.push(...Object.values(schemaProperties(endpoint.requestBody?.schema)));
  const values: string[] = [];
  for (const schema of schemas) {
    if (!isObject(schema) || !Array.isArray(schema.enum)) continue;
    for (const value of schema.enum)
      if (typeof value === 'string' && /^[a-z][a-z_-]*$/i.test(value)) values.push(value);
  }
  return values;
}
