import { table } from '@svc/engine/text-table';
import { EXECUTION_STATUSES, TERMINAL_STATUSES, type ExecutionStatus, type ExecutionView } from '@svc/engine';
import { InvalidArgumentError, type Command } from 'commander';
import { withReader } from './cli-reader.js';
import { addApiUrlOption } from './remote/api-url-option.js';
import { renderTrace } from './render-trace.js';

export interface ListExecutionsOptions {
  flow?: string;
  status?: ExecutionStatus;
  limit: number;
  json: boolean;
  apiUrl?: string;
}

async function listExecutions(options: ListExecutionsOptions): Promise<number> {
  return withReader(options.apiUrl, async (reader) => {
    const page = await reader.listExecutions({
      limit: options.limit,
      ...(options.flow === undefined ? {} : { flow: options.flow }),
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
  });
}

/** Exit 0 for an execution that Completed or still goes on; 1 for one that ended otherwise. */
function exitCodeOf(execution: ExecutionView): number {
  return execution.status === 'Completed' || !TERMINAL_STATUSES.has(execution.status) ? 0 : 1;
}

async function getExecution(executionId: string, options: { json: boolean; apiUrl?: string }): Promise<number> {
  return withReader(options.apiUrl, async (reader) => {
    const execution = await reader.getExecution(executionId);
    process.stdout.write(options.json ? `${JSON.stringify(execution)}\n` : renderTrace(execution));
    return exitCodeOf(execution);
  });
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
 * `svc executions list|get` on the embedded store (tenant `default`), or on a running `svc serve`
 * (`--api-url`, `SVC_API_URL`): past runs, newest first,
 * and one run's trace read again, printed as `svc run flow` printed it. `--json` prints exactly
 * one JSON object. Exit codes: `get` 0 for a Completed or unfinished execution, 1 for one that
 * Failed, TimedOut or was Cancelled, or `EXECUTION_NOT_FOUND`; `list` 0, or 1 for `FLOW_NOT_FOUND`;
 * 2 bad arguments.
 */
export function registerExecutionsCommands(program: Command): void {
  const executions = program
    .command('executions')
    .description('executions of the embedded store (tenant "default"): list, and read a trace again');
  addApiUrlOption(
    executions
      .command('list')
      .description('list executions, newest first')
      .option('--flow <flow>', 'only the executions of this flow (id or name)')
      .option('--status <status>', `only executions with this status (${EXECUTION_STATUSES.join(', ')})`, status)
      .option('--limit <n>', 'how many, 1 to 200', limit, 20)
      .option('--json', 'print exactly one JSON object: { items, nextCursor }', false),
  ).action(async (options: ListExecutionsOptions) => {
    process.exitCode = await listExecutions(options);
  });
  addApiUrlOption(
    executions
      .command('get')
      .description('print the trace of an execution, as svc run flow printed it')
      .argument('<executionId>', 'the execution id (svc run flow and svc executions list print it)')
      .option('--json', 'print exactly one JSON object: the execution with its steps', false),
  ).action(async (executionId: string, options: { json: boolean; apiUrl?: string }) => {
    process.exitCode = await getExecution(executionId, options);
  });
}
