import { entityOfName, type EndpointProfile, type NeededInput, type OfferedValue } from './endpoint-profile.js';
import { singular, stem, words } from './text.js';

/**
 * Producer → consumer matching, as RESTler and Schemathesis infer it: a needed `patient_id` (or
 * an `{id}` under `/patients/`) is fed by the `id` of a patient in another endpoint's response;
 * a needed `couponCode` by a `couponCode` anywhere in it.
 */
export interface ValueMatch {
  offer: OfferedValue;
  /** 0–1. */
  confidence: number;
  reason: string;
  /** Matched by what the need's own name says (same name, `productCodes` for `products`, a self link for `newCustomer`). */
  sameName?: boolean;
}

/** Names every response and request has (paging, metadata): the same name says nothing about the value. */
const GENERIC_NAMES = new Set([
  'id',
  'ids',
  'uri',
  'uris',
  'name',
  'type',
  'limit',
  'offset',
  'page',
  'pagesize',
  'size',
  'cursor',
  'next',
  'previous',
  'total',
  'count',
  'fields',
  'status',
  'state',
  'description',
  'sort',
  'order',
  'href',
  'self',
  'links',
  'data',
  'items',
  'results',
  'message',
  'code',
  'locale',
  'lang',
  'language',
  'format',
  'version',
  'query',
  'q',
  'filter',
  'expand',
  'include',
  'after',
  'before',
  'since',
  'until',
  'timestamp',
  'createdat',
  'updatedat',
]);

function normalise(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]/g, '');
}

/** How well one offered value feeds one needed input, 0 when it does not. */
export function matchValue(need: NeededInput, offer: OfferedValue): ValueMatch | undefined {
  // `{username}` takes a name: no id (`user_id`, a loan's `id`) fills it.
  if (need.kind !== 'value' && offer.kind !== 'value' && /(name|slug|login|handle)$/i.test(need.name)) return undefined;
  const depthPenalty = Math.min(0.4, offer.depth * 0.08);
  const needName = normalise(need.name);
  const offerName = normalise(offer.name);
  // A path parameter (`/rxs/{code}`, `/members/{username}`) takes a value of the same name of its entity
  // (`code` of a prescription, `rx_code`), or the same name of another object (a review's `username`).
  if (need.in === 'path') {
    const needWords = words(need.name);
    const offerWords = words(offer.name);
    const suffix =
      offerWords.length >= needWords.length &&
      needWords.every((word, at) => offerWords[offerWords.length - needWords.length + at] === word);
    // A field named after the entity (`shipment` of a parcel) holds a reference to it.
    const entityField = need.entities.find((entity) => entity === stem(singular(offer.name)));
    if (
      entityField !== undefined &&
      offer.kind === 'value' &&
      offer.container !== true &&
      !offer.entities.includes(entityField)
    )
      return {
        offer,
        confidence: 0.72 - depthPenalty,
        reason: `${offer.path} names the ${entityField} that ${need.name} identifies`,
      };
    if (
      suffix &&
      offerWords.length > needWords.length &&
      offer.refers !== undefined &&
      need.entities.includes(offer.refers)
    )
      return {
        offer,
        confidence: 0.82 - depthPenalty,
        reason: `${offer.name} names the ${offer.refers} that ${need.name} identifies`,
      };
    if (suffix && offerWords.length === needWords.length && !/^(id|ids|uri|uris)$/i.test(need.name)) {
      // A shipment's `code` is no parcel's code; but a review's `username` names a user.
      const namesEntity = need.entities.some((entity) => normalise(need.name).includes(entity));
      if (offer.entities[0] !== undefined && !need.entities.includes(offer.entities[0]) && !namesEntity)
        return undefined;
      const own = need.entities.some((entity) => offer.entities[0] === entity);
      return {
        offer,
        confidence: (own ? 0.85 : 0.62) - depthPenalty,
        reason: `same name "${offer.name}"${own ? '' : ` (of ${offer.entities[0] ?? 'another object'})`}`,
        sameName: true,
      };
    }
  }
  // `attending` reads `doc1…` like every `doctor_id` of the catalog: it is a doctor id under another name.
  if (need.in === 'path' && offer.sameForm?.includes(needName) === true && offer.kind === 'value')
    return {
      offer,
      confidence: 0.6 - depthPenalty,
      reason: `${offer.path} has the form of the catalog's ${need.name} values (${offer.example?.slice(0, 8) ?? ''}…)`,
    };
  // The same specific name on both sides: `sessionToken` → `sessionToken`, `coupon_code` → `couponCode`.
  // An optional field takes a same-named value only when the name says what it is (`totalAmount`, a list), not `public`.
  const telling = need.required || need.kind !== 'value' || need.list || words(need.name).length > 1;
  if (needName === offerName && !GENERIC_NAMES.has(needName) && telling) {
    // A foreign key (`customerId` in an order) is a weaker source of an id than the entity's own `id`.
    const confidence = (need.kind === 'id' ? 0.8 : 0.95) - depthPenalty;
    return { offer, confidence, reason: `same name "${offer.name}"`, sameName: true };
  }
  // `products` ← `productCodes` or `productIds`: a list of the same things by their keys.
  if (
    need.kind === 'value' &&
    /s$/.test(needName) &&
    needName.length > 4 &&
    offerName.startsWith(needName.replace(/s$/, '')) &&
    /(codes|ids|keys|list)$/.test(offerName)
  ) {
    return { offer, confidence: 0.75 - depthPenalty, reason: `"${offer.name}" lists the ${need.name}`, sameName: true };
  }
  if (needName.replace(/s$/, '') === offerName && need.list && needName.length > 4) {
    return { offer, confidence: 0.85 - depthPenalty, reason: `"${offer.name}" of the list "${need.name}"` };
  }
  if (need.kind === 'value') {
    // `newCustomer` ← the created customer's self link (`links.self`, `href`, `location`).
    const entity = entityOfName(need.name);
    if (entity !== undefined && offer.entities.includes(entity) && /^(self|href|location|url|uri)$/i.test(offer.name)) {
      return {
        offer,
        confidence: 0.7 - depthPenalty / 2,
        reason: `${offer.path} links to the ${entity} that ${need.name} names`,
        sameName: true,
      };
    }
    return undefined;
  }
  // `artistId` in the response feeds `artist_id`.
  const offerEntity = entityOfName(offer.name);
  if (offerEntity !== undefined && need.entities.includes(offerEntity) && offer.kind === need.kind) {
    // A foreign key (`parentOrderId` in an order) names an order, but not the order answered: below its own `id`.
    return {
      offer,
      confidence: 0.78 - depthPenalty,
      reason: `${offer.name} names the ${offerEntity} that ${need.name} refers to`,
    };
  }
  const shared = need.entities.findIndex((entity) => offer.entities.includes(entity));
  if (shared < 0 || offerEntity !== undefined) return undefined;
  const entity = need.entities[shared] ?? '';
  const position = offer.entities.indexOf(entity);
  const bareName = offer.name.toLowerCase();
  let kindFit: number;
  if (need.kind === 'id' && bareName === 'id') kindFit = 1;
  else if (need.kind === 'uri' && (bareName === 'uri' || bareName === 'uris')) kindFit = 1;
  else if (need.kind === 'uri' && bareName === 'id') kindFit = 0.55;
  else return undefined;
  const confidence = (0.85 - depthPenalty - 0.1 * shared - 0.05 * position) * kindFit;
  return { offer, confidence, reason: `${offer.path} is the ${entity}'s ${offer.name}, which ${need.name} refers to` };
}

/** The best value a producer offers for a need, if any. */
export function bestOffer(need: NeededInput, producer: EndpointProfile, byNameOnly = false): ValueMatch | undefined {
  let best: ValueMatch | undefined;
  for (const offer of producer.offers) {
    const match = matchValue(need, offer);
    if (match === undefined || (byNameOnly && match.sameName !== true)) continue;
    if (best === undefined || match.confidence > best.confidence) best = match;
  }
  return best;
}
