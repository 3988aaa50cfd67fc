import { readFile } from 'node:fs/promises';
import { isSvcError, parseFlowText, type ValidationProblem } from '@svc/engine';
import { LOCAL_TENANT, openLocalEngine } from './local-engine.js';
import { renderTrace } from './render-trace.js';

export interface RunFlowOptions {
  env: Record<string, string>;
  input: Record<string, string>;
  json: boolean;
}

/** Exit codes: 0 Completed, 1 the flow ran and did not complete, 2 the flow does not validate or cannot be read. */
export async function runFlowCommand(file: string, options: RunFlowOptions): Promise<number> {
  let document: unknown;
  try {
    document = parseFlowText(await readFile(file, 'utf8'), file);
  } catch (error) {
    process.stderr.write(`svc: ${isSvcError(error) ? error.message : `cannot read ${file}: ${(error as Error).message}`}\n`);
    return 2;
  }
  const { engine, close } = await openLocalEngine();
  try {
    const validation = engine.flows.validate(document);
    if (!validation.ok) {
      process.stderr.write(`svc: ${file} does not validate (${validation.problems.length} problem${validation.problems.length === 1 ? '' : 's'}):\n`);
      for (const problem of validation.problems as ValidationProblem[]) {
        process.stderr.write(`  ${problem.path || '(document)'}: ${problem.code}: ${problem.message}\n`);
      }
      return 2;
    }
    const flow = await engine.flows.upsert(LOCAL_TENANT, document);
    const execution = await engine.runFlow({
      tenantId: LOCAL_TENANT,
      flowId: flow.id,
      env: options.env,
      inputs: options.input,
      trigger: { type: 'cli', file },
      waitMs: Number.MAX_SAFE_INTEGER,
    });
    process.stdout.write(options.json ? `${JSON.stringify(execution)}\n` : renderTrace(execution));
    return execution.status === 'Completed' ? 0 : 1;
  } finally {
    await close();
  }
}
