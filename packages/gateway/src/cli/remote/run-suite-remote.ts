import { isSvcError, SvcError, type SuiteRecord } from '@svc/engine';
import { inFlowFiles, suiteDefinitionOf, type SuiteRunPlan } from '../suite-run-plan.js';
import { buildSuiteReport, type SuiteReport } from '../suite-report/suite-report.js';
import type { ApiTarget } from './api-target.js';
import { createRemoteSvc } from './remote-svc.js';

/** Flow files saved at once: enough to hide the round trips, few enough not to crowd the service. */
const SAVES_AT_ONCE = 8;

/**
 * Runs a suite on a running `svc serve`. A suite file's flows and the suite are saved there by
 * name first (`?upsert=true`: a new version only when one changed). The service answers the run
 * once its last flow ended, so the per-flow progress lines come then, all at once; a failed
 * flow's trace is read back for its failing step (a client without `flows:read` gets the failure
 * without it).
 */
export async function runSuiteRemote(target: ApiTarget, plan: SuiteRunPlan): Promise<SuiteReport> {
  const svc = createRemoteSvc(target);
  let suite: SuiteRecord;
  let files: string[] | undefined;
  if (plan.source.kind === 'file') {
    const { loaded } = plan.source;
    const ids: string[] = new Array<string>(loaded.flows.length);
    let next = 0;
    const saveNext = async (): Promise<void> => {
      while (next < loaded.flows.length) {
        const index = next++;
        const flow = loaded.flows[index]!;
        try {
          ids[index] = (await svc.upsertFlow(flow.document)).id;
        } catch (error) {
          // The service checks what a file cannot (that a subflow's flow exists there, say): its
          // problems are put in the file, at their lines; another error names the file.
          const located = inFlowFiles(error, loaded, index);
          if (located !== error || !isSvcError(error)) throw located;
          throw new SvcError(error.code, `${flow.file}: ${error.message}`, {
            ...(error.details === undefined ? {} : { details: error.details }),
          });
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(SAVES_AT_ONCE, loaded.flows.length) }, saveNext));
    suite = await svc.upsertSuite(suiteDefinitionOf(loaded, ids));
    files = loaded.flows.map((flow) => flow.file);
  } else {
    suite = await svc.resolveSuite(plan.source.reference);
  }
  plan.progress.started({ name: suite.name, total: suite.flowIds.length, ranOn: svc.where });
  const run = await svc.runSuite(suite.id, {
    ...(Object.keys(plan.env).length > 0 ? { env: plan.env } : {}),
    ...(plan.environment === undefined ? {} : { environment: plan.environment }),
    failFast: plan.failFast,
    ...(plan.concurrency === undefined ? {} : { concurrency: plan.concurrency }),
  });
  for (const flow of run.flows) if (flow.status !== 'skipped') plan.progress.flowEnded(flow);
  plan.progress.finished({ skipped: run.skipped });
  return buildSuiteReport(run, {
    ranOn: svc.where,
    ...(plan.source.kind === 'file' ? { suiteFile: plan.source.loaded.file } : {}),
    ...(files === undefined ? {} : { files }),
    readExecution: (executionId) => svc.getExecution(executionId),
  });
}
