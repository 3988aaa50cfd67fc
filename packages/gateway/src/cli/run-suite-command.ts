import { isSvcError, type SuiteRecord, type SuiteRunResult } from '@svc/engine';
import { LOCAL_TENANT, openLocalEngine } from './local-engine.js';
import { reportFailure } from './report-failure.js';

export interface RunSuiteCommandOptions {
  env: Record<string, string>;
  /** A stored environment; `env` overrides its values key by key. */
  environment?: string;
  failFast: boolean;
  json: boolean;
}

/** The most alerts one `svc run suite` sends itself before it exits. */
const CLI_ALERT_LIMIT = 32;

const ms = (value: number | null) => (value === null ? '-' : `${Math.round(value)} ms`);

/** One line per flow, then the KPIs. */
export function renderSuiteRun(run: SuiteRunResult): string {
  const lines = [`Suite "${run.suiteName}" (${run.suiteId}, ${run.mode}): ${run.status.toUpperCase()}`];
  for (const flow of run.flows) {
    const mark = flow.status === 'passed' ? 'PASS' : flow.status === 'failed' ? 'FAIL' : 'SKIP';
    const detail = [
      flow.durationMs === null ? null : ms(flow.durationMs),
      flow.executionId,
      flow.error ? `${flow.error.code}: ${flow.error.message}` : null,
    ].filter((part) => part !== null);
    lines.push(`  ${mark}  ${flow.flowName ?? flow.flowId}${detail.length > 0 ? `  (${detail.join(', ')})` : ''}`);
  }
  lines.push(
    `total ${run.total}, passed ${run.passed}, failed ${run.failed}, skipped ${run.skipped}; pass rate ${(run.passRate * 100).toFixed(1)}%; ` +
      `duration ${ms(run.durationMs)}; p50 ${ms(run.latency.p50)}, p95 ${ms(run.latency.p95)}`,
  );
  return `${lines.join('\n')}\n`;
}

/**
 * `svc run suite <name|id>` on the embedded store (tenant `default`): runs every flow of the
 * suite with the given env and prints one line per flow and the KPIs (or, with `--json`,
 * exactly one JSON object: the run result). Exit codes: 0 every flow passed; 1 a flow failed or
 * was skipped, or the suite is not found.
 */
export async function runSuiteCommand(nameOrId: string, options: RunSuiteCommandOptions): Promise<number> {
  const { engine, close } = await openLocalEngine();
  try {
    let suite: SuiteRecord | undefined;
    try {
      suite = await engine.suites.get(LOCAL_TENANT, nameOrId);
    } catch (error) {
      if (!isSvcError(error) || error.code !== 'SUITE_NOT_FOUND') throw error;
      suite = await engine.suites.findByName(LOCAL_TENANT, nameOrId);
    }
    if (suite === undefined) {
      process.stderr.write(`svc: SUITE_NOT_FOUND: no suite with the id or name "${nameOrId}"\n`);
      return 1;
    }
    let runEnv;
    try {
      runEnv = await engine.environments.resolveRun(LOCAL_TENANT, {
        env: options.env,
        environment: options.environment,
      });
    } catch (error) {
      return reportFailure(error);
    }
    const run = await engine.suites.run(LOCAL_TENANT, suite.id, {
      ...runEnv,
      failFast: options.failFast,
      trigger: { type: 'cli' },
    });
    process.stdout.write(options.json ? `${JSON.stringify(run)}\n` : renderSuiteRun(run));
    // A health-check suite's alerts are queued in the store; this process sends them once before
    // it exits (a bounded pass), and `svc serve` retries what did not go out.
    await engine.health
      .deliverDue({ limit: CLI_ALERT_LIMIT })
      .catch((error: unknown) =>
        process.stderr.write(`svc: alerts not sent now (svc serve sends them): ${String(error)}\n`),
      );
    return run.status === 'passed' && run.skipped === 0 ? 0 : 1;
  } finally {
    await close();
  }
}
