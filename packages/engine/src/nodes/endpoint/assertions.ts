import { isSvcError } from '../../errors.js';
import type { Assertion } from '../../model/configs/endpoint-config.js';
import { compare, UNARY_OPERATORS } from '../../model/operators.js';
import { parsePath, readPath } from './read-path.js';

/** What an assertion can look at. */
export interface AssertionSubject {
  statusCode: number;
  latencyMs: number;
  /** Lower-case names. */
  headers: Record<string, string>;
  body: unknown;
}

export interface AssertionResult {
  target: string;
  operator: Assertion['operator'];
  expected: unknown;
  actual: unknown;
  passed: boolean;
  description?: string;
  /** Why the target could not be read (a malformed path). */
  error?: string;
}

/** Reads an assertion target; throws `INVALID_PATH` for a body path that does not parse. */
export function readTarget(target: string, subject: AssertionSubject): unknown {
  if (target === 'statusCode') return subject.statusCode;
  if (target === 'latencyMs') return subject.latencyMs;
  if (target === 'body') return subject.body;
  if (target.startsWith('headers.')) return subject.headers[target.slice('headers.'.length).toLowerCase()];
  if (target.startsWith('body.') || target.startsWith('body[')) {
    return readPath(subject.body, parsePath(target.slice('body'.length)));
  }
  return undefined;
}

/** Every assertion is evaluated, even after one fails, so a trace shows the whole picture. */
export function evaluateAssertions(assertions: readonly Assertion[], subject: AssertionSubject): AssertionResult[] {
  return assertions.map((assertion) => {
    const result: AssertionResult = {
      target: assertion.target,
      operator: assertion.operator,
      expected: assertion.value,
      actual: undefined,
      passed: false,
    };
    if (assertion.description !== undefined) result.description = assertion.description;
    try {
      result.actual = readTarget(assertion.target, subject);
      result.passed = compare(result.actual, assertion.operator, assertion.value);
    } catch (error) {
      if (!isSvcError(error)) throw error;
      result.error = error.message;
    }
    return result;
  });
}

const MAX_SHOWN_VALUE = 120;

/** A value as a failure message shows it: JSON, shortened so a whole body cannot flood the message. */
export function showValue(value: unknown): string {
  if (value === undefined) return 'undefined';
  const text = JSON.stringify(value) ?? String(value);
  return text.length > MAX_SHOWN_VALUE ? `${text.slice(0, MAX_SHOWN_VALUE)}…` : text;
}

/** `statusCode == 200 (got 500); body.status == "HEALTHY" (got "DOWN")` */
export function describeFailures(results: readonly AssertionResult[]): string {
  return results
    .filter((result) => !result.passed)
    .map((result) => {
      const expectation = UNARY_OPERATORS.has(result.operator)
        ? `${result.target} ${result.operator}`
        : `${result.target} ${result.operator} ${showValue(result.expected)}`;
      return result.error === undefined
        ? `${expectation} (got ${showValue(result.actual)})`
        : `${expectation} (${result.error})`;
    })
    .join('; ');
}
