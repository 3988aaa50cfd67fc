import type { CatalogEndpoint } from '../catalog/types.js';
import { selectCases, type GenerateOptions } from './generator.js';
import { buildTestGenerationPrompt, DEFAULT_MODEL_CASES, type ModelPrompt } from './model-prompt.js';
import { parseModelTestCases } from './parse-model-output.js';
import { successBodyChecks } from './response-checks.js';
import { statusMatches, successStatus } from './expected-status.js';
import type { GeneratedTestCase } from './test-case.js';

/** Sends a prompt to a model and answers its text. */
export type CompletePrompt = (prompt: ModelPrompt, signal: AbortSignal | undefined) => Promise<string>;

/**
 * A success case the model wrote without checks gets the ones the spec implies, so a model's
 * "valid request" checks the answer as much as the schema engine's does.
 */
function withSpecChecks(testCase: GeneratedTestCase, endpoint: CatalogEndpoint): GeneratedTestCase {
  if (testCase.expect.assertions.length > 0 || testCase.category === 'negative' || testCase.category === 'security')
    return testCase;
  const success = successStatus(endpoint);
  const expected = testCase.expect.status;
  const single = typeof expected === 'number' ? expected : undefined;
  if (single === undefined || !statusMatches(success, single)) return testCase;
  return { ...testCase, expect: { ...testCase.expect, assertions: successBodyChecks(endpoint, single) } };
}

/**
 * The path both model engines share: build the prompt, ask, read the answer as test cases,
 * report the dropped ones, keep the categories and count asked for.
 */
export async function generateWithModel(
  endpoint: CatalogEndpoint,
  options: GenerateOptions,
  complete: CompletePrompt,
  source: string,
): Promise<GeneratedTestCase[]> {
  const prompt = buildTestGenerationPrompt(endpoint, options);
  const text = await complete(prompt, options.signal);
  const { cases, rejected } = parseModelTestCases(text, source);
  if (rejected.length > 0) options.onRejected?.(rejected);
  return selectCases(
    cases.map((testCase) => withSpecChecks(testCase, endpoint)),
    { ...options, maxCases: options.maxCases ?? DEFAULT_MODEL_CASES },
  );
}
