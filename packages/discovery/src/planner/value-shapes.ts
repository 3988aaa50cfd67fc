import type { NeededInput } from './endpoint-profile.js';
import type { PlannerIndex } from './planner-index.js';

/**
 * The form a catalog's values take, from its own examples: typed keys start with what they are
 * (`loan1…`, `member1…`, `ward1…`), many ids with a kind prefix (`cus_…`). A value whose prefix
 * differs from every example of a field's values is no value of that field (`loan1…` is no
 * `member_id`), whatever its name says.
 */

/** The lower-case letters an identifier starts with before a digit or `_`, when there are 2 to 12. */
export function valuePrefix(value: string): string | undefined {
  return /^([a-z]{2,12})(?=[0-9_])/i.exec(value)?.[1]?.toLowerCase();
}

/** `member_id`, `memberId` → `memberid`: one key per field name. */
export function shapeKey(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]/g, '');
}

/** Whether a value the requirement gives has the form the catalog's examples of the input's field have. */
export function shapeFits(index: PlannerIndex, value: string, need: NeededInput): boolean {
  const prefix = valuePrefix(value);
  const known = index.valueShapes.get(shapeKey(need.name));
  return prefix === undefined || known === undefined || known.size === 0 || known.has(prefix);
}

/**
 * Whether a value's prefix says what the value is rather than happening to start it: a kind
 * prefix before `_` (`cus_…`, `bk_…`), or three letters or more with one no hexadecimal digit uses
 * (`ward1…`, `member1…`; not `ab` of a hash `ab12…`).
 */
export function tellingPrefix(value: string): boolean {
  const prefix = valuePrefix(value);
  if (prefix === undefined) return false;
  return value.charAt(prefix.length) === '_' || (prefix.length >= 3 && /[g-z]/.test(prefix));
}

/**
 * Whether a value the requirement gives without naming what it is (`the loans of member1q7…`)
 * has the telling form every example of the input's field has, so it is a value of that field.
 */
export function hasFormOf(index: PlannerIndex, value: string, need: NeededInput): boolean {
  if (!tellingPrefix(value)) return false;
  const known = index.valueShapes.get(shapeKey(need.name));
  return known !== undefined && known.size === 1 && known.has(valuePrefix(value) ?? '');
}
