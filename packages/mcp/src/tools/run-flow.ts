import { TERMINAL_STATUSES } from '@svc/engine';
import { z } from 'zod';
import { DEFAULT_RUN_WAIT_MS } from '../api/svc-api.js';
import { renderExecution } from '../render/render-execution.js';
import { executionOutputViewSchema, toExecutionResult, type ExecutionResult } from './execution-views.js';
import { followExecution } from './follow-execution.js';
import { flowIdSchema } from './get-flow.js';
import { progressOf } from './progress.js';
import { assertRunEnvGiven } from './run-checks.js';
import { strictInput } from './strict-input.js';
import { guarded, type ToolContext } from './tool-context.js';
import { okResult, toolOutput } from './tool-error.js';

export const envSchema = z
  .union([z.string().min(1).max(64), z.record(z.string(), z.unknown())])
  .describe(
    'Read as {{env.<name>}}: a stored environment\'s name, or variables, e.g. {"baseUrl":"http://localhost:4010"}',
  );

const inputSchema = strictInput({
  flowId: flowIdSchema,
  env: envSchema.optional(),
  inputs: z
    .record(z.string(), z.unknown())
    .optional()
    .describe("Read as {{flowVars.<name>}}; required ones (the flow's inputs) must be given"),
});

export const executionOutputSchema = toolOutput({
  execution: executionOutputViewSchema,
  hint: z.string().describe('What to do next when the execution has not ended'),
});

/** The result of a run or a read: a run that has not ended yet says how to follow it. */
export function executionToolResult(result: ExecutionResult, stillGoing: string) {
  const hint = TERMINAL_STATUSES.has(result.status) ? undefined : stillGoing;
  const text = renderExecution(result) + (hint ? `\n\n${hint}` : '');
  return okResult(hint ? { execution: result, hint } : { execution: result }, text);
}

export function registerRunFlow(context: ToolContext, runWaitMs = DEFAULT_RUN_WAIT_MS): void {
  const seconds = Math.round(runWaitMs / 1000);
  context.server.registerTool(
    'svc_run_flow',
    {
      title: 'Run a flow',
      description:
        `Run a saved flow; answers within ${seconds} s with the execution (id, status, per-step trace with status codes, assertion results, response bodies). ` +
        'A failing step is a normal answer with status Failed. A run still going at the bound answers Running with its executionId: ' +
        'read it later with svc_get_execution. Refused before starting when env lacks a key the flow reads (MISSING_ENV). ' +
        'Reports progress per finished step; cancelling the call cancels the execution.',
      inputSchema,
      outputSchema: executionOutputSchema,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    },
    guarded(context, 'svc_run_flow', async (args: z.infer<typeof inputSchema>, extra) => {
      const flow = await context.api.resolveFlow(args.flowId);
      await assertRunEnvGiven(context.api, [flow], args.env);
      const started = await context.api.startRun({
        flowId: flow.id,
        ...(args.env ? { env: args.env } : {}),
        ...(args.inputs ? { inputs: args.inputs } : {}),
      });
      const execution = await followExecution(context.api, started, {
        waitMs: runWaitMs,
        signal: extra.signal,
        progress: progressOf(extra),
      });
      const result = toExecutionResult(execution);
      return executionToolResult(
        result,
        `The run is still ${result.status} after the ${seconds} s bound and goes on; call svc_get_execution with executionId "${result.executionId}" to read its end.`,
      );
    }),
  );
}
