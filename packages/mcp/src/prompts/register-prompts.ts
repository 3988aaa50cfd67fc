import { isSvcError } from '@svc/engine';
import { z } from 'zod';
import { renderExecution } from '../render/render-execution.js';
import { NODE_TYPES_URI } from '../resources/register-resources.js';
import { toExecutionResult } from '../tools/execution-views.js';
import type { ToolContext } from '../tools/tool-context.js';

const user = (text: string) => ({ messages: [{ role: 'user' as const, content: { type: 'text' as const, text } }] });

/** Two walks through the tools an assistant is asked for most: build a flow from an API, and fix a failed run. */
export function registerPrompts(context: ToolContext): void {
  context.server.registerPrompt(
    'create-flow-from-openapi',
    {
      title: 'Create a flow from an OpenAPI document',
      description: 'Import an API, plan a requirement against it, save the flow, run it and fix it until it passes.',
      argsSchema: {
        requirement: z
          .string()
          .describe(
            'What the flow should do, in plain words, e.g. "create a playlist named \\"Focus\\" and add a track"',
          ),
        openapi: z
          .string()
          .optional()
          .describe('A local OpenAPI file (local mode) to import first; omit when the catalog has it'),
        baseUrl: z.string().optional().describe('Where the API runs, passed as env.baseUrl'),
      },
    },
    ({ requirement, openapi, baseUrl }) =>
      user(
        [
          `Build and run an svc flow for this requirement: ${requirement}`,
          '',
          openapi
            ? `1. Import the API: svc_import_openapi with path "${openapi}" (or its text as document). Note the spec id it answers.`
            : '1. Check the catalog: svc_list_endpoints. If the API is missing, import it with svc_import_openapi.',
          '2. Plan: svc_plan_roadmap with the requirement (and specId to stay in one API). Read the steps, bindings and inputs; if a step is wrong, edit the roadmap JSON.',
          '3. Save: svc_scaffold_flow with roadmap (the JSON from step 2, edited or not). It answers the flow id and the env keys it reads.',
          `4. Run: svc_run_flow with that flowId and env ${baseUrl ? `{"baseUrl":"${baseUrl}", …}` : '{"baseUrl": "<where the API runs>", …credentials it names}'}.`,
          '5. If it fails: read the failing step (status code, response body, assertion results) in the answer or with svc_get_execution; ' +
            'fix the flow with svc_update_flow (a merge patch or the whole document, with expectedVersion from svc_get_flow), then run again.',
          `Writing nodes by hand? Read ${NODE_TYPES_URI} first, and check a document with svc_validate_flow before saving.`,
        ].join('\n'),
      ),
  );

  context.server.registerPrompt(
    'debug-failed-execution',
    {
      title: 'Debug a failed execution',
      description: 'Find why an execution failed, fix its flow, and run it again.',
      argsSchema: { executionId: z.string().describe('The execution that failed') },
    },
    async ({ executionId }) => {
      let trace: string;
      try {
        trace = renderExecution(toExecutionResult(await context.api.getExecution(executionId)));
      } catch (error) {
        trace = `(svc_get_execution answered ${isSvcError(error) ? `${error.code}: ${error.message}` : String(error)})`;
      }
      return user(
        [
          `Execution ${executionId} of an svc flow did not complete. Its trace:`,
          '',
          trace,
          '',
          'Find the cause and fix it:',
          '1. The first Failed step is the cause; later ones were skipped. Read its error code, request URL, response status and body, and assertion results ' +
            '(svc_get_execution has them in full).',
          "2. Read the flow with svc_get_flow: the failing node's config, and the templates that fed its request.",
          '3. Decide: a wrong URL, body or binding (fix the flow), a wrong expectation (fix the assertion), missing env (run again with it), or the API itself.',
          '4. Fix the flow with svc_update_flow: a merge patch or the whole document, with the version svc_get_flow answered as expectedVersion.',
          '5. Run it again with svc_run_flow and the same env; svc_list_executions shows the runs side by side.',
        ].join('\n'),
      );
    },
  );
}
