import type { EndpointProfile, NeededInput } from './endpoint-profile.js';
import type { ValueMatch } from './match-values.js';
import type { RequirementClause } from './parse-requirement.js';
import { singular, stem, words } from './text.js';
import { ORDINALS } from './vocabulary.js';

/** Kinds of producers the planner prefers by what a requirement says of an entity. */

export const SEARCH_PARAMS = /^(q|query|search|keyword|keywords|term|text|name|title)$/i;

/**
 * `/me/shelves`, `/users/me/orders`, `/me/subscriptions` (of authors): the caller's own collection
 * of the kind a need refers to.
 */
export function isOwnCollection(profile: EndpointProfile, need: NeededInput): boolean {
  const segments = profile.endpoint.path.split('/').filter((segment) => segment !== '');
  const self = segments.findIndex((segment) => /^(me|my|self|current|mine)$/i.test(segment));
  if (self < 0 || segments.length !== self + 2) return false;
  const collection = stem(singular(words(segments[self + 1] ?? '').at(-1) ?? ''));
  return need.entities.includes(collection) || need.entities.includes(profile.resources[0] ?? '');
}

/**
 * `/authors/{id}/books` for books: a list of the entity under the id of a parent the clause
 * does not otherwise speak of (the named owner), so not `/menus/{id}/recipes` for the recipes
 * of a menu it creates.
 */
export function isSubCollection(profile: EndpointProfile, need: NeededInput, clause: RequirementClause): boolean {
  const segments = profile.endpoint.path.split('/').filter((segment) => segment !== '');
  const last = segments[segments.length - 1] ?? '';
  const parentId = segments[segments.length - 2] ?? '';
  const parent = stem(singular(words(segments[segments.length - 3] ?? '').at(-1) ?? ''));
  if (profile.endpoint.method !== 'GET' || !parentId.startsWith('{') || last.startsWith('{')) return false;
  if (clause.mentions.some((mention) => mention.entity === parent)) return false;
  return need.entities.includes(stem(singular(words(last).at(-1) ?? '')));
}

/** `the second chapter`: take that item of a list rather than the first. */
export function pickItem(match: ValueMatch, ordinal: number | undefined): ValueMatch {
  if (ordinal === undefined || ordinal <= 0 || !match.offer.path.includes('[0]')) return match;
  return { ...match, offer: { ...match.offer, path: match.offer.path.replace('[0]', `[${ordinal}]`) } };
}

export function isSearch(profile: EndpointProfile): boolean {
  return (
    /search|find|lookup/i.test(profile.endpoint.path) ||
    profile.needs.some((need) => need.required && SEARCH_PARAMS.test(need.name))
  );
}

/**
 * `the first chapter of The Lord of the Rings`: an item picked by its order from what a name
 * the requirement gives holds. The name is an owner whose list of the item's kind gives it
 * (`/books/{id}/chapters`), not an item of that name to look up.
 */
export function picksFromNamedOwner(clause: RequirementClause): boolean {
  if (clause.ordinal === undefined || clause.names.length === 0) return false;
  const ordinal = Object.keys(ORDINALS).join('|');
  const text = clause.text.replace(/\s+/g, ' ');
  return clause.names.some((name) => {
    const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    return new RegExp(`\\b(?:${ordinal})\\s+[a-z]+\\s+(?:of|from|in|on|by)\\s+(?:the\\s+)?${escaped}\\b`, 'i').test(
      text,
    );
  });
}

/**
 * `the first chapter of the newest book of …`: the entity whose items an ordinal picks from, when
 * the item's own word names no entity of the catalog (the first mention after `<ordinal> <noun>
 * of`); undefined when there is none.
 */
export function ordinalOwner(clause: RequirementClause): string | undefined {
  if (clause.ordinal === undefined) return undefined;
  const match = new RegExp(`\\b(?:${Object.keys(ORDINALS).join('|')})\\s+([a-z]+)\\s+(?:of|from|in)\\s`, 'i').exec(
    clause.text,
  );
  if (match === null) return undefined;
  const item = stem(singular(match[1] ?? ''));
  // An item the clause links to its owner already (`the first chapter of the book`) is reached through that link.
  if (clause.mentions.some((mention) => mention.entity === item && mention.via !== undefined)) return undefined;
  const after = words(clause.text.slice(match.index + match[0].length)).map((word) => stem(singular(word)));
  return clause.mentions.find((mention) => after.includes(mention.entity))?.entity;
}

/** `GET /books/{id}/chapters` for the chapters of a book: the list of one owner's items of the needed kind. */
export function isOwnersList(profile: EndpointProfile, need: NeededInput, owner: string): boolean {
  const segments = profile.endpoint.path.split('/').filter((segment) => segment !== '');
  const last = segments[segments.length - 1] ?? '';
  const parentId = segments[segments.length - 2] ?? '';
  if (profile.endpoint.method !== 'GET' || !parentId.startsWith('{') || last.startsWith('{')) return false;
  const takesOwner = profile.needs.some(
    (other) => other.in === 'path' && other.name === parentId.slice(1, -1) && other.entities.includes(owner),
  );
  return takesOwner && need.entities.includes(stem(singular(words(last).at(-1) ?? '')));
}

/**
 * The input of a list under one owner (`/authors/{id}/books`) that takes that owner's id: the
 * path parameter before the list's own segment; undefined for any other path.
 */
export function ownerInput(profile: EndpointProfile): NeededInput | undefined {
  const segments = profile.endpoint.path.split('/').filter((segment) => segment !== '');
  const last = segments[segments.length - 1] ?? '';
  const parentId = segments[segments.length - 2] ?? '';
  if (!parentId.startsWith('{') || last.startsWith('{')) return undefined;
  return profile.needs.find((other) => other.in === 'path' && other.name === parentId.slice(1, -1));
}

/**
 * Whether the clause says every word of a list's own segment (`top books` for
 * `/authors/{id}/top-books`): of an owner's lists of one kind, that is the one it means.
 */
export function namesOwnList(profile: EndpointProfile, clause: RequirementClause): boolean {
  const last =
    profile.endpoint.path
      .split('/')
      .filter((segment) => segment !== '')
      .at(-1) ?? '';
  const segmentTerms = words(last.replace(/\.\w+$/, '')).map((word) => stem(singular(word)));
  return segmentTerms.length > 1 && segmentTerms.every((term) => clause.terms.includes(term));
}

/**
 * `DELETE /teams/{team_id}/members`: the input that says which owner a removal takes items from
 * (the items to remove are among that owner's); undefined for any other endpoint.
 */
export function removalOwner(profile: EndpointProfile): NeededInput | undefined {
  if (profile.endpoint.method !== 'DELETE') return undefined;
  const owner = ownerInput(profile);
  return owner !== undefined && owner.entities.length > 0 ? owner : undefined;
}

/** Whether a read takes the same owner as `owner` in its path (`GET /teams/{team_id}/members`, `GET /teams/{id}`). */
export function readsOwner(profile: EndpointProfile, owner: NeededInput): boolean {
  return (
    profile.endpoint.method === 'GET' &&
    profile.needs.some(
      (other) =>
        other.in === 'path' && other.required && other.entities.some((entity) => owner.entities.includes(entity)),
    )
  );
}
