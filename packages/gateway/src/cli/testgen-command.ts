import {
  createCatalogService,
  createTestGenerationService,
  describeRunNeeds,
  openAiConfigOf,
  startTestGenerationSchema,
  TEST_GENERATION_ENGINES,
  type TestGenerationResult,
} from '@svc/discovery';
import { isSvcError } from '@svc/engine';
import type { Command } from 'commander';
import { publicJob } from '../http/index.js';
import { LOCAL_TENANT, openLocalEngine } from './local-engine.js';
import { renderJob } from './render-job.js';

export interface TestgenOptions {
  engine: string;
  wait: boolean;
  json: boolean;
}

/** Codes that mean the command was asked something it cannot do as asked (exit 2). */
const BAD_INPUT = new Set(['VALIDATION_ERROR', 'UNKNOWN_ENGINE', 'SAMPLING_UNAVAILABLE']);

/** Long enough for a model-backed engine; the job's own timeouts end it sooner when it hangs. */
const WAIT_FOREVER_MS = 2_147_483_647;

function fail(code: string, message: string): number {
  process.stderr.write(`svc: ${code}: ${message}\n`);
  return BAD_INPUT.has(code) ? 2 : 1;
}

/**
 * `svc testgen <endpointId> --engine <schema|openai> [--wait] [--json]` on the embedded store
 * (tenant `default`): starts a test generation job and prints its id and status; with `--wait`
 * prints the job once it ended (the generated suite, its flow count and cases per category).
 *
 * The job's work runs in this process, so the command does not exit before the job ends, even
 * without `--wait`: a job left behind by an exited process would only be marked interrupted.
 * Exit codes: 0 started (and, with `--wait`, Completed); 1 the endpoint is unknown or the job
 * Failed; 2 bad arguments, an unknown engine, or `sampling` (only an MCP client offers it).
 */
export async function testgenCommand(endpointId: string, options: TestgenOptions): Promise<number> {
  if (options.engine === 'sampling') {
    return fail(
      'SAMPLING_UNAVAILABLE',
      'the "sampling" engine asks the model of the MCP client that called svc_generate_test_suite (svc-mcp); the command line has no client to ask. Use --engine schema (no model) or --engine openai (SVC_TESTGEN_OPENAI_URL, SVC_TESTGEN_OPENAI_MODEL)',
    );
  }
  const parsed = startTestGenerationSchema.safeParse({ endpointId, engine: options.engine });
  if (!parsed.success)
    return fail(
      'VALIDATION_ERROR',
      parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; '),
    );

  const { engine, store, config, close } = await openLocalEngine();
  try {
    const catalog = createCatalogService({ repository: store.catalog });
    const testgen = createTestGenerationService({
      catalog,
      jobs: engine.jobs,
      flows: engine.flows,
      suites: engine.suites,
    });
    let started;
    try {
      started = await testgen.start(LOCAL_TENANT, parsed.data, { openai: openAiConfigOf(config) });
    } catch (error) {
      if (!isSvcError(error)) throw error;
      return fail(
        error.code,
        error.code === 'UNKNOWN_ENGINE'
          ? `${error.message} (sampling needs an MCP client: here, schema or openai)`
          : error.message,
      );
    }
    if (!options.wait) {
      process.stdout.write(
        options.json
          ? `${JSON.stringify(publicJob(started))}\n`
          : `Started job ${started.id}: ${started.status}\nsvc jobs get ${started.id} reads it.\n`,
      );
      // Its work lives in this process: keep it until the job ends, quietly.
      await engine.jobs.wait(LOCAL_TENANT, started.id, { timeoutMs: WAIT_FOREVER_MS });
      return 0;
    }
    if (!options.json) process.stderr.write(`svc: job ${started.id} started; waiting for it to end\n`);
    const job = publicJob(await engine.jobs.wait(LOCAL_TENANT, started.id, { timeoutMs: WAIT_FOREVER_MS }));
    if (options.json) {
      process.stdout.write(`${JSON.stringify(job)}\n`);
      return job.status === 'Completed' ? 0 : 1;
    }
    const lines = [renderJob(job).trimEnd()];
    if (job.status === 'Completed') {
      const result = job.result as TestGenerationResult;
      const env = new Map<string, boolean>();
      for (const flowId of result.flowIds) {
        for (const variable of describeRunNeeds(await engine.flows.get(LOCAL_TENANT, flowId)).env)
          env.set(variable.name, (env.get(variable.name) ?? false) || variable.required);
      }
      const settings = [...env.keys()].map((name) => `--env ${name}=…`).join(' ');
      lines.push(`Run it: svc run suite ${result.suiteId}${settings === '' ? '' : ` ${settings}`}`);
    }
    process.stdout.write(`${lines.join('\n')}\n`);
    return job.status === 'Completed' ? 0 : 1;
  } finally {
    await close();
  }
}

export function registerTestgenCommand(program: Command): void {
  program
    .command('testgen')
    .description(
      'generate tests for a catalog endpoint of the embedded store (tenant "default"): a job whose result is a generated suite of flows',
    )
    .argument('<endpointId>', 'the catalog endpoint (svc catalog list shows the ids)')
    .requiredOption(
      '--engine <engine>',
      `schema (from the spec, no model) or openai (an OpenAI-compatible service, SVC_TESTGEN_OPENAI_*); one of ${TEST_GENERATION_ENGINES.join(', ')}`,
    )
    .option('--wait', 'print the job once it ended: the suite, its flow count and cases per category', false)
    .option('--json', 'print exactly one JSON object: the job (as it started, or as it ended under --wait)', false)
    .action(async (endpointId: string, options: TestgenOptions) => {
      process.exitCode = await testgenCommand(endpointId, options);
    });
}
