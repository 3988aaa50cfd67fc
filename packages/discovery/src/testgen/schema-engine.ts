import type { CatalogEndpoint } from '../catalog/types.js';
import { boundaryCases } from './boundary-cases.js';
import { selectCases, type GenerateOptions, type TestCaseGenerator } from './generator.js';
import { negativeCases } from './negative-cases.js';
import { positiveCases } from './positive-cases.js';
import { schemaCaseContext } from './schema-context.js';
import { securityCases } from './security-cases.js';
import type { GeneratedTestCase } from './test-case.js';

/**
 * The test cases the endpoint's OpenAPI description implies, without any network: valid
 * requests, each way of breaking one field, the limits of each bounded value, and missing or bad
 * credentials. The same endpoint always gives the same cases in the same order.
 * @example
 * const cases = generateSchemaTestCases(createOrder, { categories: ['negative'] });
 * cases[0].name // 'missing body'
 */
export function generateSchemaTestCases(endpoint: CatalogEndpoint, options: GenerateOptions = {}): GeneratedTestCase[] {
  const context = schemaCaseContext(endpoint);
  return selectCases(
    [...positiveCases(context), ...negativeCases(context), ...boundaryCases(context), ...securityCases(context)],
    options,
  );
}

/** The `schema` engine. */
export function createSchemaTestCaseGenerator(): TestCaseGenerator {
  return {
    name: 'schema',
    async generate(endpoint, options) {
      return generateSchemaTestCases(endpoint, options);
    },
  };
}
