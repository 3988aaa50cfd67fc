import { table } from '@svc/engine/text-table';
import { EXECUTION_STATUSES, TERMINAL_STATUSES, type ExecutionStatus, type ExecutionView } from '@svc/engine';
import { InvalidArgumentError, type Command } from 'commander';
import { findFlow } from './find-flow.js';
import { LOCAL_TENANT, openLocalEngine } from './local-engine.js';
import { renderTrace } from './render-trace.js';
import { reportFailure } from './report-failure.js';

export interface ListExecutionsOptions {
  flow?: string;
  status?: ExecutionStatus;
  limit: number;
  json: boolean;
}

async function listExecutions(options: ListExecutionsOptions): Promise<number> {
  const { engine, store, close } = await openLocalEngine();
  try {
    const flowId = options.flow === undefined ? undefined : (await findFlow(store, options.flow)).id;
    const page = await engine.listExecutions(LOCAL_TENANT, {
      limit: options.limit,
      ...(flowId ? { flowId } : {}),
      ...(options.status ? { status: options.status } : {}),
    });
    if (options.json) {
      process.stdout.write(`${JSON.stringify(page)}\n`);
    } else if (page.items.length === 0) {
      process.stdout.write('no executions\n');
    } else {
      const rows = [['execution', 'flow', 'status', 'duration', 'created']];
      for (const execution of page.items) {
        rows.push([
          execution.executionId,
          execution.flowName,
          execution.status,
          execution.durationMs === null ? '' : `${execution.durationMs} ms`,
          execution.createdAt,
        ]);
      }
      process.stdout.write(`${table(rows)}\n`);
    }
    return 0;
  } catch (error) {
    return reportFailure(error);
  } finally {
    await close();
  }
}

/** Exit 0 for an execution that Completed or still goes on; 1 for one that ended otherwise. */
function exitCodeOf(execution: ExecutionView): number {
  return execution.status === 'Completed' || !TERMINAL_STATUSES.has(execution.status) ? 0 : 1;
}

async function getExecution(executionId: string, options: { json: boolean }): Promise<number> {
  const { engine, close } = await openLocalEngine();
  try {
    const execution = await engine.getExecution(LOCAL_TENANT, executionId);
    process.stdout.write(options.json ? `${JSON.stringify(execution)}\n` : renderTrace(execution));
    return exitCodeOf(execution);
  } catch (error) {
    return reportFailure(error);
  } finally {
    await close();
  }
}

function status(value: string): ExecutionStatus {
  const match = EXECUTION_STATUSES.find((candidate) => candidate.toLowerCase() === value.toLowerCase());
  if (match === undefined) throw new InvalidArgumentError(`a status is one of ${EXECUTION_STATUSES.join(', ')}`);
  return match;
}

function limit(value: string): number {
  const count = Number(value);
  if (!/^\d+$/.test(value) || count < 1 || count > 200)
    throw new InvalidArgumentError('a limit is a whole number from 1 to 200');
  return count;
}

/**
 * `svc executions list|get` on the embedded store (tenant `default`): past runs, newest first,
 * and one run's trace read again, printed as `svc run flow` printed it. `--json` prints exactly
 * one JSON object. Exit codes: `get` 0 for a Completed or unfinished execution, 1 for one that
 * Failed, TimedOut or was Cancelled, or `EXECUTION_NOT_FOUND`; `list` 0, or 1 for `FLOW_NOT_FOUND`;
 * 2 bad arguments.
 */
export function registerExecutionsCommands(program: Command): void {
  const executions = program
    .command('executions')
    .description('executions of the embedded store (tenant "default"): list, and read a trace again');
  executions
    .command('list')
    .description('list executions, newest first')
    .option('--flow <flow>', 'only the executions of this flow (id or name)')
    .option('--status <status>', `only executions with this status (${EXECUTION_STATUSES.join(', ')})`, status)
    .option('--limit <n>', 'how many, 1 to 200', limit, 20)
    .option('--json', 'print exactly one JSON object: { items, nextCursor }', false)
    .action(async (options: ListExecutionsOptions) => {
      process.exitCode = await listExecutions(options);
    });
  executions
    .command('get')
    .description('print the trace of an execution, as svc run flow printed it')
    .argument('<executionId>', 'the execution id (svc run flow and svc executions list print it)')
    .option('--json', 'print exactly one JSON object: the execution with its steps', false)
    .action(async (executionId: string, options: { json: boolean }) => {
      process.exitCode = await getExecution(executionId, options);
    });
}
