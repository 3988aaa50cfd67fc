#!/usr/bin/env node
import { Command, CommanderError } from 'commander';
import { collectKeyValue } from './key-values.js';
import { resumeCommand } from './resume-command.js';
import { runFlowCommand } from './run-flow-command.js';

const program = new Command('svc')
  .description('svc: API orchestration and testing. Flows, executions, suites.')
  .exitOverride()
  .showHelpAfterError();

const run = program.command('run').description('run a flow (suites arrive later)');

run
  .command('flow')
  .description('validate and run a flow file (JSON or YAML) on the embedded store, and print its trace')
  .argument('<file>', 'flow file: .json, .yaml or .yml')
  .option('--env <KEY=VALUE>', 'environment variable for the run, read as {{env.KEY}} (repeatable)', collectKeyValue, {})
  .option('--input <KEY=VALUE>', 'input parameter, read as {{flowVars.KEY}} (repeatable)', collectKeyValue, {})
  .option('--json', 'print exactly one JSON object: the execution with its steps', false)
  .action(async (file: string, options: { env: Record<string, string>; input: Record<string, string>; json: boolean }) => {
    process.exitCode = await runFlowCommand(file, options);
  });

program
  .command('resume')
  .description('resume executions left unfinished by a process that stopped, and run them to their end')
  .option('--json', 'print one JSON object: { resumed: [executions] }', false)
  .action(async (options: { json: boolean }) => {
    process.exitCode = await resumeCommand(options);
  });

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
