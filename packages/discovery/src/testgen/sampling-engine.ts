import { isSvcError, SvcError } from '@svc/engine';
import type { TestCaseGenerator } from './generator.js';
import { generateWithModel } from './model-engine.js';
import type { ModelPrompt } from './model-prompt.js';

/**
 * Asks the model of the assistant that called the tool (MCP `sampling/createMessage`) and
 * answers the text of its reply.
 */
export type SampleFunction = (request: ModelPrompt) => Promise<string>;

export interface SamplingGeneratorOptions {
  /** Absent when the MCP client does not offer sampling. */
  sample?: SampleFunction | undefined;
}

/**
 * The `sampling` engine: the calling assistant's own model writes the cases.
 * @example
 * const generator = createSamplingTestCaseGenerator({ sample: (prompt) => askClient(prompt) });
 * const cases = await generator.generate(endpoint, { maxCases: 10 });
 */
export function createSamplingTestCaseGenerator(options: SamplingGeneratorOptions = {}): TestCaseGenerator {
  return {
    name: 'sampling',
    async generate(endpoint, generateOptions = {}) {
      const { sample } = options;
      if (sample === undefined) {
        throw new SvcError(
          'SAMPLING_UNAVAILABLE',
          'the MCP client does not offer sampling (sampling/createMessage), so the "sampling" engine cannot ask its model; use the "schema" engine (no model needed) or "openai" (an OpenAI-compatible URL configured on the server)',
        );
      }
      return generateWithModel(
        endpoint,
        generateOptions,
        async (prompt) => {
          try {
            return await sample(prompt);
          } catch (error) {
            if (isSvcError(error)) throw error;
            throw new SvcError(
              'TESTGEN_MODEL_FAILED',
              `the MCP client's sampling request failed: ${error instanceof Error ? error.message : String(error)}`,
              {
                retryable: true,
                cause: error,
              },
            );
          }
        },
        "the client's model",
      );
    },
  };
}
