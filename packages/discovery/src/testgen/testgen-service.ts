import { SvcError, type JobRecord, type JobService, type FlowService, type SuiteService } from '@svc/engine';
import { z } from 'zod';
import type { CatalogService } from '../catalog/catalog-service.js';
import { resolveTestCaseGenerator, TEST_GENERATION_ENGINES, type TestGenerationDependencies } from './engines.js';
import { TEST_CATEGORIES, type TestCategory } from './test-case.js';
import { testCaseToFlow } from './test-case-to-flow.js';

/** The job kind of a test generation. */
export const TESTGEN_JOB_KIND = 'testgen';

/** What a client sends to start a test generation (REST body and MCP tool input). */
export const startTestGenerationSchema = z
  .object({
    endpointId: z
      .string()
      .trim()
      .min(1)
      .max(300)
      .describe('The catalog endpoint to test (svc_list_endpoints lists the ids)'),
    engine: z
      .string()
      .trim()
      .min(1)
      .max(40)
      .describe(`One of ${TEST_GENERATION_ENGINES.join(', ')}`),
  })
  .strict();
export type StartTestGenerationRequest = z.infer<typeof startTestGenerationSchema>;

/** What a Completed test generation job answers as its result. */
export interface TestGenerationResult {
  suiteId: string;
  suiteName: string;
  endpointId: string;
  engine: string;
  /** The saved flows, one per case, in the suite's order. */
  flowIds: string[];
  /** How many cases of each category were saved. */
  cases: Record<TestCategory, number>;
}

export interface TestGenerationServiceDependencies {
  catalog: CatalogService;
  jobs: JobService;
  flows: FlowService;
  suites: SuiteService;
}

export interface TestGenerationService {
  /**
   * Checks the engine and the endpoint at once (`UNKNOWN_ENGINE` listing the allowed names,
   * `ENDPOINT_NOT_FOUND`, `SAMPLING_UNAVAILABLE` for `sampling` without a sample function),
   * then starts a `testgen` job and answers its record: the cases are generated, saved as flows
   * and gathered in a suite of kind `generated` in the background.
   */
  start(
    tenantId: string,
    request: StartTestGenerationRequest,
    engines?: TestGenerationDependencies,
  ): Promise<JobRecord>;
  /** The job, when it is a test generation of the tenant; `JOB_NOT_FOUND` otherwise. */
  get(tenantId: string, jobId: string): Promise<JobRecord>;
}

function samplingUnavailable(): SvcError {
  return new SvcError(
    'SAMPLING_UNAVAILABLE',
    'the "sampling" engine asks the model of the MCP client that called the tool, and this client does not offer sampling (or the call came over REST); use "schema" (no model needed) or "openai" (an OpenAI-compatible URL configured on the server)',
  );
}

/**
 * Test generation as a durable job: an endpoint's cases become flows and one generated suite.
 * @example
 * const testgen = createTestGenerationService({ catalog, jobs: engine.jobs, flows: engine.flows, suites: engine.suites });
 * const job = await testgen.start('acme', { endpointId: 'orders:createOrder', engine: 'schema' });
 * const done = await engine.jobs.wait('acme', job.id);
 * (done.result as TestGenerationResult).suiteId;
 */
export function createTestGenerationService(deps: TestGenerationServiceDependencies): TestGenerationService {
  const { catalog, jobs, flows, suites } = deps;
  return {
    async start(tenantId, request, engines = {}) {
      // Fails fast: a wrong name or a missing endpoint is an answer, not a job that fails later.
      const generator = resolveTestCaseGenerator(request.engine, engines);
      if (request.engine === 'sampling' && engines.sample === undefined) throw samplingUnavailable();
      const endpoint = await catalog.getEndpoint(tenantId, request.endpointId);
      const input = { endpointId: endpoint.id, engine: request.engine };
      return jobs.start<TestGenerationResult>(tenantId, { kind: TESTGEN_JOB_KIND, input }, async (context) => {
        await context.progress(
          `generating ${request.engine} test cases for ${endpoint.method.toUpperCase()} ${endpoint.path}`,
        );
        const cases = await generator.generate(endpoint, { signal: context.signal });
        if (cases.length === 0) {
          throw new SvcError(
            'TESTGEN_NO_CASES',
            `the ${request.engine} engine produced no test case for endpoint "${endpoint.id}"`,
          );
        }
        const flowIds: string[] = [];
        const counts = Object.fromEntries(TEST_CATEGORIES.map((category) => [category, 0])) as Record<
          TestCategory,
          number
        >;
        for (const [index, testCase] of cases.entries()) {
          context.signal.throwIfAborted();
          await context.progress(`saving test ${index + 1} of ${cases.length}`);
          // Each generation is a new suite of its own flows: a second run for an endpoint repeats its case names on purpose.
          const flow = await flows.create(tenantId, testCaseToFlow(testCase, endpoint), { allowDuplicateName: true });
          flowIds.push(flow.id);
          counts[testCase.category] += 1;
        }
        // Suite names are unique in a tenant: the job id keeps each generation apart.
        const suiteName = `${endpoint.operationId ?? endpoint.id} · ${request.engine} tests · ${context.jobId}`.slice(
          0,
          200,
        );
        const suite = await suites.create(tenantId, {
          name: suiteName,
          description: `Tests generated by the ${request.engine} engine for ${endpoint.method.toUpperCase()} ${endpoint.path}.`,
          flowIds,
          kind: 'generated',
          source: { endpointId: endpoint.id, engine: request.engine, jobId: context.jobId },
        });
        return {
          suiteId: suite.id,
          suiteName: suite.name,
          endpointId: endpoint.id,
          engine: request.engine,
          flowIds,
          cases: counts,
        };
      });
    },
    async get(tenantId, jobId) {
      const job = await jobs.get(tenantId, jobId);
      if (job.kind !== TESTGEN_JOB_KIND) throw new SvcError('JOB_NOT_FOUND', `job "${jobId}" not found`);
      return job;
    },
  };
}
