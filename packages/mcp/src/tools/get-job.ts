import { z } from 'zod';
import { jobOutputViewSchema, jobView, renderJob } from './job-views.js';
import { strictInput } from './strict-input.js';
import { guarded, type ToolContext } from './tool-context.js';
import { okResult, toolOutput } from './tool-error.js';

const inputSchema = strictInput({
  jobId: z.string().min(1).max(200).describe('The id svc_generate_test_suite answered'),
});

const outputSchema = toolOutput({ job: jobOutputViewSchema });

export function registerGetJob(context: ToolContext): void {
  context.server.registerTool(
    'svc_get_job',
    {
      title: 'Read a background job',
      description:
        'Read a background job (a test generation started with svc_generate_test_suite): its status (Queued, Running, Completed, Failed), ' +
        'its latest progress, and once it ended its result (the generated suite id, flow ids and case counts) or its error.',
      inputSchema,
      outputSchema,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    guarded(context, 'svc_get_job', async (args: z.infer<typeof inputSchema>) => {
      const view = jobView(await context.api.getJob(args.jobId));
      return okResult({ job: view }, renderJob(view));
    }),
  );
}
