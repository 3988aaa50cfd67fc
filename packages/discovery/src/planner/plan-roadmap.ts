import { SvcError } from '@svc/engine';
import { assemble, toCandidate } from './assemble-roadmap.js';
import { nameEntity, type EndpointProfile, type NeededInput } from './endpoint-profile.js';
import { valueFits } from './given-values.js';
import { enclosingEntity, ownEndpointOf, withinEntity } from './entity-walks.js';
import { exampleFromClause, exampleFromSchema } from './input-examples.js';
import { bestOffer, type ValueMatch } from './match-values.js';
import { orderSteps } from './order-steps.js';
import {
  formedAction,
  qualifiedAction,
  qualifiedItemAction,
  referredAction,
  referredEntities,
} from './qualified-actions.js';
import { namesRelation, relationVerbs } from './relation-words.js';
import { parseRequirement, type RequirementClause } from './parse-requirement.js';
import type { PlanBinding, PlanInput, PlanStep } from './plan-types.js';
import { round, stepLabel } from './plan-types.js';
import type { PlannerIndex } from './planner-index.js';
import { isFieldOf, requirementVocabulary } from './requirement-vocabulary.js';
import { methodFit } from './vocabulary.js';
import { hasFormOf, shapeFits } from './value-shapes.js';
import { speaksOfOtherTime } from './verb-aspect.js';
import {
  isOwnCollection,
  isOwnersList,
  isSearch,
  isSubCollection,
  ordinalOwner,
  namesOwnList,
  ownerInput,
  readsOwner,
  removalOwner,
  pickItem,
  picksFromNamedOwner,
} from './producer-kinds.js';
import { rankEndpoints, termCoverage, type RankedEndpoint } from './rank-endpoints.js';
import type { Roadmap, RoadmapAction, RoadmapCandidate } from './roadmap.js';
import { pascalName, singular, stem, words } from './text.js';

export interface PlanOptions {
  /** Runner-up candidates kept per action (default 5). */
  candidates?: number;
  /** Overrides of the chosen endpoint per action index (a model's choice among the candidates). */
  choices?: ReadonlyMap<number, string>;
  /** Recorded in the roadmap's `decidedBy`. */
  decidedBy?: Roadmap['decidedBy'];
  /**
   * Plan these endpoints, in this order, instead of choosing them from the requirement's words:
   * the planner then only binds their inputs (and adds producers unless `addProducers` is false).
   */
  endpoints?: string[];
  /** Add producer steps for inputs no planned step offers (default true). */
  addProducers?: boolean;
}

/** A clause with a verb of its own takes its best endpoint when that endpoint's method fits the verb this well. */
const OWN_ACTION_FIT = 0.6;
/** Below this an action's best endpoint is not taken: the clause is likely a detail of another. */
const MIN_ACTION_SCORE = 0.15;
/** A step already in the plan is reused as a producer from this confidence up. */
const MIN_REUSE_CONFIDENCE = 0.6;
/** An earlier step that answers the entity a clause points back to (`that book`) feeds it from this confidence up. */
const MIN_REFERRED_CONFIDENCE = 0.4;
const MIN_PRODUCER_SCORE = 0.25;
const MAX_PRODUCER_DEPTH = 3;
/** Added for a producer whose path names the relation the clause's verb speaks of. */
const RELATION_BONUS = 0.15;
/** Added for a producer whose value lies in an object of the entity the clause reaches it through. */
const VIA_OBJECT_BONUS = 0.25;
/** Added for an owner's list of the needed kind when the requirement names that owner (`Agatha Christie's books`). */
const SUB_COLLECTION_BONUS = 0.35;
/** … and for the one of its lists whose every word the clause says (`top books` → `/authors/{id}/top-books`). */
const NAMED_LIST_BONUS = 0.1;
/** Added for a producer that reads the owner a consumer removes items from (its items are the ones to remove). */
const REMOVED_FROM_OWNER_BONUS = 0.3;
const MAX_STEPS = 25;
/**
 * Actions planned from one requirement at most. A requirement asking for more is several flows,
 * and each action ranks the whole catalog: on a large API a requirement of 60 actions (the 2,000
 * characters the doors take) would hold the process for most of a second.
 */
export const MAX_ACTIONS = 12;
/** The confidence of a plan that leaves part of its requirement out. */
const PARTIAL_PLAN_CONFIDENCE = 0.3;
/** The term every self word (`my`, `me`, `mine`) becomes. */
const SELF_TERM = 'me';
const NAMING_TERMS = new Set(['nam', 'call', 'titl', 'renam', 'label']);

/**
 * Plans a requirement against a catalog: reads it as clauses, takes the best-scoring endpoint
 * for each, adds the producers their inputs need (finding the current user before creating
 * their shelf), binds each input to a producer's response or to a flow input, and orders the
 * steps so every producer runs before its consumers. Deterministic: same index and requirement,
 * same roadmap.
 *
 * @example
 * const roadmap = planRoadmap('create a shelf named "Focus"', buildPlannerIndex(endpoints));
 * roadmap.steps.map((step) => `${step.method} ${step.path}`); // ['GET /me', 'POST /users/{user_id}/shelves']
 */
export function planRoadmap(requirement: string, index: PlannerIndex, options: PlanOptions = {}): Roadmap {
  const read = options.endpoints !== undefined ? [] : parseRequirement(requirement, requirementVocabulary(index));
  const clauses = read.slice(0, MAX_ACTIONS);
  const steps: PlanStep[] = [];
  const bindings: PlanBinding[] = [];
  const inputs: PlanInput[] = [];
  const actions: RoadmapAction[] = [];
  let nextKey = 0;

  const addStep = (fields: Omit<PlanStep, 'key' | 'name'>): PlanStep => {
    const step: PlanStep = { ...fields, key: nextKey, name: '' };
    nextKey += 1;
    steps.push(step);
    return step;
  };

  // 1. One action per clause that matches the catalog well enough (or the endpoints given).
  if (options.endpoints !== undefined) {
    options.endpoints.forEach((endpointId, position) => {
      const profile = index.byId.get(endpointId);
      if (profile === undefined)
        throw new SvcError('ENDPOINT_NOT_FOUND', `endpoint "${endpointId}" is not in the catalog`, {
          details: { path: ['endpoints', position] },
        });
      const text = `${profile.endpoint.method} ${profile.endpoint.path}`;
      clauses[position] = {
        text,
        terms: [],
        intent: undefined,
        verb: undefined,
        quoted: [],
        labels: [],
        names: [],
        values: [],
        looseNames: [],
        numbers: [],
        ordinal: undefined,
        owned: false,
        mentions: [],
        modifiers: [],
        inherited: [],
        surface: {},
        aspects: {},
      };
      actions.push({ phrase: text, candidates: [], chosen: null });
      addStep({
        profile,
        role: 'requested',
        action: actions.length - 1,
        clause: position,
        score: 1,
        reason: 'given',
        depth: 0,
      });
    });
  }
  if (options.endpoints === undefined)
    clauses.forEach((clause, clauseIndex) => {
      const limit = options.candidates ?? 5;
      // Every endpoint ranked, so one that reads the entity a phrase picks can be found below the first few.
      const everything = rankEndpoints(index, clause, Math.max(limit, index.profiles.length));
      let ranked = everything.slice(0, limit);
      const forced = options.choices?.get(actions.length);
      const item =
        forced === undefined
          ? (qualifiedItemAction(clause, everything) ?? formedAction(index, clause, everything))
          : undefined;
      if (item !== undefined && item >= ranked.length) ranked = [...ranked.slice(0, limit - 1), everything[item]!];
      const chosenIndex =
        forced !== undefined
          ? ranked.findIndex((candidate) => candidate.profile.endpoint.id === forced)
          : item !== undefined
            ? Math.min(item, ranked.length - 1)
            : (qualifiedAction(index, clause, ranked) ??
              referredAction(
                clause,
                ranked,
                steps.filter((step) => step.clause < clauseIndex).map((step) => step.profile),
              ) ??
              0);
      const chosen = chosenIndex >= 0 ? ranked[chosenIndex] : undefined;
      // `… and name it Quiet` only names what the previous action makes.
      const onlyNames =
        clause.labels.length > 0 &&
        clause.terms.every((term) => NAMING_TERMS.has(term) || clause.inherited.includes(term)) &&
        clauseIndex > 0;
      // A clause with a verb of its own among several is an action, not a detail of another: its best
      // match is taken, however weak, when that endpoint's method fits the verb (`… and switch to the next lesson`).
      // So is a requirement's only clause when its verb writes: it asks for that action or none.
      const ownAction =
        (clauses.length > 1 || clause.intent !== 'read') &&
        chosen !== undefined &&
        chosen.score > 0 &&
        clause.intent !== undefined &&
        methodFit(clause.intent, chosen.profile.endpoint.method) >= OWN_ACTION_FIT;
      const taken =
        chosen !== undefined && !onlyNames && (forced !== undefined || ownAction || chosen.score >= MIN_ACTION_SCORE);
      if (!taken) {
        // "… and name it 'Love Mariah'": the clause's values belong to the previous action.
        const previous = clauses[clauseIndex - 1];
        if (previous !== undefined && (clause.terms.length <= 2 || onlyNames)) {
          previous.quoted.push(...clause.quoted);
          previous.labels.push(...clause.labels);
          previous.names.push(...clause.names);
          previous.numbers.push(...clause.numbers);
          return;
        }
        if (ranked.every((candidate) => candidate.score === 0) && clause.terms.length === 0) return;
      }
      actions.push({
        phrase: clause.text,
        candidates: ranked.map(toCandidate),
        chosen: taken ? chosenIndex : null,
      });
      if (!taken || chosen === undefined) return;
      addStep({
        profile: chosen.profile,
        role: 'requested',
        action: actions.length - 1,
        clause: clauseIndex,
        score: round(chosen.score),
        reason: `${forced !== undefined ? 'chosen by the model' : 'best match'} for "${clause.text}": ${chosen.reasons.join('; ')}`,
        depth: 0,
      });
      addFollowUp(chosen, clause, clauseIndex);
      addAskedPart(chosen, clause, clauseIndex);
    });

  /**
   * `Show the ward that patient 42 belongs to`: the endpoint chosen reads what the requirement
   * gives (the patient), and its answer only names the entity asked about (`ward_id`): the walk
   * ends by reading that entity. A question (`which ward …`) is answered by the name already.
   */
  function addAskedPart(chosen: RankedEndpoint, clause: RequirementClause, clauseIndex: number): void {
    if (clause.intent !== 'read' || chosen.profile.endpoint.method !== 'GET') return;
    if (/^(which|what|who|whose|how|when|where|is|are|does|do)\b/i.test(clause.text)) return;
    if (!clause.mentions.some((mention) => mention.given !== undefined)) return;
    const asked = clause.mentions.find(
      (mention) =>
        mention.given === undefined &&
        !chosen.profile.resources.includes(mention.entity) &&
        // `the name and restaurant of the chef …`: a field of the chef's answer is answered there.
        !mention.qualifier.some((term) => isFieldOf(index, mention.entity, term)) &&
        chosen.profile.offers.some(
          (offer) =>
            offer.depth === 0 && (offer.refers === mention.entity || stem(singular(offer.name)) === mention.entity),
        ),
    );
    if (asked === undefined) return;
    let best: { profile: EndpointProfile; score: number } | undefined;
    for (const profile of index.profiles) {
      if (profile.endpoint.method !== 'GET' || profile === chosen.profile) continue;
      const pathNeeds = profile.needs.filter((need) => need.in === 'path' && need.required);
      if (pathNeeds.length !== 1 || !pathNeeds[0]!.entities.includes(asked.entity)) continue;
      if (profile.resources[0] !== asked.entity) continue;
      const { coverage } = termCoverage(index, clause.terms, profile, [], clause.surface);
      const score = coverage - profile.endpoint.path.length / 1000;
      if (best === undefined || score > best.score) best = { profile, score };
    }
    if (best === undefined) return;
    addStep({
      profile: best.profile,
      role: 'requested',
      action: actions.length - 1,
      clause: clauseIndex,
      score: round(chosen.score),
      reason: `"${clause.text}" asks for the ${asked.entity} that ${stepLabel({ profile: chosen.profile } as PlanStep)} names: ${best.profile.endpoint.summary.trim() || best.profile.endpoint.id}`,
      depth: 0,
    });
  }

  /**
   * "Make a menu containing three recipes": what the chosen endpoint left of the clause may be
   * a second action on the resource it creates (adding recipes to the new menu).
   */
  function addFollowUp(chosen: RankedEndpoint, clause: RequirementClause, clauseIndex: number): void {
    const rest = clause.terms.filter((term) => !chosen.matched.includes(term) && index.knownEntities.has(term));
    const made = chosen.profile.resources[0];
    if (rest.length === 0 || made === undefined || chosen.profile.endpoint.method !== 'POST') return;
    let best: { profile: EndpointProfile; score: number } | undefined;
    for (const profile of index.profiles) {
      if (profile === chosen.profile || !['POST', 'PUT', 'PATCH'].includes(profile.endpoint.method)) continue;
      const consumesMade = profile.needs.some((need) => need.in === 'path' && need.entities[0] === made);
      if (!consumesMade || !rest.some((term) => profile.resources.includes(term))) continue;
      const { coverage } = termCoverage(index, [...rest, made], profile);
      if (best === undefined || coverage > best.score) best = { profile, score: coverage };
    }
    if (best === undefined || best.score < 0.3) return;
    addStep({
      profile: best.profile,
      role: 'requested',
      action: actions.length - 1,
      clause: clauseIndex,
      score: round(best.score),
      reason: `"${rest.join(' ')}" in "${clause.text}" asks for ${best.profile.endpoint.summary.trim() || best.profile.endpoint.id} on the new ${made}`,
      depth: 0,
    });
  }

  // 2. Feed every step's inputs, adding producers where no step in the plan offers a value.
  const usedValues = new Map<number, Set<string>>();
  const producerActions: Array<{ action: RoadmapAction; consumer: PlanStep; need: NeededInput }> = [];
  const usedGiven = new Set<string>();
  /** Steps added to read an entity another producer names: that producer feeds them. */
  const walkSources = new Map<number, EndpointProfile>();
  /** Steps added to read the owner a consumer removes items from: they read that same owner. */
  const sameOwnerAs = new Map<number, { consumer: PlanStep; owner: NeededInput }>();
  for (let cursor = 0; cursor < steps.length; cursor += 1) {
    const step = steps[cursor]!;
    const clause = clauses[step.clause];
    if (clause === undefined) continue;
    const optional = optionalReference(step, clause);
    for (const declared of step.profile.needs) {
      // An optional reference filled because the clause names more: it refers to what the clause names.
      const need = refineNeed(declared, step, clause);
      if (need.in === 'header' && /^(authorization|accept|content-type)$/i.test(need.name)) continue;
      // The items to remove from my first shelf are read from that same shelf.
      if (feedSameOwner(step, need)) continue;
      // `patient 42`, `the user sam`: a value the requirement gives for the entity the input identifies.
      const given = givenValue(step, need, clause);
      if (given !== undefined) {
        inputs.push({ step, need, example: given, fromRequirement: true });
        continue;
      }
      if (need.kind === 'value' || (!need.required && declared !== optional)) {
        // `code` of a token request is the `code` an earlier step answered.
        const sameName = reuseProducer(step, need, true) ?? describedProducer(step, need);
        if (sameName !== undefined) {
          bindings.push({ from: sameName.step, to: step, need, match: sameName.match });
        } else if (need.kind === 'value') {
          // An optional field becomes an input when the requirement gives its value (`rename it to "Chill"`).
          const input = inputFor(step, need, clause);
          if (need.required || input.fromRequirement) inputs.push(input);
        } else if (need.required) {
          inputs.push(inputFor(step, need, clause));
        }
        continue;
      }
      const reused = reuseProducer(step, need) ?? reuseReferred(step, need, clause);
      if (reused !== undefined) {
        bindings.push({ from: reused.step, to: step, need, match: reused.match });
        continue;
      }
      const canAdd = options.addProducers !== false && step.depth < MAX_PRODUCER_DEPTH && steps.length < MAX_STEPS;
      const producer = canAdd ? findProducer(step, need, clause) : undefined;
      // A step the requirement names later feeds this one only when nothing else can.
      const later = producer === undefined ? reuseProducer(step, need, false, true) : undefined;
      if (later !== undefined) {
        bindings.push({ from: later.step, to: step, need, match: later.match });
      } else if (producer !== undefined) {
        // The producers considered are an action of their own, so a person or a model can pick another.
        const action: RoadmapAction = {
          phrase: `${need.name} for ${stepLabel(step)}`,
          candidates: producer.candidates,
          chosen: producer.chosen,
        };
        actions.push(action);
        producerActions.push({ action, consumer: step, need });
        const added = addStep({
          profile: producer.profile,
          role: 'producer',
          action: undefined,
          clause: step.clause,
          score: round(producer.match.confidence),
          reason: `produces ${need.name} for ${stepLabel(step)}: ${producer.match.reason}`,
          depth: step.depth + 1,
        });
        bindings.push({ from: added, to: step, need, match: producer.match });
        if (producer.through !== undefined) walkSources.set(added.key, producer.through);
        if (producer.removedFrom !== undefined)
          sameOwnerAs.set(added.key, { consumer: step, owner: producer.removedFrom });
      } else if (need.required) {
        inputs.push(inputFor(step, need, clause));
      }
    }
  }

  /**
   * Feeds a step that reads the owner its consumer removes items from with the value the consumer's
   * own input of that owner takes (a binding or an input); false when the step is no such reader.
   */
  function feedSameOwner(step: PlanStep, need: NeededInput): boolean {
    const shared = sameOwnerAs.get(step.key);
    if (shared === undefined || need.in !== 'path' || !need.entities.some((e) => shared.owner.entities.includes(e)))
      return false;
    const bound = bindings.find((binding) => binding.to === shared.consumer && binding.need.name === shared.owner.name);
    if (bound !== undefined) {
      bindings.push({ from: bound.from, to: step, need, match: bound.match });
      return true;
    }
    const input = inputs.find((other) => other.step === shared.consumer && other.need.name === shared.owner.name);
    if (input === undefined) return false;
    inputs.push({ ...input, step, need });
    return true;
  }

  /** The one optional reference worth filling: when the clause says more than the endpoint matched. */
  function optionalReference(step: PlanStep, clause: RequirementClause): NeededInput | undefined {
    if (step.role !== 'requested') return undefined;
    const candidates = step.profile.needs.filter(
      (need) => !need.required && need.kind !== 'value' && need.in !== 'header',
    );
    const mentioned = clause.mentions.map((mention) => mention.entity);
    // A reference to another of the endpoint's own kind (`parent_ward_id` of a ward) is not what the clause names.
    const own = step.profile.resources[0];
    const entityMentioned = candidates.find((need) =>
      refineNeed(need, step, clause).entities.some((entity) => mentioned.includes(entity) && entity !== own),
    );
    if (entityMentioned !== undefined) return entityMentioned;
    const namesSomething =
      clause.names.length > 0 || clause.quoted.length > 0 || clause.mentions.some((mention) => mention.named);
    return namesSomething ? candidates.find((need) => need.list) : undefined;
  }

  function reuseProducer(
    step: PlanStep,
    need: NeededInput,
    sameNameOnly = false,
    fromLaterClauses = false,
  ): { step: PlanStep; match: ValueMatch } | undefined {
    let best: { step: PlanStep; match: ValueMatch } | undefined;
    for (const other of steps) {
      if (other === step || dependsOn(other, step)) continue;
      // Given endpoints keep their order; a plain value comes from a step named before its consumer.
      const before = other.clause < step.clause || (other.clause === step.clause && other.key < step.key);
      if ((options.endpoints !== undefined || sameNameOnly) && !before) continue;
      // Steps of later clauses wait for the last resort (`fromLaterClauses`), so the requirement's order holds.
      if (other.clause > step.clause && !fromLaterClauses) continue;
      const match = bestOffer(need, other.profile, sameNameOnly);
      if (match === undefined || match.confidence < MIN_REUSE_CONFIDENCE) continue;
      // A value buried in another step's answer (`items[0].added_by.id`) is not what that step is for.
      if (match.offer.depth > 1 && match.sameName !== true) continue;
      // Ties go to the nearest earlier step.
      if (
        best === undefined ||
        match.confidence > best.match.confidence ||
        (match.confidence === best.match.confidence && before && other.clause > best.step.clause)
      ) {
        best = { step: other, match };
      }
    }
    return best;
  }

  /**
   * `… renews a book: show that book's details`: the book an earlier clause's step answers feeds
   * the clause that points back to it, also where that step offers it less surely than a reuse
   * otherwise needs (a list's items): the requirement says it is the same one.
   */
  function reuseReferred(
    step: PlanStep,
    need: NeededInput,
    clause: RequirementClause,
  ): { step: PlanStep; match: ValueMatch } | undefined {
    // `that book`, or `it` in `… from my shelf and rename it`: the entity the pronoun stands for.
    const referred = [...referredEntities(clause), ...clause.inherited];
    if (!need.entities.some((entity) => referred.includes(entity))) return undefined;
    let best: { step: PlanStep; match: ValueMatch } | undefined;
    for (const other of steps) {
      if (other === step || other.clause >= step.clause || dependsOn(other, step)) continue;
      const match = bestOffer(need, other.profile);
      if (match === undefined || match.confidence < MIN_REFERRED_CONFIDENCE) continue;
      if (best === undefined || match.confidence > best.match.confidence) best = { step: other, match };
    }
    return best;
  }

  /**
   * `The authorization code is obtained from the authorize endpoint`: when a step's description
   * names an earlier step as the source of a field its response schema does not declare, bind it
   * there, with a low confidence that says so.
   */
  function describedProducer(step: PlanStep, need: NeededInput): { step: PlanStep; match: ValueMatch } | undefined {
    const said = step.profile.descriptionWords;
    const field = words(need.name);
    if (field.length === 0 || !field.every((word) => said.includes(word))) return undefined;
    for (const other of steps) {
      if (other === step || other.clause > step.clause || dependsOn(other, step)) continue;
      const names = words(other.profile.endpoint.operationId ?? other.profile.endpoint.id);
      const named = names.length > 0 && names.every((word) => said.includes(word));
      const offersIt = field.every((word) => other.profile.descriptionWords.includes(word));
      if (!named || !offersIt) continue;
      return {
        step: other,
        match: {
          offer: { path: need.name, name: need.name, kind: need.kind, entities: [], depth: 0 },
          confidence: 0.4,
          reason: `the description of ${stepLabel(step)} says ${need.name} comes from ${stepLabel(other)}, whose response schema does not declare it`,
          sameName: true,
        },
      };
    }
    return undefined;
  }

  function dependsOn(step: PlanStep, on: PlanStep): boolean {
    const seen = new Set<PlanStep>();
    const stack = [step];
    while (stack.length > 0) {
      const current = stack.pop()!;
      if (current === on) return true;
      if (seen.has(current)) continue;
      seen.add(current);
      for (const binding of bindings) if (binding.to === current) stack.push(binding.from);
    }
    return false;
  }

  /**
   * The endpoint that should produce a reference: one that offers it, matches the clause's words,
   * reads rather than writes, needs little itself, and fits what the clause says of the entity:
   * `a new shelf` is created, `my first shelf` is read from the caller's own list, `the
   * recipe Tiramisu` is searched for by name.
   */
  function findProducer(
    step: PlanStep,
    need: NeededInput,
    clause: RequirementClause,
  ):
    | {
        profile: EndpointProfile;
        match: ValueMatch;
        candidates: RoadmapCandidate[];
        chosen: number;
        /** The producer whose answer names the entity the chosen endpoint reads (a walk through it). */
        through?: EndpointProfile;
        /** The consumer's input of the owner it removes items from, when the producer reads that owner. */
        removedFrom?: NeededInput;
      }
    | undefined {
    // The mention of what the input most likely refers to (`{username}` under `/user-loans/`: the user, not the loan).
    const mention = need.entities
      .map((entity) => clause.mentions.find((candidate) => candidate.entity === entity))
      .find((found) => found !== undefined);
    const scored: Array<{ profile: EndpointProfile; match: ValueMatch; score: number }> = [];
    // `Add the first recipe of <name> to my menu`: the action's item comes from the named owner's list.
    const fromNamedOwner = mention === undefined && step.role === 'requested' && picksFromNamedOwner(clause);
    // `the first chapter in Tolkien's newest book`: the item of an owner the clause does not link it to otherwise.
    const owner =
      step.role === 'requested' &&
      (mention === undefined || (mention.via === undefined && mention.ordinal !== undefined))
        ? ordinalOwner(clause)
        : undefined;
    const named =
      mention !== undefined
        ? mention.named && !mention.owned
        : !fromNamedOwner && (clause.names.length > 0 || clause.quoted.length > 0);
    // The consumer's own words (`cook` of `cook me some quick recipes`) do not say which producer;
    // the words that say which one is meant do (`the driver of the truck now loading`).
    const qualifier = mention?.qualifier ?? [];
    const consumerWords = termCoverage(index, clause.terms, step.profile).matched;
    // `my` of `in my first shelf` says whose shelf, not where the book comes from.
    const ownedElsewhere = mention?.owned !== true && clause.mentions.some((other) => other.owned);
    const telling = clause.terms.filter((term) => !(ownedElsewhere && term === SELF_TERM));
    const unmatched = telling.filter((term) => !consumerWords.includes(term) || need.entities.includes(term));
    const residual = qualifier.length > 0 ? qualifier : unmatched.length > 0 ? unmatched : telling;
    // `Member M reserves a copy at a branch`: the verb relating the entities names the producer (`…/reservations`).
    const relations = relationVerbs(clause, consumerWords, (term) => index.knownEntities.has(term));
    // `DELETE /shelves/{shelf_id}/books`: the owner the items are removed from.
    const removedFrom = need.in !== 'path' ? removalOwner(step.profile) : undefined;
    // `the authors in the shelf 'Summer'`: the entity the value is reached through, when the requirement says which one.
    const viaMention =
      mention?.via !== undefined ? clause.mentions.find((other) => other.entity === mention.via) : undefined;
    const viaSaid =
      viaMention !== undefined &&
      (viaMention.named || viaMention.given !== undefined || viaMention.owned || viaMention.ordinal !== undefined)
        ? viaMention.entity
        : undefined;
    let best: { profile: EndpointProfile; match: ValueMatch; score: number } | undefined;
    const relationNamed = new Set<EndpointProfile>();
    let ownField = false;
    for (const profile of index.profiles) {
      if (
        profile === step.profile ||
        (profile.endpoint.path === step.profile.endpoint.path && profile.endpoint.method !== 'GET')
      )
        continue;
      const match = bestOffer(need, profile);
      if (match === undefined) continue;
      // `GET /orders/{orderId}` cannot be where an order id comes from: it needs one itself.
      // … unless the requirement gives what it needs (`the user sam` finds the user's id by name).
      if (
        profile.needs.some(
          (other) =>
            other.required &&
            other.kind !== 'value' &&
            other.entities.some((entity) => need.entities.includes(entity)) &&
            givenValue(step, other, clause) === undefined,
        )
      )
        continue;
      // `the first loan that is expiring`: `List of expired loans` says the same word of another time, so it matches none.
      const said = termCoverage(index, residual, profile);
      const coverage = speaksOfOtherTime(clause.aspects, profile.aspects, said.matched) ? 0 : said.coverage;
      // What the producer needs in turn, unless a step of the plan offers it already.
      const takesGiven = profile.needs.some(
        (other) => other.in === 'path' && givenValue(step, other, clause) !== undefined,
      );
      // `Agatha Christie's top books`, `the authors in the shelf 'Summer'`: the owner or the entity the value is
      // reached through is one the requirement says which of, so its id is found in turn.
      const ownerSaid =
        ((mention?.ofNamedOwner === true || fromNamedOwner) && isSubCollection(profile, need, clause)) ||
        (owner !== undefined && isOwnersList(profile, need, owner))
          ? ownerInput(profile)
          : undefined;
      const unmet = profile.needs.filter(
        (other) =>
          other.required &&
          other.kind !== 'value' &&
          other !== ownerSaid &&
          !(viaSaid !== undefined && other.in === 'path' && other.entities.includes(viaSaid)) &&
          givenValue(step, other, clause) === undefined &&
          !steps.some(
            (planned) =>
              planned !== step && !dependsOn(planned, step) && bestOffer(other, planned.profile) !== undefined,
          ),
      ).length;
      const creates = profile.endpoint.method === 'POST' && need.entities.includes(profile.resources[0] ?? '');
      let score = match.confidence * (0.7 + 0.3 * Math.min(1, coverage * 1.6));
      if (mention?.created === true && creates) score += 0.35;
      else if (profile.endpoint.method === 'GET') score += 0.12;
      else score -= 0.25;
      score -= 0.2 * unmet;
      if (isOwnCollection(profile, need)) score += mention?.owned === true ? 0.2 : clause.owned ? 0.1 : 0;
      if (named && isSearch(profile)) score += 0.3;
      // `the author of review 1234`: the walk starts from the value the requirement gives.
      if (takesGiven) score += 0.3;
      // `Delete all books from my first shelf`: what is removed from an owner is among what that owner holds.
      if (removedFrom !== undefined && readsOwner(profile, removedFrom)) score += REMOVED_FROM_OWNER_BONUS;
      if (namesRelation(profile, relations)) relationNamed.add(profile);
      // `the branch that member M reserves at`: the given entity's own field names it, no relation to list.
      if (takesGiven && match.offer.depth === 0) ownField = true;
      // `Agatha Christie's newest book`: from the owner's list (`/authors/{id}/books`).
      if ((mention?.ofNamedOwner === true || fromNamedOwner) && isSubCollection(profile, need, clause))
        score += SUB_COLLECTION_BONUS + (namesOwnList(profile, clause) ? NAMED_LIST_BONUS : 0);
      // `the first chapter of the newest book …`: from that book's list of chapters.
      if (owner !== undefined && isOwnersList(profile, need, owner)) score += 0.35;
      // `the driver of the truck`: reached through the truck's own endpoint.
      const via = mention?.via;
      if (via !== undefined && profile.needs.some((other) => other.in === 'path' && other.entities.includes(via)))
        score += 0.3;
      // `the author of the latest review`: the value lies in a review of the answer (`latest_reviews[0].username`).
      else if (via !== undefined && withinEntity(match.offer, via)) score += VIA_OBJECT_BONUS;
      scored.push({ profile, match, score });
    }
    for (const entry of scored) {
      if (!ownField && relationNamed.has(entry.profile)) entry.score += RELATION_BONUS;
      if (best === undefined || entry.score > best.score + 1e-9) best = entry;
    }
    if (best === undefined) return undefined;
    scored.sort(
      (a, b) =>
        b.score - a.score ||
        a.profile.endpoint.path.length - b.profile.endpoint.path.length ||
        a.profile.endpoint.id.localeCompare(b.profile.endpoint.id),
    );
    // The step this one was added to read from (the item now loading, for the truck it names).
    const walkedFrom = walkSources.get(step.key);
    const preferred = walkedFrom !== undefined ? scored.find((entry) => entry.profile === walkedFrom) : undefined;
    if (preferred !== undefined) best = preferred;
    // `the driver of the truck now loading`: the value lies inside another entity's object of the
    // best producer's answer; that entity's own endpoint gives it, read by the id the producer gives.
    const enclosing =
      (mention?.qualifier.length ?? 0) > 0 ? enclosingEntity(best.match.offer, best.profile) : undefined;
    // When the phrase names an entity of the catalog (`the authors in the shelf`), the walk goes through that one only.
    const walk =
      enclosing !== undefined &&
      preferred === undefined &&
      !need.entities.includes(enclosing.entity) &&
      (mention?.via === undefined || mention.via === enclosing.entity)
        ? ownEndpointOf(index, enclosing.entity, need, best.match)
        : undefined;
    const direct = best;
    if (walk !== undefined && !steps.some((planned) => planned.profile === walk.profile)) {
      const through = { ...walk, score: direct.score + 1e-6 };
      const unwalked = scored.findIndex((entry) => entry.profile === walk.profile);
      if (unwalked >= 0) scored.splice(unwalked, 1);
      scored.splice(
        Math.max(
          0,
          scored.findIndex((entry) => entry.profile === direct.profile),
        ),
        0,
        through,
      );
      best = through;
    }
    const walked = best !== direct && enclosing !== undefined ? enclosing : undefined;
    const top = scored.slice(0, options.candidates ?? 5);
    // A model's choice among the producers offered for this input wins over the scores.
    const forced = options.choices?.get(actions.length);
    const forcedAt = forced !== undefined ? top.findIndex((entry) => entry.profile.endpoint.id === forced) : -1;
    const taken = forcedAt >= 0 ? top[forcedAt]! : best;
    if (forcedAt < 0 && taken.score < MIN_PRODUCER_SCORE) return undefined;
    // The best source is a step the plan holds already but cannot use (it depends on this one): an input, not a second copy.
    const chosen = taken.profile;
    if (steps.some((planned) => planned.profile === chosen)) return undefined;
    const candidates = top.map((entry) => ({
      endpointId: entry.profile.endpoint.id,
      method: entry.profile.endpoint.method,
      path: entry.profile.endpoint.path,
      summary: entry.profile.endpoint.summary.trim(),
      score: round(entry.score),
      reasons: [
        entry === best && walked !== undefined
          ? `offers ${need.name} of the ${walked.entity} whose id ${direct.profile.endpoint.method} ${direct.profile.endpoint.path} answers (${walked.id.path}): ${entry.match.reason}`
          : `offers ${need.name}: ${entry.match.reason}`,
      ],
    }));
    return {
      profile: taken.profile,
      match: pickItem(taken.match, mention?.ordinal),
      candidates,
      chosen: Math.max(0, top.indexOf(taken)),
      ...(taken === best && walked !== undefined ? { through: direct.profile } : {}),
      ...(removedFrom !== undefined && readsOwner(taken.profile, removedFrom) ? { removedFrom } : {}),
    };
  }

  /**
   * What a reference refers to, by the clause's words: `ids` of `/me/subscriptions` may be authors or
   * users, and "subscribe to the author" says which; a bare `uri` of a menu takes the clause's `recipe`.
   */
  function refineNeed(need: NeededInput, step: PlanStep, clause: RequirementClause): NeededInput {
    if (need.kind === 'value') return need;
    const mentioned = clause.mentions.map((mention) => mention.entity);
    const named = need.entities.filter((entity) => mentioned.includes(entity));
    // `{username}` under `/user-loans/`: what the input's own name identifies stays, whatever else the clause names.
    const ownName = nameEntity(need.name, index.knownEntities);
    if (ownName !== undefined && need.entities[0] === ownName && named.length > 0 && !named.includes(ownName))
      named.unshift(ownName);
    if (!need.generic) return named.length > 0 ? { ...need, entities: named } : need;
    // `Add Tiramisu in my menu`: names that no mentioned entity carries are what the step takes.
    const looseNames =
      (clause.names.length > 0 || clause.quoted.length > 0) && !clause.mentions.some((mention) => mention.named);
    const own = step.profile.resources[0];
    if (looseNames && own !== undefined) return { ...need, entities: [own] };
    if (named.length > 0) return { ...need, entities: named.slice(0, 1) };
    // `Must be a book or a journal uri`: what the description says it takes, whatever else the clause names.
    if (need.described === true) return need;
    const others = mentioned.filter((entity) => entity !== own);
    if (others.length > 0) return { ...need, entities: [...new Set([...others, ...need.entities])] };
    return need;
  }

  /** The value the requirement names for the entity a required reference identifies, if any. */
  function givenValue(step: PlanStep, need: NeededInput, clause: RequirementClause): unknown {
    if (!need.required || need.in === 'header' || (need.kind === 'value' && need.in !== 'path')) return undefined;
    const usable = (mention: RequirementClause['mentions'][number]): boolean =>
      mention.given !== undefined && need.entities.includes(mention.entity);
    const mention =
      clause.mentions.find(usable) ??
      // `Delete review 1234` in a later clause: `it` or the entity named again.
      clauses
        .slice(0, step.clause)
        .flatMap((earlier) => earlier.mentions)
        .find(usable);
    // `Which courses has sam passed?`: the one loose name of the clause, for an input that takes a name.
    const loose =
      mention === undefined &&
      need.in === 'path' &&
      clause.looseNames.length === 1 &&
      !clause.mentions.some((other) => other.given !== undefined) &&
      /name|login|handle/i.test(need.name)
        ? clause.looseNames[0]
        : undefined;
    // `List the loans of member1q7…`: a value no noun names, in the form the catalog's examples of this input have.
    const formed =
      mention === undefined && loose === undefined && need.in === 'path'
        ? clause.values.find(
            (value) => !clause.mentions.some((other) => other.given === value) && hasFormOf(index, value, need),
          )
        : undefined;
    if (mention?.given === undefined && loose === undefined && formed === undefined) return undefined;
    const value = mention?.given ?? loose ?? formed!;
    // `loan1…` is no `member_id` where the catalog's member ids read `member1…`.
    if (!valueFits(value, need) || !shapeFits(index, value, need)) return undefined;
    usedGiven.add(value);
    // The number is spent: it does not also fill another numeric input of the clause.
    const position = clause.numbers.findIndex((number) => String(number) === value);
    if (position >= 0) {
      const used = usedValues.get(step.clause) ?? new Set<string>();
      used.add(`n${position}`);
      usedValues.set(step.clause, used);
    }
    const type = (need.schema as { type?: unknown } | undefined)?.type;
    return type === 'integer' || type === 'number' ? Number(value) : value;
  }

  function inputFor(step: PlanStep, need: NeededInput, clause: RequirementClause): PlanInput {
    const used = usedValues.get(step.clause) ?? new Set<string>();
    usedValues.set(step.clause, used);
    const example = exampleFromClause(need, clause, used);
    return { step, need, example: example ?? exampleFromSchema(need.schema), fromRequirement: example !== undefined };
  }

  // 3. Order, name and assemble.
  const ordered = orderSteps(steps, bindings);
  const names = new Set<string>();
  for (const step of ordered) {
    const endpoint = step.profile.endpoint;
    const base = pascalName(
      endpoint.summary.trim() !== ''
        ? endpoint.summary
        : (endpoint.operationId ?? `${endpoint.method} ${endpoint.path}`),
    );
    let name = base;
    for (let n = 2; names.has(name); n += 1) name = `${base}${n}`;
    names.add(name);
    step.name = name;
  }
  // Values the requirement names that no step takes and no search looks up: the plan leaves something out.
  const searches = steps.some((step) => isSearch(step.profile));
  const unresolved = clauses
    .flatMap((clause) => clause.mentions)
    .filter(
      (mention) => (mention.given !== undefined ? !usedGiven.has(mention.given) : mention.named) && !searches,
    ).length;
  for (const { action, consumer, need } of producerActions)
    action.feeds = { step: consumer.name, in: need.in, name: need.name };
  const roadmap = assemble(requirement, ordered, bindings, inputs, actions, options.decidedBy ?? 'scores', unresolved);
  if (read.length > clauses.length) {
    // What was left out is not planned: the plan is not the requirement's, whatever its scores.
    roadmap.confidence = Math.min(roadmap.confidence, PARTIAL_PLAN_CONFIDENCE);
    roadmap.notes = [
      ...(roadmap.notes ?? []),
      `the requirement asks for ${read.length} actions; the first ${MAX_ACTIONS} are planned: plan the rest as another requirement`,
    ];
  }
  return roadmap;
}
