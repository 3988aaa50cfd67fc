import type { EndpointProfile, NeededInput, OfferedValue } from './endpoint-profile.js';
import { bestOffer, type ValueMatch } from './match-values.js';
import type { PlannerIndex } from './planner-index.js';
import { singular, stem, words } from './text.js';

/**
 * Walks through the catalog's graph from one entity to another: where a producer's answer holds
 * a value only inside another entity's object (`item.drivers[0].id` of the truck now loading),
 * the requirement asks for the value of that object (`the driver of the truck now loading`), and
 * the object's own endpoint (`GET /trucks/{id}`) is the step that gives it.
 */

/** The nearest enclosing object of an offered value that has an id of its own, with that id. */
export function enclosingEntity(
  offer: OfferedValue,
  producer: EndpointProfile,
): { entity: string; id: OfferedValue } | undefined {
  const parts = offer.path.split('.');
  // Drop the value itself, then its own object (`drivers[0]`): what is left encloses it.
  for (let length = parts.length - 2; length >= 1; length -= 1) {
    const ancestor = parts.slice(0, length).join('.');
    const id = producer.offers.find((other) => other.path === `${ancestor}.id` && other.kind === 'id');
    const entity = id?.entities[0];
    if (id !== undefined && entity !== undefined) return { entity, id };
  }
  return undefined;
}

/**
 * The endpoint that reads one `entity` by its id (`GET /trucks/{id}` for a truck) and answers
 * the needed value nearer the top than `than` does; undefined when the catalog has none.
 */
export function ownEndpointOf(
  index: PlannerIndex,
  entity: string,
  need: NeededInput,
  than: ValueMatch,
): { profile: EndpointProfile; match: ValueMatch } | undefined {
  let best: { profile: EndpointProfile; match: ValueMatch } | undefined;
  for (const profile of index.profiles) {
    if (profile.endpoint.method !== 'GET' || profile.resources[0] !== entity) continue;
    const references = profile.needs.filter((other) => other.required && other.kind !== 'value');
    if (references.length !== 1 || references[0]!.in !== 'path' || references[0]!.entities[0] !== entity) continue;
    const match = bestOffer(need, profile);
    if (match === undefined || match.offer.depth >= than.offer.depth || match.confidence < than.confidence) continue;
    if (
      best === undefined ||
      match.confidence > best.match.confidence ||
      (match.confidence === best.match.confidence && profile.endpoint.path.length < best.profile.endpoint.path.length)
    )
      best = { profile, match };
  }
  return best;
}

/**
 * Whether an offered value belongs to an object of `entity`: the answer's own entity at its top
 * (a review's `username`), or an enclosing list or object named for it
 * (`latest_reviews[0].username`).
 */
export function withinEntity(offer: OfferedValue, entity: string): boolean {
  if (offer.depth === 0 && offer.entities[0] === entity) return true;
  return offer.path
    .split('.')
    .slice(0, -1)
    .some((part) => stem(singular(words(part.replace(/\[\d+\]/g, '')).at(-1) ?? '')) === entity);
}
