import type { EndpointProfile } from './endpoint-profile.js';
import type { RequirementClause } from './parse-requirement.js';
import { isGenericVerb } from './vocabulary.js';

/**
 * Whether an endpoint does the action a clause's verb asks for: `same` when the endpoint names
 * that verb as what it does (`Lock an account` for "lock account 12", a path ending in `/pause` for
 * "pause …"), `other` when it names another action (`Save recipes` for "cook the recipe", `Create
 * loan reminder` for "renew loan 42", `Lock an account from being edited` for "edit account 12": there
 * the verb is only a word of the description), undefined when its words say neither. `names`
 * says whether a stemmed word of the endpoint is the clause's verb or a word near it.
 */
export function verbAgreement(
  clause: RequirementClause,
  profile: EndpointProfile,
  matched: readonly string[],
  names: (term: string) => boolean,
): 'same' | 'other' | undefined {
  const verb = clause.verb;
  if (verb === undefined) return undefined;
  const specific = !isGenericVerb(verb);
  if (
    specific &&
    matched.some((term) => term !== verb) &&
    ((profile.summaryVerb !== undefined && names(profile.summaryVerb)) ||
      profile.actions.some((action) => names(action.term)))
  )
    return 'same';
  // What to read is told by the object; only an action's verb tells write endpoints apart.
  if (clause.intent === 'read' || profile.actions.length === 0) return undefined;
  // `Save the document being edited` for `Edit document`: the endpoint does what the phrase
  // qualifying the object says was done to it, not what the clause asks.
  const qualifying = profile.actions.some(
    (action) => !action.choice && action.term !== verb && clause.modifiers.includes(action.term),
  );
  if (qualifying) return 'other';
  if (profile.actions.some((action) => names(action.term))) return undefined;
  // What the endpoint says it does; the states its input chooses among are what it can do.
  const stated = profile.actions.filter((action) => !action.choice);
  const namesSpecific = stated.some((action) => !action.generic);
  // `Enroll Students` for "grade …": the endpoint does a named action the clause does not ask for.
  const another = specific && namesSpecific;
  // `Update phone number` for "register a patient": what the summary says the endpoint does is another of
  // create/read/update/delete. Only a plain CRUD verb of the clause says its intent outright; a
  // specific verb's (`discharge`, `transfer`) is WordNet's guess, too loose to rule an endpoint out.
  const first = stated[0];
  const otherIntent =
    !specific && clause.intent !== undefined && first !== undefined && first.generic && first.intent !== clause.intent;
  // `Lock an account from being edited` for "edit account 12": the verb is a word of it, not what it does.
  const verbIsDetail = namesSpecific && matched.includes(verb) && profile.fields.has(verb);
  return another || otherIntent || verbIsDetail ? 'other' : undefined;
}
