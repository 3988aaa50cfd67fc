import { SvcError } from '@svc/engine';
import type { EndpointProfile, NeededInput } from './endpoint-profile.js';
import { bestOffer, type ValueMatch } from './match-values.js';
import { parseRequirement, type RequirementClause } from './parse-requirement.js';
import type { PlannerIndex } from './planner-index.js';
import { rankEndpoints, termCoverage, type RankedEndpoint } from './rank-endpoints.js';
import type { Roadmap, RoadmapAction, RoadmapBinding, RoadmapInput, RoadmapStep, RoadmapTarget } from './roadmap.js';
import { camelName, pascalName, singular, stem, words } from './text.js';

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

/** Below this an action's best endpoint is not taken: the clause is likely a detail of another. */
const MIN_ACTION_SCORE = 0.22;
/** A step already in the plan is reused as a producer from this confidence up. */
const MIN_REUSE_CONFIDENCE = 0.6;
const MIN_PRODUCER_SCORE = 0.25;
const MAX_PRODUCER_DEPTH = 3;
const MAX_STEPS = 25;
const NAMING_TERMS = new Set(['nam', 'call', 'titl', 'renam', 'label']);
const SEARCH_PARAMS = /^(q|query|search|keyword|keywords|term|text)$/i;

interface PlanStep {
  key: number;
  profile: EndpointProfile;
  role: 'requested' | 'producer';
  action: number | undefined;
  clause: number;
  score: number;
  reason: string;
  depth: number;
  name: string;
}

interface PlanBinding {
  from: PlanStep;
  to: PlanStep;
  need: NeededInput;
  match: ValueMatch;
}

interface PlanInput {
  step: PlanStep;
  need: NeededInput;
  example: unknown;
  fromRequirement: boolean;
}

/**
 * Plans a requirement against a catalog: reads it as clauses, takes the best-scoring endpoint
 * for each, adds the producers their inputs need (finding the current user before creating
 * their playlist), binds each input to a producer's response or to a flow input, and orders the
 * steps so every producer runs before its consumers. Deterministic: same index and requirement,
 * same roadmap.
 *
 * @example
 * const roadmap = planRoadmap('create a playlist named "Focus"', buildPlannerIndex(endpoints));
 * roadmap.steps.map((step) => `${step.method} ${step.path}`); // ['GET /me', 'POST /users/{user_id}/playlists']
 */
export function planRoadmap(requirement: string, index: PlannerIndex, options: PlanOptions = {}): Roadmap {
  const clauses = options.endpoints !== undefined ? [] : parseRequirement(requirement, { isCatalogWord: (term) => index.idf.has(term), isEntity: (term) => index.knownEntities.has(term) });
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
      if (profile === undefined) throw new SvcError('ENDPOINT_NOT_FOUND', `endpoint "${endpointId}" is not in the catalog`, { status: 404, details: { path: ['endpoints', position] } });
      const text = `${profile.endpoint.method} ${profile.endpoint.path}`;
      clauses[position] = { text, terms: [], intent: undefined, verb: undefined, quoted: [], labels: [], names: [], numbers: [], ordinal: undefined, owned: false, mentions: [], modifiers: [] };
      actions.push({ phrase: text, candidates: [], chosen: null });
      addStep({ profile, role: 'requested', action: actions.length - 1, clause: position, score: 1, reason: 'given', depth: 0 });
    });
  }
  if (options.endpoints === undefined) clauses.forEach((clause, clauseIndex) => {
    const ranked = rankEndpoints(index, clause, options.candidates ?? 5);
    const forced = options.choices?.get(actions.length);
    const chosenIndex = forced !== undefined ? ranked.findIndex((candidate) => candidate.profile.endpoint.id === forced) : 0;
    const chosen = chosenIndex >= 0 ? ranked[chosenIndex] : undefined;
    // `… and name it Quiet` only names what the previous action makes.
    const onlyNames = clause.labels.length > 0 && clause.terms.every((term) => NAMING_TERMS.has(term)) && clauseIndex > 0;
    const taken = chosen !== undefined && !onlyNames && (forced !== undefined || chosen.score >= MIN_ACTION_SCORE);
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
      if (ranked.length === 0 && clause.terms.length === 0) return;
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
  });

  /**
   * "Make a playlist containing three songs": what the chosen endpoint left of the clause may be
   * a second action on the resource it creates (adding tracks to the new playlist).
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
  for (let cursor = 0; cursor < steps.length; cursor += 1) {
    const step = steps[cursor]!;
    const clause = clauses[step.clause];
    if (clause === undefined) continue;
    const optional = optionalReference(step, clause);
    for (const declared of step.profile.needs) {
      // An optional reference filled because the clause names more: it refers to what the clause names.
      const need = refineNeed(declared, step, clause);
      if (need.in === 'header' && /^(authorization|accept|content-type)$/i.test(need.name)) continue;
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
      const reused = reuseProducer(step, need);
      if (reused !== undefined) {
        bindings.push({ from: reused.step, to: step, need, match: reused.match });
        continue;
      }
      const canAdd = options.addProducers !== false && step.depth < MAX_PRODUCER_DEPTH && steps.length < MAX_STEPS;
      const producer = canAdd ? findProducer(step, need, clause) : undefined;
      if (producer !== undefined) {
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
      } else if (need.required) {
        inputs.push(inputFor(step, need, clause));
      }
    }
  }

  /** The one optional reference worth filling: when the clause says more than the endpoint matched. */
  function optionalReference(step: PlanStep, clause: RequirementClause): NeededInput | undefined {
    if (step.role !== 'requested') return undefined;
    const candidates = step.profile.needs.filter((need) => !need.required && need.kind !== 'value' && need.in !== 'header');
    const mentioned = clause.mentions.map((mention) => mention.entity);
    const entityMentioned = candidates.find((need) => refineNeed(need, step, clause).entities.some((entity) => mentioned.includes(entity)));
    if (entityMentioned !== undefined) return entityMentioned;
    const namesSomething = clause.names.length > 0 || clause.quoted.length > 0 || clause.mentions.some((mention) => mention.named);
    return namesSomething ? candidates.find((need) => need.list) : undefined;
  }

  function reuseProducer(step: PlanStep, need: NeededInput, sameNameOnly = false): { step: PlanStep; match: ValueMatch } | undefined {
    let best: { step: PlanStep; match: ValueMatch } | undefined;
    for (const other of steps) {
      if (other === step || dependsOn(other, step)) continue;
      // Given endpoints keep their order; a plain value comes from a step named before its consumer.
      const before = other.clause < step.clause || (other.clause === step.clause && other.key < step.key);
      if ((options.endpoints !== undefined || sameNameOnly) && !before) continue;
      const match = bestOffer(need, other.profile, sameNameOnly);
      if (match === undefined || match.confidence < MIN_REUSE_CONFIDENCE) continue;
      // A value buried in another step's answer (`items[0].added_by.id`) is not what that step is for.
      if (match.offer.depth > 1 && match.sameName !== true) continue;
      // Ties go to the nearest earlier step.
      if (best === undefined || match.confidence > best.match.confidence || (match.confidence === best.match.confidence && before && other.clause > best.step.clause)) {
        best = { step: other, match };
      }
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
      const named = names.length > 0 && names.every((word) => said.includes(word)) && said.includes('from');
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
   * `a new playlist` is created, `my first playlist` is read from the caller's own list, `the
   * album Mojito` is searched for by name.
   */
  function findProducer(step: PlanStep, need: NeededInput, clause: RequirementClause): { profile: EndpointProfile; match: ValueMatch } | undefined {
    const mention = clause.mentions.find((candidate) => need.entities.includes(candidate.entity));
    const named = mention !== undefined ? mention.named && !mention.owned : clause.names.length > 0 || clause.quoted.length > 0;
    // The consumer's own words (`play` of `play me some quiet songs`) do not say which producer.
    const residual = clause.terms;
    let best: { profile: EndpointProfile; match: ValueMatch; score: number } | undefined;
    for (const profile of index.profiles) {
      if (profile === step.profile || (profile.endpoint.path === step.profile.endpoint.path && profile.endpoint.method !== 'GET')) continue;
      const match = bestOffer(need, profile);
      if (match === undefined) continue;
      const { coverage } = termCoverage(index, residual, profile);
      // What the producer needs in turn, unless a step of the plan offers it already.
      const unmet = profile.needs.filter((other) => other.required && other.kind !== 'value' && !steps.some((planned) => planned !== step && !dependsOn(planned, step) && bestOffer(other, planned.profile) !== undefined)).length;
      const creates = profile.endpoint.method === 'POST' && need.entities.includes(profile.resources[0] ?? '');
      let score = match.confidence * (0.7 + 0.3 * Math.min(1, coverage * 1.6));
      if (mention?.created === true && creates) score += 0.35;
      else if (profile.endpoint.method === 'GET') score += 0.12;
      else score -= 0.25;
      score -= 0.2 * unmet;
      if (isOwnCollection(profile, need)) score += mention?.owned === true ? 0.2 : clause.owned ? 0.1 : 0;
      if (named && isSearch(profile)) score += 0.3;
      // `Taylor Swift's newest album`: from the owner's list (`/artists/{id}/albums`).
      if (mention?.ofNamedOwner === true && isSubCollection(profile, need, clause)) score += 0.35;
      // `the artist of the song`: reached through the song's own endpoint.
      const via = mention?.via;
      if (via !== undefined && profile.needs.some((other) => other.in === 'path' && other.entities.includes(via))) score += 0.3;
      if (best === undefined || score > best.score + 1e-9) best = { profile, match, score };
    }
    if (best === undefined || best.score < MIN_PRODUCER_SCORE) return undefined;
    return { profile: best.profile, match: pickItem(best.match, mention?.ordinal) };
  }

  /**
   * What a reference refers to, by the clause's words: `ids` of `/me/following` may be artists or
   * users, and "follow the artist" says which; a bare `uri` of a queue takes the clause's `song`.
   */
  function refineNeed(need: NeededInput, step: PlanStep, clause: RequirementClause): NeededInput {
    if (need.kind === 'value') return need;
    const mentioned = clause.mentions.map((mention) => mention.entity);
    const named = need.entities.filter((entity) => mentioned.includes(entity));
    if (!need.generic) return named.length > 0 ? { ...need, entities: named } : need;
    // `Add Summertime Sadness in my playlist`: names that no mentioned entity carries are what the step takes.
    const looseNames = (clause.names.length > 0 || clause.quoted.length > 0) && !clause.mentions.some((mention) => mention.named);
    const own = step.profile.resources[0];
    if (looseNames && own !== undefined) return { ...need, entities: [own] };
    if (named.length > 0) return { ...need, entities: named.slice(0, 1) };
    const others = mentioned.filter((entity) => entity !== own);
    if (others.length > 0) return { ...need, entities: [...new Set([...others, ...need.entities])] };
    return need;
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
    const base = pascalName(endpoint.summary.trim() !== '' ? endpoint.summary : endpoint.operationId ?? `${endpoint.method} ${endpoint.path}`);
    let name = base;
    for (let n = 2; names.has(name); n += 1) name = `${base}${n}`;
    names.add(name);
    step.name = name;
  }
  return assemble(requirement, ordered, bindings, inputs, actions, options.decidedBy ?? 'scores');
}

function exampleFromClause(need: NeededInput, clause: RequirementClause, used: Set<string>): unknown {
  const type = schemaType(need.schema);
  const take = (key: string, value: unknown): unknown => {
    used.add(key);
    return value;
  };
  if (type === 'integer' || type === 'number') {
    const index = clause.numbers.findIndex((_value, position) => !used.has(`n${position}`));
    return index >= 0 ? take(`n${index}`, clause.numbers[index]) : undefined;
  }
  if (type !== 'string' && type !== undefined) return undefined;
  if (SEARCH_PARAMS.test(need.name)) {
    const index = clause.names.findIndex((_value, position) => !used.has(`p${position}`));
    if (index >= 0) return take(`p${index}`, clause.names[index]);
  }
  const enumValues = enumOf(need.schema);
  if (enumValues !== undefined) return undefined;
  if (/name|title|label/i.test(need.name)) {
    const label = clause.labels.findIndex((_value, position) => !used.has(`l${position}`));
    if (label >= 0) return take(`l${label}`, clause.labels[label]);
  }
  const quoted = clause.quoted.findIndex((value, position) => !used.has(`q${position}`) && !clause.labels.includes(value));
  if (quoted >= 0 && /name|title|label|^q$|query|text/i.test(need.name)) return take(`q${quoted}`, clause.quoted[quoted]);
  return undefined;
}

function exampleFromSchema(schema: unknown): unknown {
  if (typeof schema !== 'object' || schema === null) return undefined;
  const record = schema as Record<string, unknown>;
  if (record.example !== undefined) return record.example;
  if (record.default !== undefined) return record.default;
  const values = enumOf(schema);
  return values?.[0];
}

function enumOf(schema: unknown): unknown[] | undefined {
  if (typeof schema !== 'object' || schema === null) return undefined;
  const values = (schema as Record<string, unknown>).enum;
  return Array.isArray(values) && values.length > 0 ? values : undefined;
}

function schemaType(schema: unknown): string | undefined {
  if (typeof schema !== 'object' || schema === null) return undefined;
  const type = (schema as Record<string, unknown>).type;
  return typeof type === 'string' ? type : Array.isArray(type) ? (type.find((t) => t !== 'null') as string | undefined) : undefined;
}

/**
 * `/me/playlists`, `/users/me/orders`, `/me/following` (of artists): the caller's own collection
 * of the kind a need refers to.
 */
function isOwnCollection(profile: EndpointProfile, need: NeededInput): boolean {
  const segments = profile.endpoint.path.split('/').filter((segment) => segment !== '');
  const self = segments.findIndex((segment) => /^(me|my|self|current|mine)$/i.test(segment));
  if (self < 0 || segments.length !== self + 2) return false;
  const collection = stem(singular(words(segments[self + 1] ?? '').at(-1) ?? ''));
  return need.entities.includes(collection) || need.entities.includes(profile.resources[0] ?? '');
}

/**
 * `/artists/{id}/albums` for albums: a list of the entity under the id of a parent the clause
 * does not otherwise speak of (the named owner), so not `/playlists/{id}/tracks` for the tracks
 * of a playlist it creates.
 */
function isSubCollection(profile: EndpointProfile, need: NeededInput, clause: RequirementClause): boolean {
  const segments = profile.endpoint.path.split('/').filter((segment) => segment !== '');
  const last = segments[segments.length - 1] ?? '';
  const parentId = segments[segments.length - 2] ?? '';
  const parent = stem(singular(words(segments[segments.length - 3] ?? '').at(-1) ?? ''));
  if (profile.endpoint.method !== 'GET' || !parentId.startsWith('{') || last.startsWith('{')) return false;
  if (clause.mentions.some((mention) => mention.entity === parent)) return false;
  return need.entities.includes(stem(singular(words(last).at(-1) ?? '')));
}

/** `the second track`: take that item of a list rather than the first. */
function pickItem(match: ValueMatch, ordinal: number | undefined): ValueMatch {
  if (ordinal === undefined || ordinal <= 0 || !match.offer.path.includes('[0]')) return match;
  return { ...match, offer: { ...match.offer, path: match.offer.path.replace('[0]', `[${ordinal}]`) } };
}

function isSearch(profile: EndpointProfile): boolean {
  return /search|find|lookup/i.test(profile.endpoint.path) || profile.needs.some((need) => need.required && SEARCH_PARAMS.test(need.name));
}

/**
 * Producers before consumers (Kahn's algorithm); among steps that are ready, the earlier clause
 * first, then producers before the step they serve, then look-ups by name (searches) first.
 */
function orderSteps(steps: PlanStep[], bindings: PlanBinding[]): PlanStep[] {
  const consumersOf = new Map<PlanStep, PlanStep[]>();
  const pending = new Map<PlanStep, number>();
  for (const step of steps) pending.set(step, 0);
  const edges = new Set<string>();
  for (const binding of bindings) {
    const key = `${binding.from.key}>${binding.to.key}`;
    if (edges.has(key)) continue;
    edges.add(key);
    consumersOf.set(binding.from, [...(consumersOf.get(binding.from) ?? []), binding.to]);
    pending.set(binding.to, (pending.get(binding.to) ?? 0) + 1);
  }
  const priority = (step: PlanStep): number[] => [step.clause, step.role === 'producer' ? 0 : 1, isSearch(step.profile) ? 0 : 1, step.key];
  const compare = (a: PlanStep, b: PlanStep): number => {
    const pa = priority(a);
    const pb = priority(b);
    for (let i = 0; i < pa.length; i += 1) if (pa[i] !== pb[i]) return (pa[i] ?? 0) - (pb[i] ?? 0);
    return 0;
  };
  const ready = steps.filter((step) => pending.get(step) === 0);
  const ordered: PlanStep[] = [];
  while (ready.length > 0) {
    ready.sort(compare);
    const step = ready.shift()!;
    ordered.push(step);
    for (const consumer of consumersOf.get(step) ?? []) {
      const left = (pending.get(consumer) ?? 1) - 1;
      pending.set(consumer, left);
      if (left === 0) ready.push(consumer);
    }
  }
  return ordered;
}

function assemble(
  requirement: string,
  ordered: PlanStep[],
  bindings: PlanBinding[],
  inputs: PlanInput[],
  actions: RoadmapAction[],
  decidedBy: Roadmap['decidedBy'],
): Roadmap {
  const roadmapSteps: RoadmapStep[] = ordered.map((step) => ({
    name: step.name,
    endpointId: step.profile.endpoint.id,
    specId: step.profile.endpoint.specId,
    method: step.profile.endpoint.method,
    path: step.profile.endpoint.path,
    summary: step.profile.endpoint.summary.trim(),
    reason: step.reason,
    score: step.score,
    role: step.role,
    ...(step.action !== undefined ? { action: step.action } : {}),
  }));
  const target = (step: PlanStep, need: NeededInput): RoadmapTarget => ({ step: step.name, in: need.in, name: need.name });
  const roadmapBindings: RoadmapBinding[] = bindings.map((binding) => ({
    expression: `{{ResponseBinding.${binding.from.name}.body${binding.match.offer.path.startsWith('[') ? '' : '.'}${binding.match.offer.path}}}`,
    from: { step: binding.from.name, source: 'body', path: binding.match.offer.path },
    to: target(binding.to, binding.need),
    confidence: round(binding.match.confidence),
    reason: binding.match.reason,
  }));
  const byName = new Map<string, RoadmapInput>();
  for (const input of inputs) {
    let name = camelName(input.need.name);
    const existing = byName.get(name);
    if (existing !== undefined && JSON.stringify(existing.schema) !== JSON.stringify(input.need.schema)) name = camelName(`${input.step.name} ${input.need.name}`);
    const entry = byName.get(name);
    if (entry !== undefined) {
      entry.usedBy.push(target(input.step, input.need));
      continue;
    }
    const description = input.need.description.replace(/\s+/g, ' ').trim().slice(0, 300);
    byName.set(name, {
      name,
      description: `${input.need.in === 'body' ? 'Body field' : `${capitalise(input.need.in)} parameter`} ${input.need.name} of ${input.step.name}${description !== '' ? `: ${description}` : ''}${input.fromRequirement ? ' (value taken from the requirement)' : ''}`,
      required: input.need.required,
      ...(input.need.schema !== undefined ? { schema: input.need.schema } : {}),
      ...(input.example !== undefined ? { example: input.example } : {}),
      usedBy: [target(input.step, input.need)],
    });
  }
  const requestedScores = ordered.filter((step) => step.role === 'requested').map((step) => step.score);
  const bindingConfidences = roadmapBindings.map((binding) => binding.confidence);
  const weakestAction = requestedScores.length === 0 ? 0 : Math.min(...requestedScores);
  const meanBinding = bindingConfidences.length === 0 ? 1 : bindingConfidences.reduce((sum, value) => sum + value, 0) / bindingConfidences.length;
  const unmatched = actions.filter((action) => action.chosen === null).length;
  const confidence =
    requestedScores.length === 0 ? 0 : round(Math.min(1, (0.3 + weakestAction) * 0.7 + meanBinding * 0.3) * (1 - unmatched / (actions.length + 1)));
  return { requirement, steps: roadmapSteps, bindings: roadmapBindings, inputs: [...byName.values()], confidence, actions, decidedBy };
}

function toCandidate(ranked: RankedEndpoint): RoadmapAction['candidates'][number] {
  const endpoint = ranked.profile.endpoint;
  return { endpointId: endpoint.id, method: endpoint.method, path: endpoint.path, summary: endpoint.summary.trim(), score: round(ranked.score), reasons: ranked.reasons };
}

function stepLabel(step: PlanStep): string {
  return `${step.profile.endpoint.method} ${step.profile.endpoint.path}`;
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function round(value: number): number {
  return Math.round(Math.max(0, Math.min(1, value)) * 100) / 100;
}
