#!/usr/bin/env node
import { readFileSync } from 'node:fs';
import { Command, CommanderError } from 'commander';
import { COMMAND_GROUPS, invokedCommand } from './command-groups.js';

const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };

const program = new Command('svc')
  .description('svc: API orchestration and testing. Flows, executions, suites.')
  .version(version, '-V, --version', 'print the version of svc')
  .exitOverride()
  .showHelpAfterError('(add --help for usage)');

// Only the group of the command being run is loaded (the engine, the store, discovery, Hono…);
// every other command is listed by name and summary alone, so `svc --help` loads none of them.
const invoked = invokedCommand(process.argv.slice(2));
for (const group of COMMAND_GROUPS) {
  if (group.commands.some((command) => command.name === invoked)) {
    await group.register(program);
  } else {
    for (const command of group.commands) program.command(command.name).description(command.summary);
  }
}

try {
  await program.parseAsync(process.argv);
} catch (error) {
  if (error instanceof CommanderError) {
    // Commander has printed the message (and the help); an unknown command or option is a usage error.
    process.exitCode = error.exitCode === 0 ? 0 : 2;
  } else {
    process.stderr.write(`svc: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  }
}
