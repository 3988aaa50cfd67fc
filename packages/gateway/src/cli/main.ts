#!/usr/bin/env node
import { Command, CommanderError, InvalidArgumentError } from 'commander';
import { registerCatalogCommands } from './catalog-command.js';
import { registerAdminCommands } from './clients-command.js';
import { registerDiscoverCommand } from './discover-command.js';
import { registerJobsCommands } from './jobs-command.js';
import { collectKeyValue } from './key-values.js';
import { resumeCommand } from './resume-command.js';
import { runFlowCommand } from './run-flow-command.js';
import { runSuiteCommand } from './run-suite-command.js';
import { serveCommand } from './serve-command.js';
import { registerTestgenCommand } from './testgen-command.js';

const program = new Command('svc')
  .description('svc: API orchestration and testing. Flows, executions, suites.')
  .exitOverride()
  .showHelpAfterError();

const run = program.command('run').description('run a flow or a suite');

run
  .command('flow')
  .description('validate and run a flow file (JSON or YAML), or a saved flow by id or name, on the embedded store, and print its trace')
  .argument('<file>', 'flow file (.json, .yaml or .yml), or the id or name of a saved flow')
  .option('--env <KEY=VALUE>', 'environment variable for the run, read as {{env.KEY}} (repeatable)', collectKeyValue, {})
  .option('--input <KEY=VALUE>', 'input parameter, read as {{flowVars.KEY}} (repeatable)', collectKeyValue, {})
  .option('--json', 'print exactly one JSON object: the execution with its steps', false)
  .action(async (file: string, options: { env: Record<string, string>; input: Record<string, string>; json: boolean }) => {
    process.exitCode = await runFlowCommand(file, options);
  });

run
  .command('suite')
  .description('run every flow of a suite on the embedded store and print per-flow results and the KPIs; exit 0 only when every flow passed')
  .argument('<suite>', 'the suite id or name')
  .option('--env <KEY=VALUE>', 'environment variable for every flow of the run, read as {{env.KEY}} (repeatable)', collectKeyValue, {})
  .option('--fail-fast', 'start no flow after the first failure; the rest count as skipped', false)
  .option('--json', 'print exactly one JSON object: the run with its KPIs and per-flow results', false)
  .action(async (suite: string, options: { env: Record<string, string>; failFast: boolean; json: boolean }) => {
    process.exitCode = await runSuiteCommand(suite, options);
  });

program
  .command('resume')
  .description('resume executions left unfinished by a process that stopped, and run them to their end')
  .option('--json', 'print one JSON object: { resumed: [executions] }', false)
  .action(async (options: { json: boolean }) => {
    process.exitCode = await resumeCommand(options);
  });

function portNumber(value: string): number {
  const port = Number(value);
  if (!/^\d+$/.test(value) || port > 65_535) throw new InvalidArgumentError('a port is a whole number from 0 to 65535');
  return port;
}

program
  .command('serve')
  .description('serve the REST API and run executions on the embedded store, until SIGTERM or SIGINT')
  .option('--port <port>', 'TCP port (0 picks a free one)', portNumber, 8080)
  .option('--host <host>', 'address to listen on', '127.0.0.1')
  .action(async (options: { port: number; host: string }) => {
    process.exitCode = await serveCommand(options);
  });

registerAdminCommands(program);
registerCatalogCommands(program);
registerDiscoverCommand(program);
registerTestgenCommand(program);
registerJobsCommands(program);

try {
  await program.parseAsync(process.argv);
} catch (error) {
  if (error instanceof CommanderError) {
    process.exitCode = error.exitCode === 0 ? 0 : 2;
  } else {
    process.stderr.write(`svc: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  }
}
