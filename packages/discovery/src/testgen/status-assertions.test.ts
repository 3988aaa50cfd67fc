import { compare } from '@svc/engine';
import { describe, expect, it } from 'vitest';
import { statusMatches } from './expected-status.js';
import { statusAssertions } from './status-assertions.js';
import type { ExpectedStatus } from './test-case.js';

/** What the endpoint node decides with these assertions: all must pass. */
function nodePasses(expected: ExpectedStatus, status: number): boolean {
  return statusAssertions(expected).every((assertion) => compare(status, assertion.operator, assertion.value));
}

describe('statusAssertions', () => {
  it('passes exactly the statuses the expectation allows, for every status code', () => {
    const expectations: ExpectedStatus[] = [201, [200, 202], [401, 403], [400, 422], [204], '2XX', '4XX', '5XX'];
    for (const expected of expectations) {
      for (let status = 100; status <= 599; status += 1) {
        expect(nodePasses(expected, status), `${JSON.stringify(expected)} ${status}`).toBe(
          statusMatches(expected, status),
        );
      }
    }
  });

  it('writes a list as its range without the codes between', () => {
    expect(statusAssertions([403, 401]).map((assertion) => `${assertion.operator} ${assertion.value}`)).toEqual([
      '>= 401',
      '<= 403',
      '!= 402',
    ]);
    expect(statusAssertions(201)).toEqual([
      { target: 'statusCode', operator: '==', value: 201, description: 'status is 201' },
    ]);
  });
});
