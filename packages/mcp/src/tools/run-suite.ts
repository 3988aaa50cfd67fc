import type { SuiteRunResult } from '@svc/engine';
import { z } from 'zod';
import { oneLine, table } from '@svc/engine/text-table';
import { guarded, type ToolContext } from './tool-context.js';
import { okResult, toolErrorSchema } from './tool-error.js';

const inputSchema = z.object({
  suiteId: z.string().min(1).max(200).describe('The suite id (svc_list_suites lists them)'),
  env: z
    .record(z.string(), z.unknown())
    .optional()
    .describe(
      'The environment every flow of the run reads as {{env.<name>}}, e.g. {"baseUrl":"http://localhost:4010"}. Generated suites read baseUrl and, ' +
        'for secured endpoints, credentials named after the security scheme (bearerAuth → bearerAuthToken, api_key → apiKey). Values whose names say secret are redacted in traces.',
    ),
  failFast: z.boolean().optional().describe('Stop starting flows after the first failure; the rest count as skipped'),
});

const outputSchema = z.object({
  run: z
    .object({
      runId: z.string(),
      suiteId: z.string(),
      suiteName: z.string(),
      status: z.string().describe('passed when no flow failed'),
      total: z.number(),
      passed: z.number(),
      failed: z.number(),
      skipped: z.number(),
      passRate: z.number().describe('passed / total, 0 to 1'),
      durationMs: z.number(),
      latency: z.object({ p50: z.number().nullable(), p95: z.number().nullable() }),
      flows: z.array(
        z.object({
          flowId: z.string(),
          flowName: z.string().nullable(),
          status: z.string(),
          executionId: z.string().nullable(),
          error: z.object({ code: z.string(), message: z.string() }).nullable(),
        }),
      ),
    })
    .optional(),
  error: toolErrorSchema.optional(),
});

function view(result: SuiteRunResult) {
  const { runId, suiteId, suiteName, status, total, passed, failed, skipped, passRate, durationMs, latency } = result;
  return {
    runId, suiteId, suiteName, status, total, passed, failed, skipped, passRate, durationMs, latency,
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
        'Run every flow of a suite and answer its pass/fail KPIs (pass rate, p50/p95 latency) with one result per flow; ' +
        'svc_get_execution reads a failed flow\'s trace by its executionId.',
      inputSchema,
      outputSchema,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    },
    guarded(context, 'svc_run_suite', async (args: z.infer<typeof inputSchema>) => {
      const run = view(
        await context.api.runSuite({
          suiteId: args.suiteId,
          ...(args.env !== undefined ? { env: args.env } : {}),
          ...(args.failFast !== undefined ? { failFast: args.failFast } : {}),
        }),
      );
      const rows = [['FLOW', 'STATUS', 'EXECUTION', 'ERROR']];
      for (const flow of run.flows) rows.push([oneLine(flow.flowName ?? flow.flowId, 60), flow.status, flow.executionId ?? '-', flow.error ? oneLine(`${flow.error.code}: ${flow.error.message}`, 80) : '']);
      const text =
        `Suite ${run.suiteName} ${run.status}: ${run.passed}/${run.total} passed, ${run.failed} failed, ${run.skipped} skipped ` +
        `(pass rate ${Math.round(run.passRate * 100)}%, ${run.durationMs} ms, p50 ${run.latency.p50 ?? '-'} ms, p95 ${run.latency.p95 ?? '-'} ms)\n${table(rows)}`;
      return okResult({ run }, text);
    }),
  );
}
