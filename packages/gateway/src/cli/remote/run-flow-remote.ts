import { isSvcError, locateProblems, MAX_FLOW_FILE_BYTES, parseFlowText, type ValidationProblem } from '@svc/engine';
import { readBoundedFile, unreadableReason } from '@svc/engine/bounded-file';
import { namesAFile } from '../file-or-name.js';
import { printProblems } from '../print-problems.js';
import { renderTrace } from '../render-trace.js';
import { reportFailure } from '../report-failure.js';
import type { RunFlowOptions } from '../run-flow-command.js';
import { formatStepLine } from '../step-lines.js';
import type { ApiTarget } from './api-target.js';
import { createRemoteSvc, type RemoteRunBody } from './remote-svc.js';

/** The problems a refused save answers with (`details.problems`), when it names them. */
function problemsOf(error: unknown): ValidationProblem[] | undefined {
  if (!isSvcError(error) || error.code !== 'VALIDATION_ERROR') return undefined;
  const problems = (error.details as { problems?: unknown } | undefined)?.problems;
  return Array.isArray(problems) ? (problems as ValidationProblem[]) : undefined;
}

/**
 * `svc run flow <file|id|name> --api-url …`: the same run on a running `svc serve`. A file is
 * saved there by name (a new version only when it changed) and run; a problem the service finds in
 * it is printed with its line in the file. The service runs the flow, so its step lines are printed
 * once the run has ended (or waits, with `--no-wait`). Exit codes as in local mode.
 */
export async function runFlowRemote(target: ApiTarget, reference: string, options: RunFlowOptions): Promise<number> {
  const svc = createRemoteSvc(target);
  try {
    let flowId: string;
    if (namesAFile(reference)) {
      let text: string;
      let document: unknown;
      try {
        text = readBoundedFile(reference, MAX_FLOW_FILE_BYTES);
        document = parseFlowText(text, reference);
      } catch (error) {
        process.stderr.write(
          `svc: ${isSvcError(error) ? error.message : `cannot read ${reference}: ${unreadableReason(error)}`}\n`,
        );
        return 2;
      }
      try {
        flowId = (await svc.upsertFlow(document)).id;
      } catch (error) {
        const problems = problemsOf(error);
        if (problems === undefined) throw error;
        printProblems(reference, locateProblems(text, reference, problems));
        return 2;
      }
    } else {
      try {
        flowId = (await svc.resolveFlow(reference)).id;
      } catch (error) {
        if (!isSvcError(error) || error.code !== 'FLOW_NOT_FOUND') throw error;
        process.stderr.write(`svc: ${reference} is neither a flow file nor the id or name of a flow on ${svc.where}\n`);
        return 2;
      }
    }
    const body: RemoteRunBody = {
      ...(Object.keys(options.env).length > 0 ? { env: options.env } : {}),
      ...(options.environment === undefined ? {} : { environment: options.environment }),
      ...(Object.keys(options.input).length > 0 ? { inputs: options.input } : {}),
    };
    const started = await svc.startRun(flowId, body);
    const execution = await svc.followExecution(started.executionId, { untilWaiting: options.wait === false });
    if (!options.quiet) for (const step of execution.steps ?? []) process.stderr.write(formatStepLine(step));
    process.stdout.write(options.json ? `${JSON.stringify(execution)}\n` : renderTrace(execution));
    const waitingAsAsked = options.wait === false && execution.status === 'Waiting';
    return execution.status === 'Completed' || waitingAsAsked ? 0 : 1;
  } catch (error) {
    return reportFailure(error);
  }
}
