import { isSvcError, locateProblems, MAX_FLOW_FILE_BYTES, parseFlowText, type Engine } from '@svc/engine';
import { readBoundedFile, unreadableReason } from '@svc/engine/bounded-file';
import { namesAFile } from './file-or-name.js';
import { LOCAL_TENANT, openLocalEngine } from './local-engine.js';
import { resolveApiTarget } from './remote/api-target.js';
import { printProblems } from './print-problems.js';
import { renderTrace } from './render-trace.js';
import { reportFailure } from './report-failure.js';
import { createStepLinePrinter } from './step-lines.js';

export interface RunFlowOptions {
  env: Record<string, string>;
  /** A stored environment; `env` overrides its values key by key. */
  environment?: string;
  input: Record<string, string>;
  json: boolean;
  /** No step lines on stderr while the flow runs. */
  quiet?: boolean;
  /** False: return once the run waits, leaving it in the store for `svc serve` to resume. */
  wait?: boolean;
  /** A running `svc serve` to run on instead of the embedded store (else `SVC_API_URL`). */
  apiUrl?: string;
}

/** Step lines on stderr as steps finish: stdout keeps the trace, or the one JSON object. */
function localEngine(options: RunFlowOptions) {
  return openLocalEngine(undefined, {
    ...(options.quiet ? {} : { listener: createStepLinePrinter((line) => process.stderr.write(line)) }),
    ...(options.wait === false ? { releaseWaits: true } : {}),
  });
}

/**
 * Runs a flow file, or a flow saved in the store by id or name (one `svc discover --scaffold`
 * saved, say); on a running `svc serve` with `apiUrl` (or `SVC_API_URL`). Exit codes: 0 Completed, 1 the flow ran and did not complete, 2 the flow does not
 * validate, cannot be read, or is neither a file nor a saved flow. Unless `quiet`, one line per
 * finished step goes to stderr while the flow runs.
 */
export async function runFlowCommand(file: string, options: RunFlowOptions): Promise<number> {
  let target;
  try {
    target = resolveApiTarget(options.apiUrl, (line) => process.stderr.write(line));
  } catch (error) {
    return reportFailure(error);
  }
  if (target !== undefined) return (await import('./remote/run-flow-remote.js')).runFlowRemote(target, file, options);
  // `flw_…` or a flow's name; anything shaped like a path stays a file, so a typo says it cannot be read.
  if (!namesAFile(file)) return runSavedFlow(file, options);
  let text: string;
  let document: unknown;
  try {
    text = readBoundedFile(file, MAX_FLOW_FILE_BYTES);
    document = parseFlowText(text, file);
  } catch (error) {
    process.stderr.write(
      `svc: ${isSvcError(error) ? error.message : `cannot read ${file}: ${unreadableReason(error)}`}\n`,
    );
    return 2;
  }
  const { engine, close } = await localEngine(options);
  try {
    const validation = engine.flows.validate(document);
    if (!validation.ok) {
      printProblems(file, locateProblems(text, file, validation.problems));
      return 2;
    }
    const flow = await engine.flows.upsert(LOCAL_TENANT, document);
    return await runAndPrint(engine, flow.id, { type: 'cli', file }, options);
  } finally {
    await close();
  }
}

async function runSavedFlow(reference: string, options: RunFlowOptions): Promise<number> {
  const { engine, store, close } = await localEngine(options);
  try {
    const flow =
      (await store.flows.get(LOCAL_TENANT, reference)) ?? (await store.flows.findByName(LOCAL_TENANT, reference));
    if (flow === undefined) {
      process.stderr.write(
        `svc: ${reference} is neither a flow file nor the id or name of a saved flow (svc discover --scaffold saves one)\n`,
      );
      return 2;
    }
    return await runAndPrint(engine, flow.id, { type: 'cli', flowId: flow.id }, options);
  } finally {
    await close();
  }
}

async function runAndPrint(
  engine: Engine,
  flowId: string,
  trigger: { type: string } & Record<string, unknown>,
  options: RunFlowOptions,
): Promise<number> {
  let runEnv;
  try {
    runEnv = await engine.environments.resolveRun(LOCAL_TENANT, { env: options.env, environment: options.environment });
  } catch (error) {
    return reportFailure(error);
  }
  const execution = await engine.runFlow({
    tenantId: LOCAL_TENANT,
    flowId,
    ...runEnv,
    inputs: options.input,
    trigger,
    waitMs: Number.MAX_SAFE_INTEGER,
    returnWhenWaiting: options.wait === false,
  });
  process.stdout.write(options.json ? `${JSON.stringify(execution)}\n` : renderTrace(execution));
  // Without waiting, a run left Waiting in the store is where it was asked to stop.
  const waitingAsAsked = options.wait === false && execution.status === 'Waiting';
  return execution.status === 'Completed' || waitingAsAsked ? 0 : 1;
}
