import { LOCAL_TENANT, openLocalEngine } from './local-engine.js';
import { renderTrace } from './render-trace.js';

/**
 * Resumes executions left unfinished by a process that died (or whose waits are due) and runs
 * them to their end. Exit code 0 when every resumed execution completed.
 */
export async function resumeCommand(options: { json: boolean }): Promise<number> {
  const { engine, close } = await openLocalEngine();
  try {
    // Everything left behind, waits included: this process holds them until they are due.
    const ids = await engine.recover({ includeWaits: true });
    await engine.drain();
    const executions = [];
    for (const id of ids) executions.push(await engine.getExecution(LOCAL_TENANT, id));
    if (options.json) process.stdout.write(`${JSON.stringify({ resumed: executions })}\n`);
    else if (executions.length === 0) process.stdout.write('nothing to resume\n');
    else for (const execution of executions) process.stdout.write(renderTrace(execution));
    return executions.every((execution) => execution.status === 'Completed') ? 0 : 1;
  } finally {
    await close();
  }
}
