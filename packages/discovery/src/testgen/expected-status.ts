import type { CatalogEndpoint } from '../catalog/types.js';
import type { ExpectedStatus } from './test-case.js';

/** Numeric codes the endpoint declares, ascending. */
function declaredCodes(endpoint: CatalogEndpoint): number[] {
  return Object.keys(endpoint.responses)
    .filter((key) => /^\d{3}$/.test(key))
    .map(Number)
    .sort((a, b) => a - b);
}

function declaresClass(endpoint: CatalogEndpoint, digit: number): boolean {
  return Object.keys(endpoint.responses).some((key) => key.toUpperCase() === `${digit}XX`);
}

function oneOrMany(codes: number[]): ExpectedStatus {
  return codes.length === 1 ? codes[0]! : codes;
}

/**
 * What a valid request must answer: the declared 2XX codes (one of them when there are several),
 * else the `2XX` class; an endpoint that declares only 3XX answers (a redirect) expects those.
 * @example successStatus(endpointWith({ '201': …, '400': … })) // 201
 */
export function successStatus(endpoint: CatalogEndpoint): ExpectedStatus {
  const codes = declaredCodes(endpoint);
  const success = codes.filter((code) => code >= 200 && code < 300);
  if (success.length > 0) return oneOrMany(success);
  if (declaresClass(endpoint, 2)) return '2XX';
  const redirects = codes.filter((code) => code >= 300 && code < 400);
  if (redirects.length > 0) return oneOrMany(redirects);
  return '2XX';
}

/**
 * What an invalid request must answer: 400 and/or 422 when the spec declares them (a server
 * picks either for a validation failure), else any 4XX.
 */
export function validationFailureStatus(endpoint: CatalogEndpoint): ExpectedStatus {
  const declared = declaredCodes(endpoint).filter((code) => code === 400 || code === 422);
  return declared.length > 0 ? oneOrMany(declared) : '4XX';
}

/** A body that is not JSON at all: 400 when declared (it is not a validation failure), else as above. */
export function malformedBodyStatus(endpoint: CatalogEndpoint): ExpectedStatus {
  return declaredCodes(endpoint).includes(400) ? 400 : validationFailureStatus(endpoint);
}

/**
 * A bad path parameter may be refused as invalid or as unknown (404): any 4XX, since both are
 * right and the spec rarely says which.
 */
export function badPathParameterStatus(): ExpectedStatus {
  return '4XX';
}

/**
 * Missing or wrong credentials: 401 or 403, whatever the spec declares. Servers differ on which
 * (an API gateway often answers 403 for a missing key) and both mean "not let in".
 */
export function unauthorisedStatus(): ExpectedStatus {
  return [401, 403];
}

/**
 * Whether a status is one of those an expectation allows.
 * @example statusMatches('4XX', 422) // true
 */
export function statusMatches(expected: ExpectedStatus, status: number): boolean {
  if (typeof expected === 'number') return status === expected;
  if (Array.isArray(expected)) return expected.includes(status);
  return Math.floor(status / 100) === Number(expected[0]);
}

/**
 * An expectation as a person reads it.
 * @example describeStatus([400, 422]) // '400 or 422'
 */
export function describeStatus(expected: ExpectedStatus): string {
  if (Array.isArray(expected))
    return expected.length === 1 ? String(expected[0]) : `${expected.slice(0, -1).join(', ')} or ${expected.at(-1)}`;
  return String(expected);
}
