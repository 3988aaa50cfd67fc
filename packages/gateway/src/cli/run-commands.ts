import { InvalidArgumentError, Option, type Command } from 'commander';
import { namesAFile } from './file-or-name.js';
import { prefetchFlowFiles } from './flow-file-prefetch.js';
import { collectKeyValue } from './key-values.js';
import { addApiUrlOption } from './remote/api-url-option.js';
import type { RunSuiteCommandOptions } from './run-suite-command.js';

/** The reports `svc run suite` writes (kept here, so that `--help` loads nothing to list them). */
const REPORTERS = ['text', 'junit', 'json'];

function concurrency(value: string): number {
  const count = Number(value);
  if (!/^\d+$/.test(value) || count < 1 || count > 32)
    throw new InvalidArgumentError('a concurrency is a whole number from 1 to 32');
  return count;
}

/** `svc run flow`, `svc run suite` and `svc resume`; each loads the engine only when it runs. */
export function registerRunCommands(program: Command): void {
  const run = program.command('run').description('run a flow or a suite');

  const flow = run
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
    );
  addApiUrlOption(flow).action(
    async (
      file: string,
      options: {
        env: Record<string, string>;
        environment?: string;
        input: Record<string, string>;
        json: boolean;
        quiet: boolean;
        wait: boolean;
        apiUrl?: string;
      },
    ) => {
      const { runFlowCommand } = await import('./run-flow-command.js');
      process.exitCode = await runFlowCommand(file, options);
    },
  );

  addApiUrlOption(
    run
      .command('suite')
      .description(
        'run a saved suite, or a suite file with its flow files (saved first), and report per-flow results and the KPIs; exit 0 only when every flow passed',
      )
      .argument('<suite>', 'a suite file (.yaml, .yml or .json), or the id or name of a saved suite')
      .option(
        '--env <KEY=VALUE>',
        'environment variable for every flow of the run, read as {{env.KEY}} (repeatable)',
        collectKeyValue,
        {},
      )
      .option(
        '--environment <name>',
        "a stored environment (svc env list) for every flow, instead of a suite file's; --env values override it",
      )
      .option(
        '--fail-fast',
        "start no flow after the first failure; the rest count as skipped (default: the suite file's failFast, else off)",
      )
      .option(
        '--concurrency <n>',
        "parallel suites: flows running at once, 1 to 32 (default: the suite file's, else 4)",
        concurrency,
      )
      .addOption(
        new Option(
          '--reporter <format>',
          'the report: text for a person, junit for a CI server, json for a program',
        ).choices(REPORTERS),
      )
      .option('--output <file>', 'write the report to this file instead of stdout (its directory is made if missing)')
      .option(
        '--json',
        'the same as --reporter json: exactly one JSON object, the run with its KPIs and per-flow results',
        false,
      )
      .option('--quiet', 'print no progress lines on stderr while the suite runs', false),
  ).action(async (suite: string, options: RunSuiteCommandOptions) => {
    // A suite file's flow files are read on a thread while the engine loads.
    const prefetched = namesAFile(suite) ? prefetchFlowFiles(suite) : undefined;
    const { runSuiteCommand } = await import('./run-suite-command.js');
    process.exitCode = await runSuiteCommand(suite, options, prefetched);
  });

  program
    .command('resume')
    .description('resume executions left unfinished by a process that stopped, and run them to their end')
    .option('--json', 'print one JSON object: { resumed: [executions] }', false)
    .action(async (options: { json: boolean }) => {
      const { resumeCommand } = await import('./resume-command.js');
      process.exitCode = await resumeCommand(options);
    });
}
