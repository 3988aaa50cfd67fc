import { describeStatus } from './expected-status.js';
import type { ExpectedStatus } from './test-case.js';

/** An endpoint node assertion on `statusCode`. */
export interface StatusAssertion {
  target: 'statusCode';
  operator: '==' | '!=' | '>=' | '<=';
  value: number;
  description: string;
}

/**
 * The endpoint-node assertions that pass exactly when the status is one the expectation allows.
 * The node has no "one of" operator, so a list becomes its range with the codes between left
 * out: `[401, 403]` → `>= 401`, `<= 403`, `!= 402`.
 * @example statusAssertions('4XX') // [{ target: 'statusCode', operator: '>=', value: 400, … }, { …, operator: '<=', value: 499, … }]
 */
export function statusAssertions(expected: ExpectedStatus): StatusAssertion[] {
  const description = `status is ${describeStatus(expected)}`;
  if (typeof expected === 'number') return [{ target: 'statusCode', operator: '==', value: expected, description }];
  if (typeof expected === 'string') {
    const low = Number(expected[0]) * 100;
    return [
      { target: 'statusCode', operator: '>=', value: low, description },
      { target: 'statusCode', operator: '<=', value: low + 99, description },
    ];
  }
  const codes = [...new Set(expected)].sort((a, b) => a - b);
  const low = codes[0]!;
  const high = codes.at(-1)!;
  if (low === high) return [{ target: 'statusCode', operator: '==', value: low, description }];
  const assertions: StatusAssertion[] = [
    { target: 'statusCode', operator: '>=', value: low, description },
    { target: 'statusCode', operator: '<=', value: high, description },
  ];
  for (let code = low + 1; code < high; code += 1) {
    if (!codes.includes(code)) assertions.push({ target: 'statusCode', operator: '!=', value: code, description });
  }
  return assertions;
}
