import { startTestGenerationSchema, TEST_GENERATION_ENGINES } from '@svc/discovery';
import { z } from 'zod';
import { clientSampling } from './client-sampling.js';
import { jobView, jobViewSchema, renderJob } from './job-views.js';
import { guarded, type ToolContext } from './tool-context.js';
import { okResult, toolErrorSchema } from './tool-error.js';

const ENGINE_DESCRIPTION =
  `Which generator writes the cases, one of ${TEST_GENERATION_ENGINES.join(' | ')}: ` +
  '"schema" derives positive, negative, boundary and security cases from the OpenAPI schema alone (deterministic, no model); ' +
  '"sampling" asks the model of the assistant calling this tool (MCP sampling; the client must offer it, and only a local svc-mcp can use it); ' +
  '"openai" asks an OpenAI-compatible chat-completions endpoint configured on the server (SVC_TESTGEN_OPENAI_URL, SVC_TESTGEN_OPENAI_KEY, SVC_TESTGEN_OPENAI_MODEL).';

const inputSchema = z.object({
  endpointId: startTestGenerationSchema.shape.endpointId,
  engine: z.string().describe(ENGINE_DESCRIPTION),
});

const outputSchema = z.object({
  job: jobViewSchema.optional(),
  error: toolErrorSchema.optional(),
});

export function registerGenerateTestSuite(context: ToolContext): void {
  context.server.registerTool(
    'svc_generate_test_suite',
    {
      title: 'Generate a test suite for an endpoint',
      description:
        'Start generating test scenarios for a catalog endpoint (ids from svc_list_endpoints). Answers at once with a job id; ' +
        'poll svc_get_job until it is Completed: its result names the new suite (kind "generated") and its flows, one per case. ' +
        'Run the suite with svc_run_suite (pass baseUrl and credentials in the environment). An unknown engine, an unknown endpoint, ' +
        'or "sampling" from a client without sampling is answered as an error at once. ' +
        ENGINE_DESCRIPTION,
      inputSchema,
      outputSchema,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    },
    guarded(context, 'svc_generate_test_suite', async (args: z.infer<typeof inputSchema>) => {
      const sample = args.engine.trim() === 'sampling' ? clientSampling(context) : undefined;
      const job = await context.api.startTestGeneration(
        { endpointId: args.endpointId, engine: args.engine.trim() },
        sample !== undefined ? { sample } : {},
      );
      const view = jobView(job);
      return okResult({ job: view }, renderJob(view));
    }),
  );
}
