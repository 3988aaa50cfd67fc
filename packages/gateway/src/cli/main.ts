#!/usr/bin/env node
import { readFileSync } from 'node:fs';
import { Command, CommanderError } from 'commander';
import { COMMAND_GROUPS, invokedCommand } from './command-groups.js';

const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
  version: string;
};

/** V8's default is 1.8 million; this is the largest it takes (about a thousand times as much use). */
const WASM_TIERING_BUDGET = 2_147_483_647;
/**
 * How much bytecode a function runs before V8 considers optimizing it: V8's default is 67,584;
 * this is about fifteen times as much. A command lives a second or a few, and optimizing every
 * function that turns warm costs more CPU than the optimized code then saves: a 200-flow suite file
 * (2,000 requests) took a sixth less CPU time with it (its run alone a third less), and code that
 * stays hot for long is still optimized, later. `svc serve`, which runs for days, keeps V8's default.
 */
const INTERRUPT_BUDGET = 1_000_000;

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
    // WebAssembly is compiled fast first and optimized once it has run a while. undici's HTTP
    // parser reaches that point on the first response, and optimizing its main function takes
    // about 180 ms of CPU that the process then waits for at exit: more than a short command
    // spends on all the rest. A command other than `svc serve` optimizes only after far longer use
    // (the flag is the process's: the sandbox's QuickJS threads are optimized later as well).
    if (invoked !== 'serve') {
      const v8 = await import('node:v8');
      v8.setFlagsFromString(`--wasm-tiering-budget=${WASM_TIERING_BUDGET}`);
      v8.setFlagsFromString(`--interrupt-budget=${INTERRUPT_BUDGET}`);
    }
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
