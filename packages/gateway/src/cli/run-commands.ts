import type { Command } from 'commander';
import { collectKeyValue } from './key-values.js';

/** `svc run flow`, `svc run suite` and `svc resume`; each loads the engine only when it runs. */
export function registerRunCommands(program: Command): void {
  const run = program.command('run').description('run a flow or a suite');

  run
    .command('flow')
    .description(
      'validate and run a flow file (JSON or YAML), or a saved flow by id or name, on the embedded store, and print its trace',
    )
    .argument('<file>', 'flow file (.json, .yaml or .yml), or the id or name of a saved flow')
    .option(
      '--env <KEY=VALUE>',
      'environment variable for the run, read as {{env.KEY}} (repeatable)',
      collectKeyValue,
      {},
    )
    .option('--environment <name>', 'a stored environment (svc env list) for the run; --env values override it')
    .option('--input <KEY=VALUE>', 'input parameter, read as {{flowVars.KEY}} (repeatable)', collectKeyValue, {})
    .option('--json', 'print exactly one JSON object: the execution with its steps', false)
    .option('--quiet', 'print no step lines on stderr while the flow runs', false)
    .option(
      '--no-wait',
      'return once the run waits (a webhook callback, a long delay or polling sleep) and leave it in the store, where svc serve on the same store resumes it',
    )
    .action(
      async (
        file: string,
        options: {
          env: Record<string, string>;
          environment?: string;
          input: Record<string, string>;
          json: boolean;
          quiet: boolean;
          wait: boolean;
        },
      ) => {
        const { runFlowCommand } = await import('./run-flow-command.js');
        process.exitCode = await runFlowCommand(file, options);
      },
    );

  run
    .command('suite')
    .description(
      'run every flow of a suite on the embedded store and print per-flow results and the KPIs; exit 0 only when every flow passed',
    )
    .argument('<suite>', 'the suite id or name')
    .option(
      '--env <KEY=VALUE>',
      'environment variable for every flow of the run, read as {{env.KEY}} (repeatable)',
      collectKeyValue,
      {},
    )
    .option('--environment <name>', 'a stored environment (svc env list) for every flow; --env values override it')
    .option('--fail-fast', 'start no flow after the first failure; the rest count as skipped', false)
    .option('--json', 'print exactly one JSON object: the run with its KPIs and per-flow results', false)
    .action(
      async (
        suite: string,
        options: { env: Record<string, string>; environment?: string; failFast: boolean; json: boolean },
      ) => {
        const { runSuiteCommand } = await import('./run-suite-command.js');
        process.exitCode = await runSuiteCommand(suite, options);
      },
    );

  program
    .command('resume')
    .description('resume executions left unfinished by a process that stopped, and run them to their end')
    .option('--json', 'print one JSON object: { resumed: [executions] }', false)
    .action(async (options: { json: boolean }) => {
      const { resumeCommand } = await import('./resume-command.js');
      process.exitCode = await resumeCommand(options);
    });
}
