import type { SampleFunction } from '@svc/discovery';
import { startTestGenerationSchema, TEST_GENERATION_ENGINES } from '@svc/discovery';
import { z } from 'zod';
import { jobView, jobViewSchema, renderJob } from './job-views.js';
import { guarded, type ToolContext } from './tool-context.js';
import { okResult, toolErrorSchema } from './tool-error.js';

const ENGINE_DESCRIPTION =
  `Which generator writes the cases, one of ${TEST_GENERATION_ENGINES.join(' | ')}: ` +
  '"schema" derives positive, negative, boundary and security cases from the OpenAPI schema alone (deterministic, no model); ' +
  '"sampling" asks the model of the assistant calling this tool (MCP sampling; the client must offer it, and only a local svc-mcp can use it); ' +
  '"openai" asks an OpenAI-compatible chat-completions endpoint configured on the server (SVC_OPENAI_* settings).';

const inputSchema = z.object({
  endpointId: startTestGenerationSchema.shape.endpointId,
  engine: z.string().describe(ENGINE_DESCRIPTION),
});

const outputSchema = z.object({
  job: jobViewSchema.optional(),
  error: toolErrorSchema.optional(),
});

/**
 * The calling client's model as a sample function, when the client declared sampling. The
 * function is built per call: the client that asks is the client whose model answers.
 */
function clientSampling(context: ToolContext): SampleFunction | undefined {
  const lowLevel = context.server.server;
  if (lowLevel.getClientCapabilities()?.sampling === undefined) return undefined;
  return async (prompt) => {
    const reply = await lowLevel.createMessage(
      {
        systemPrompt: prompt.systemPrompt,
        messages: prompt.messages.map((message) => ({ role: message.role, content: { type: 'text' as const, text: message.content } })),
        maxTokens: prompt.maxTokens,
        includeContext: 'none',
      },
      // A model may take a while to write twenty cases.
      { timeout: 5 * 60_000 },
    );
    const content = reply.content;
    const parts = Array.isArray(content) ? content : [content];
    return parts.map((part) => (part.type === 'text' ? part.text : '')).join('');
  };
}

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
