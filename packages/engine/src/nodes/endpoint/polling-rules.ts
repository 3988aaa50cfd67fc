import { isSvcError, SvcError } from '../../errors.js';
import type { PollingConfig, PollingRule, PollingRuleOperator } from '../../model/configs/polling-config.js';
import { compare, type ComparisonOperator } from '../../model/operators.js';
import { type AssertionSubject, readTarget, showValue } from './assertions.js';

/** What one status response means for the polling. */
export interface PollDecision {
  /**
   * `stop`: a stopWhen rule matched, or (only continueWhen set) none of its rules did: the job is
   * done. `continue`: a continueWhen rule matched, or (only stopWhen set) none did: poll again.
   * `unexpected`: both tables are set and neither matched: the job is in a state nobody expects.
   */
  kind: 'stop' | 'continue' | 'unexpected';
  /** A rule matched, rather than the absence of a match deciding. */
  matched: boolean;
  /** The value at each rule's target. */
  seen: Record<string, unknown>;
}

/** Operators that hold when the value differs from every listed value; the others hold when one matches. */
const FOR_EVERY_VALUE: ReadonlySet<PollingRuleOperator> = new Set(['NOT_EQUALS', '!=', 'not_contains']);

const SPEC_OPERATORS: Partial<Record<PollingRuleOperator, ComparisonOperator>> = {
  EQUALS: '==',
  NOT_EQUALS: '!=',
  CONTAINS: 'contains',
};

function valuesOf(rule: PollingRule): unknown[] {
  if (rule.values !== undefined) return rule.values;
  return rule.value === undefined ? [] : [rule.value];
}

/**
 * Whether a rule holds for the value at its target. `EQUALS` compares like `==` (200 equals
 * "200"), `CONTAINS` like `contains`; `EXISTS` holds for any value but a missing one or null.
 * @example ruleHolds({ target: 'body.status', operator: 'EQUALS', values: ['PENDING', 'QUEUED'] }, 'QUEUED') // true
 */
export function ruleHolds(rule: PollingRule, actual: unknown): boolean {
  if (rule.operator === 'EXISTS') return actual !== undefined && actual !== null;
  const operator = SPEC_OPERATORS[rule.operator] ?? (rule.operator as ComparisonOperator);
  if (operator === 'is_empty' || operator === 'is_not_empty') return compare(actual, operator);
  const values = valuesOf(rule);
  return FOR_EVERY_VALUE.has(rule.operator)
    ? values.every((value) => compare(actual, operator, value))
    : values.some((value) => compare(actual, operator, value));
}

/** `body.status EQUALS ["PENDING","IN_PROGRESS"]` */
export function describeRule(rule: PollingRule): string {
  const values = valuesOf(rule);
  if (values.length === 0) return `${rule.target} ${rule.operator}`;
  return `${rule.target} ${rule.operator} ${values.length === 1 ? showValue(values[0]) : showValue(values)}`;
}

/** Reads a target; a path that does not parse fails the node, naming the rule. */
function read(target: string, subject: AssertionSubject, table: string): unknown {
  try {
    return readTarget(target, subject);
  } catch (error) {
    if (!isSvcError(error)) throw error;
    throw new SvcError(error.code, `polling.${table} target ${JSON.stringify(target)}: ${error.message}`);
  }
}

/**
 * Applies the rule tables to a status response: a stopWhen match first (a body that says both
 * COMPLETED and something continueWhen also matches is done), then continueWhen. With one table
 * only, a response that table does not match means the other outcome.
 * @example
 * decide({ continueWhen: [pending], stopWhen: [completed] }, { ...subject, body: { status: 'FAILED' } })
 * // { kind: 'unexpected', matched: false, seen: { 'body.status': 'FAILED' } }
 */
export function decide(
  rules: Pick<PollingConfig, 'continueWhen' | 'stopWhen'>,
  subject: AssertionSubject,
): PollDecision {
  const seen: Record<string, unknown> = {};
  // Every rule is evaluated (no short cut), so that the trace and an error show what each target held.
  const holds = (table: 'stopWhen' | 'continueWhen') =>
    rules[table]
      .map((rule) => {
        const actual = read(rule.target, subject, table);
        if (!Object.hasOwn(seen, rule.target)) seen[rule.target] = actual;
        return ruleHolds(rule, actual);
      })
      .includes(true);
  const stop = holds('stopWhen');
  const keepOn = holds('continueWhen');
  if (stop) return { kind: 'stop', matched: true, seen };
  if (keepOn) return { kind: 'continue', matched: true, seen };
  if (rules.stopWhen.length === 0) return { kind: 'stop', matched: false, seen };
  if (rules.continueWhen.length === 0) return { kind: 'continue', matched: false, seen };
  return { kind: 'unexpected', matched: false, seen };
}

/** `body.status is "FAILED"`, one part per target. */
export function describeSeen(seen: Record<string, unknown>): string {
  return Object.entries(seen)
    .map(([target, value]) => (value === undefined ? `${target} is missing` : `${target} is ${showValue(value)}`))
    .join(', ');
}
