import { isSvcError, type StoredFlow, type SuiteRunResult } from '@svc/engine';
import { z } from 'zod';
import { oneLine, table } from '@svc/engine/text-table';
import { progressOf } from './progress.js';
import { envSchema } from './run-flow.js';
import { assertRunEnvGiven } from './run-checks.js';
import { strictInput } from './strict-input.js';
import { guarded, type ToolContext } from './tool-context.js';
import { okResult, toolOutput } from './tool-error.js';

const inputSchema = strictInput({
  suiteId: z.string().min(1).max(200).describe('From svc_list_suites'),
  env: envSchema.optional(),
  failFast: z.boolean().optional().describe('Stop starting flows after the first failure; the rest count as skipped'),
});

const outputSchema = toolOutput({
  run: z.looseObject({
    runId: z.string(),
    status: z.string(),
    total: z.number(),
    passed: z.number(),
    failed: z.number(),
    skipped: z.number(),
    passRate: z.number(),
    flows: z.array(z.looseObject({ flowId: z.string(), status: z.string(), executionId: z.string().nullable() })),
  }),
});

function view(result: SuiteRunResult) {
  const { runId, suiteId, suiteName, status, total, passed, failed, skipped, passRate, durationMs, latency } = result;
  return {
    runId,
    suiteId,
    suiteName,
    status,
    total,
    passed,
    failed,
    skipped,
    passRate,
    durationMs,
    latency,
    flows: result.flows.map((flow) => ({
      flowId: flow.flowId,
      flowName: flow.flowName,
      status: flow.status,
      executionId: flow.executionId,
      error: flow.error === null ? null : { code: flow.error.code, message: flow.error.message },
    })),
  };
}

export function registerRunSuite(context: ToolContext): void {
  context.server.registerTool(
    'svc_run_suite',
    {
      title: 'Run a suite',
      description:
        'Run every flow of a suite; answers pass/fail KPIs (pass rate, p50/p95 latency) and per flow its status and executionId (svc_get_execution reads it). ' +
        'Refused before starting when env lacks a key the flows read (MISSING_ENV, naming them). Reports progress per finished flow; cancelling the call cancels the run.',
      inputSchema,
      outputSchema,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    },
    guarded(context, 'svc_run_suite', async (args: z.infer<typeof inputSchema>, extra) => {
      const suite = await context.api.getSuite(args.suiteId);
      const flows = await Promise.all(
        suite.flowIds.map((flowId) =>
          context.api
            .getFlow(flowId)
            .catch((error: unknown) =>
              isSvcError(error) && error.code === 'FLOW_NOT_FOUND' ? undefined : Promise.reject(error),
            ),
        ),
      );
      await assertRunEnvGiven(
        context.api,
        flows.filter((flow): flow is StoredFlow => flow !== undefined),
        args.env,
      );
      const progress = progressOf(extra);
      let ended = 0;
      const run = view(
        await context.api.runSuite(
          {
            suiteId: suite.id,
            ...(args.env !== undefined ? { env: args.env } : {}),
            ...(args.failFast !== undefined ? { failFast: args.failFast } : {}),
          },
          {
            signal: extra.signal,
            onFlowResult: (result) => {
              ended += 1;
              progress?.(
                ended,
                `${result.flowName ?? result.flowId} ${result.status}${result.error ? `: ${result.error.code}` : ''}`,
                suite.flowIds.length,
              );
            },
          },
        ),
      );
      const rows = [['FLOW', 'STATUS', 'EXECUTION', 'ERROR']];
      for (const flow of run.flows)
        rows.push([
          oneLine(flow.flowName ?? flow.flowId, 60),
          flow.status,
          flow.executionId ?? '-',
          flow.error ? oneLine(`${flow.error.code}: ${flow.error.message}`, 80) : '',
        ]);
      const text =
        `Suite ${run.suiteName} ${run.status}: ${run.passed}/${run.total} passed, ${run.failed} failed, ${run.skipped} skipped ` +
        `(pass rate ${Math.round(run.passRate * 100)}%, ${run.durationMs} ms, p50 ${run.latency.p50 ?? '-'} ms, p95 ${run.latency.p95 ?? '-'} ms)\n${table(rows)}`;
      return okResult({ run }, text);
    }),
  );
}
