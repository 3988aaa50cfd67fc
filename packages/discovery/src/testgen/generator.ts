import type { CatalogEndpoint } from '../catalog/types.js';
import type { GeneratedTestCase, TestCategory } from './test-case.js';

/** A model answer's element that did not make a usable test case, and why. */
export interface RejectedTestCase {
  index: number;
  reason: string;
  /** The element as the model wrote it, shortened. */
  excerpt: string;
}

export interface GenerateOptions {
  /** Only these categories; all four when absent. */
  categories?: readonly TestCategory[];
  /** At most this many cases (the first ones, in the engine's order). */
  maxCases?: number;
  /** Extra guidance for the model engines, e.g. "focus on currency handling". */
  instructions?: string;
  signal?: AbortSignal;
  /** Told about the elements of a model's answer that were dropped. */
  onRejected?: (rejected: RejectedTestCase[]) => void;
}

/** One way of producing test cases for an endpoint. */
export interface TestCaseGenerator {
  readonly name: string;
  generate(endpoint: CatalogEndpoint, options?: GenerateOptions): Promise<GeneratedTestCase[]>;
}

/** Distinct names in order: a repeated name gets ` (2)`, ` (3)`, … */
export function uniqueNames(cases: readonly GeneratedTestCase[]): GeneratedTestCase[] {
  const used = new Set<string>();
  return cases.map((testCase) => {
    let name = testCase.name;
    for (let n = 2; used.has(name.toLowerCase()); n += 1) name = `${testCase.name} (${n})`;
    used.add(name.toLowerCase());
    return name === testCase.name ? testCase : { ...testCase, name };
  });
}

/** The categories and count the options ask for, with names made unique. */
export function selectCases(cases: readonly GeneratedTestCase[], options: GenerateOptions = {}): GeneratedTestCase[] {
  const categories =
    options.categories === undefined || options.categories.length === 0 ? undefined : new Set(options.categories);
  const chosen = cases.filter((testCase) => categories === undefined || categories.has(testCase.category));
  const limited = options.maxCases !== undefined ? chosen.slice(0, Math.max(0, options.maxCases)) : chosen;
  return uniqueNames(limited);
}
