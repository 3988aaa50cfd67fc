import { startTestGenerationSchema, TEST_GENERATION_ENGINES } from '@svc/discovery';
import { z } from 'zod';
import { clientSampling } from './client-sampling.js';
import { jobOutputViewSchema, jobView, renderJob } from './job-views.js';
import { guarded, type ToolContext } from './tool-context.js';
import { strictInput } from './strict-input.js';
import { okResult, toolOutput } from './tool-error.js';

const ENGINE_DESCRIPTION =
  'schema: cases from the OpenAPI schema alone (deterministic); sampling: your model, through MCP sampling (local svc-mcp only); ' +
  'openai: an OpenAI-compatible endpoint set on the server (SVC_TESTGEN_OPENAI_URL/KEY/MODEL)';

const inputSchema = strictInput({
  endpointId: startTestGenerationSchema.shape.endpointId,
  engine: z.enum(TEST_GENERATION_ENGINES).describe(ENGINE_DESCRIPTION),
});

const outputSchema = toolOutput({ job: jobOutputViewSchema });

export function registerGenerateTestSuite(context: ToolContext): void {
  context.server.registerTool(
    'svc_generate_test_suite',
    {
      title: 'Generate a test suite for an endpoint',
      description:
        'Start generating test cases for a catalog endpoint (id from svc_list_endpoints) as a job; poll svc_get_job until Completed: ' +
        'its result names the new suite, to run with svc_run_suite (env with baseUrl and credentials).',
      inputSchema,
      outputSchema,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    },
    guarded(context, 'svc_generate_test_suite', async (args: z.infer<typeof inputSchema>) => {
      const sample = args.engine === 'sampling' ? clientSampling(context) : undefined;
      const job = await context.api.startTestGeneration(
        { endpointId: args.endpointId, engine: args.engine },
        sample !== undefined ? { sample } : {},
      );
      const view = jobView(job);
      return okResult({ job: view }, renderJob(view));
    }),
  );
}
