export {
  TEST_CATEGORIES,
  generatedTestCaseSchema,
  expectedStatusSchema,
  testAssertionSchema,
  testRequestSchema,
  type TestCategory,
  type GeneratedTestCase,
  type GeneratedTestCaseInput,
  type ExpectedStatus,
  type TestAssertion,
  type TestRequest,
} from './test-case.js';
export type { TestCaseGenerator, GenerateOptions, RejectedTestCase } from './generator.js';
export { generateSchemaTestCases, createSchemaTestCaseGenerator } from './schema-engine.js';
export {
  createSamplingTestCaseGenerator,
  type SampleFunction,
  type SamplingGeneratorOptions,
} from './sampling-engine.js';
export { createOpenAiTestCaseGenerator, type OpenAiGeneratorOptions } from './openai-engine.js';
export { openAiConfigOf, OPENAI_ENV, type OpenAiSettings, type OpenAiTestGenConfig } from './openai-config.js';
export {
  TEST_GENERATION_ENGINES,
  resolveTestCaseGenerator,
  isTestGenerationEngine,
  type TestGenerationEngine,
  type TestGenerationDependencies,
} from './engines.js';
export { buildTestGenerationPrompt, type ModelPrompt } from './model-prompt.js';
export { parseModelTestCases, type ParsedModelCases } from './parse-model-output.js';
export { testCaseToFlow, flowNameFor, type TestCaseToFlowOptions } from './test-case-to-flow.js';
export { statusMatches, describeStatus } from './expected-status.js';
export { credentialsFor, requiresCredentials, type CredentialVariable, type Credentials } from './credentials.js';
export {
  createTestGenerationService,
  startTestGenerationSchema,
  TESTGEN_JOB_KIND,
  type TestGenerationService,
  type TestGenerationServiceDependencies,
  type TestGenerationResult,
  type StartTestGenerationRequest,
} from './testgen-service.js';
