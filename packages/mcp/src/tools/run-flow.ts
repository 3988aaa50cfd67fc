import { TERMINAL_STATUSES } from '@svc/engine';
import { z } from 'zod';
import { DEFAULT_RUN_WAIT_MS } from '../api/svc-api.js';
import { renderExecution } from '../render/render-execution.js';
import { executionResultSchema, toExecutionResult, type ExecutionResult } from './execution-views.js';
import { flowIdSchema } from './get-flow.js';
import { guarded, type ToolContext } from './tool-context.js';
import { okResult, toolErrorSchema } from './tool-error.js';

const inputSchema = z.object({
  flowId: flowIdSchema,
  env: z
    .union([
      z.record(z.string(), z.unknown()).describe('Variables for this run, e.g. {"baseUrl":"http://localhost:4010","token":"…"}'),
      z.string().min(1).max(128).describe('Name of a stored environment (not supported yet)'),
    ])
    .optional()
    .describe(
      'The run\'s environment, read in the flow as {{env.<name>}}: an object of variables, e.g. {"baseUrl":"http://localhost:4010"}. ' +
        'Values whose names say secret (token, secret, password, apiKey, auth…) are redacted in the trace.',
    ),
  inputs: z
    .record(z.string(), z.unknown())
    .optional()
    .describe(
      'The flow\'s input parameters, read as {{flowVars.<name>}} over the flow\'s variable defaults, e.g. {"name":"Focus"}. ' +
        'A required input (see the flow\'s inputs in svc_get_flow) with no value and no default fails the run with INVALID_INPUTS.',
    ),
});

export const executionOutputSchema = z.object({
  execution: executionResultSchema.optional(),
  hint: z.string().optional().describe('What to do next when the execution has not ended'),
  error: toolErrorSchema.optional(),
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
        `Run a saved flow and wait for its end (up to ${seconds} s). Answers the execution: executionId, status (Completed, Failed, TimedOut, Cancelled; ` +
        'Running or Waiting when it outlasts the wait), durationMs, nodesExecuted, nodesSkipped, stepsExecuted, and the trace: per step its status, ' +
        'HTTP status code, latency, request, response body and error. A run whose step fails is still a normal answer with status Failed and the failing ' +
        'step\'s error. When the run outlasts the wait it goes on; read it later with svc_get_execution. An unknown flowId answers FLOW_NOT_FOUND.',
      inputSchema,
      outputSchema: executionOutputSchema,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    },
    guarded(context, 'svc_run_flow', async (args: z.infer<typeof inputSchema>) => {
      const execution = await context.api.runFlow({ flowId: args.flowId, env: args.env, inputs: args.inputs, waitMs: runWaitMs });
      const result = toExecutionResult(execution);
      return executionToolResult(
        result,
        `The run is still ${result.status} after the ${seconds} s wait and goes on; call svc_get_execution with executionId "${result.executionId}" to read its end.`,
      );
    }),
  );
}
