import { isSvcError, SvcError, type Engine, type SuiteRecord } from '@svc/engine';
import { LOCAL_TENANT, openLocalEngine } from './local-engine.js';
import { inFlowFiles, suiteDefinitionOf, type SuiteRunPlan } from './suite-run-plan.js';
import { buildSuiteReport, type SuiteReport } from './suite-report/suite-report.js';

const RAN_ON = 'the embedded store';

/** The most alerts one `svc run suite` sends itself before it exits. */
const CLI_ALERT_LIMIT = 32;

async function savedSuite(engine: Engine, reference: string): Promise<SuiteRecord> {
  try {
    return await engine.suites.get(LOCAL_TENANT, reference);
  } catch (error) {
    if (!isSvcError(error) || error.code !== 'SUITE_NOT_FOUND') throw error;
  }
  const named = await engine.suites.findByName(LOCAL_TENANT, reference);
  if (named === undefined)
    throw new SvcError('SUITE_NOT_FOUND', `no suite with the id or name "${reference}" (a suite file's path runs one)`);
  return named;
}

/**
 * Runs a suite on the embedded store (tenant `default`). A suite file's flows are saved by name
 * (a new version only when one changed) and the suite with them, as `svc run flow` saves a flow
 * file, so a pipeline needs no setup before it. Throws `SvcError` for what cannot run.
 */
export async function runSuiteLocal(plan: SuiteRunPlan): Promise<SuiteReport> {
  const { engine, close } = await openLocalEngine();
  try {
    let suite: SuiteRecord;
    let files: string[] | undefined;
    if (plan.source.kind === 'file') {
      const { loaded } = plan.source;
      // Each document validated once, and none saved unless all are valid.
      const saved = await engine.flows
        .upsertAll(
          LOCAL_TENANT,
          loaded.flows.map((flow) => flow.document),
        )
        .catch((error: unknown) => {
          throw inFlowFiles(error, loaded);
        });
      suite = (
        await engine.suites.upsert(
          LOCAL_TENANT,
          suiteDefinitionOf(
            loaded,
            saved.map((flow) => flow.id),
          ),
        )
      ).suite;
      files = loaded.flows.map((flow) => flow.file);
    } else {
      suite = await savedSuite(engine, plan.source.reference);
    }
    const runEnv = await engine.environments.resolveRun(LOCAL_TENANT, {
      env: plan.env,
      ...(plan.environment === undefined ? {} : { environment: plan.environment }),
    });
    plan.progress.started({ name: suite.name, total: suite.flowIds.length, ranOn: RAN_ON });
    const run = await engine.suites.run(LOCAL_TENANT, suite.id, {
      ...runEnv,
      failFast: plan.failFast,
      ...(plan.concurrency === undefined ? {} : { concurrency: plan.concurrency }),
      trigger: { type: 'cli', ...(plan.source.kind === 'file' ? { file: plan.source.loaded.file } : {}) },
      onFlowResult: (result) => plan.progress.flowEnded(result),
    });
    plan.progress.finished({ skipped: run.skipped });
    const report = await buildSuiteReport(run, {
      ranOn: RAN_ON,
      ...(plan.source.kind === 'file' ? { suiteFile: plan.source.loaded.file } : {}),
      ...(files === undefined ? {} : { files }),
      readExecution: (executionId) => engine.getExecution(LOCAL_TENANT, executionId),
    });
    // A health-check suite's alerts are queued in the store; this process sends them once before
    // it exits (a bounded pass), and `svc serve` retries what did not go out.
    await engine.health
      .deliverDue({ limit: CLI_ALERT_LIMIT })
      .catch((error: unknown) =>
        process.stderr.write(`svc: alerts not sent now (svc serve sends them): ${String(error)}\n`),
      );
    return report;
  } finally {
    await close();
  }
}
