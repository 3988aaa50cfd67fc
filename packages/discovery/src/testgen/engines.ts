import { SvcError } from '@svc/engine';
import type { Dispatcher } from 'undici';
import type { TestCaseGenerator } from './generator.js';
import type { OpenAiTestGenConfig } from './openai-config.js';
import { createOpenAiTestCaseGenerator } from './openai-engine.js';
import { createSamplingTestCaseGenerator, type SampleFunction } from './sampling-engine.js';
import { createSchemaTestCaseGenerator } from './schema-engine.js';

/** The test generation engines, by the name a tool or route takes. */
export const TEST_GENERATION_ENGINES = ['schema', 'sampling', 'openai'] as const;
export type TestGenerationEngine = (typeof TEST_GENERATION_ENGINES)[number];

/** What the engines may need: each takes only its own part. */
export interface TestGenerationDependencies {
  /** For `sampling`: the MCP client's model, when the client offers sampling. */
  sample?: SampleFunction | undefined;
  /** For `openai`: usually `openAiConfigOf(loadConfig(process.env))`. */
  openai?: OpenAiTestGenConfig | undefined;
  dispatcher?: Dispatcher;
}

export function isTestGenerationEngine(name: string): name is TestGenerationEngine {
  return (TEST_GENERATION_ENGINES as readonly string[]).includes(name);
}

/**
 * The generator an engine name stands for. An engine that cannot run (no sampling, no
 * configuration) is still answered: it says why when asked to generate.
 * @throws SvcError `UNKNOWN_ENGINE` (400) for a name that is not an engine.
 * @example resolveTestCaseGenerator('schema').generate(endpoint)
 */
export function resolveTestCaseGenerator(
  name: string,
  dependencies: TestGenerationDependencies = {},
): TestCaseGenerator {
  if (!isTestGenerationEngine(name)) {
    throw new SvcError(
      'UNKNOWN_ENGINE',
      `unknown test generation engine "${name}"; allowed: ${TEST_GENERATION_ENGINES.join(', ')}`,
      {
        details: { allowed: [...TEST_GENERATION_ENGINES] },
      },
    );
  }
  switch (name) {
    case 'schema':
      return createSchemaTestCaseGenerator();
    case 'sampling':
      return createSamplingTestCaseGenerator({ sample: dependencies.sample });
    case 'openai':
      return createOpenAiTestCaseGenerator({
        config: dependencies.openai,
        ...(dependencies.dispatcher !== undefined ? { dispatcher: dependencies.dispatcher } : {}),
      });
  }
}
