import type { EnvironmentRecord } from '@svc/engine';
import { table } from '@svc/engine/text-table';
import type { Command } from 'commander';
import { withReader } from './cli-reader.js';
import { collectKeyValue } from './key-values.js';
import { LOCAL_TENANT, withLocalEngine } from './local-engine.js';
import { addApiUrlOption } from './remote/api-url-option.js';

/** `name  id  key=value, secret=***`: what `svc env` prints of an environment. */
function variablesLine(environment: EnvironmentRecord): string {
  const pairs = Object.entries(environment.variables).map(
    ([key, value]) => `${key}=${typeof value === 'string' ? value : JSON.stringify(value)}`,
  );
  return pairs.join(', ') || '-';
}

/** `KEY=VALUE` words after the environment's name, as `--env` takes them. */
function keyValues(words: string[]): Record<string, string> {
  return words.reduce<Record<string, string>>((all, word) => collectKeyValue(word, all), {});
}

/**
 * `svc env list|set|unset|delete`: stored environments of the embedded store (tenant `default`),
 * which `svc run flow|suite --environment <name>` runs on; `list` also on a running `svc serve`
 * (`--api-url`, `SVC_API_URL`). Secret values print as `***`. Exit
 * codes: 0 done; 1 not found; 2 bad input.
 */
export function registerEnvCommands(program: Command): void {
  const env = program
    .command('env')
    .description(
      'stored environments of the embedded store (tenant "default"); secrets are encrypted at rest and print as ***',
    );

  addApiUrlOption(
    env
      .command('list')
      .description('list the stored environments with their variables')
      .option('--json', 'print exactly one JSON object: { environments }', false),
  ).action(async (options: { json: boolean; apiUrl?: string }) => {
    process.exitCode = await withReader(options.apiUrl, async (reader) => {
      const environments = await reader.listEnvironments();
      if (options.json) process.stdout.write(`${JSON.stringify({ environments })}\n`);
      else if (environments.length === 0)
        process.stdout.write('No stored environments; svc env set <name> KEY=VALUE makes one.\n');
      else
        process.stdout.write(
          `${table([['NAME', 'ID', 'VARIABLES'], ...environments.map((one) => [one.name, one.id, variablesLine(one)])])}\n`,
        );
      return 0;
    });
  });

  env
    .command('set')
    .description('set variables of an environment, creating it when missing (the others are kept)')
    .argument('<name>', 'the environment, e.g. staging')
    .argument('[KEY=VALUE...]', 'plain variables')
    .option(
      '--secret <KEY=VALUE>',
      'a secret variable: encrypted at rest, printed as *** (repeatable)',
      collectKeyValue,
      {},
    )
    .option('--description <text>', 'what the environment is for')
    .option('--json', 'print exactly one JSON object: { environment, created }', false)
    .action(
      async (
        name: string,
        pairs: string[],
        options: { secret: Record<string, string>; description?: string; json: boolean },
      ) => {
        process.exitCode = await withLocalEngine(async (engine) => {
          const { environment, created } = await engine.environments.set(LOCAL_TENANT, {
            name,
            variables: keyValues(pairs),
            secrets: options.secret,
            ...(options.description === undefined ? {} : { description: options.description }),
          });
          process.stdout.write(
            options.json
              ? `${JSON.stringify({ environment, created })}\n`
              : `${created ? 'created' : 'updated'} ${environment.name} (${environment.id}): ${variablesLine(environment)}\n`,
          );
          return 0;
        });
      },
    );

  env
    .command('unset')
    .description('remove variables from an environment')
    .argument('<name>', 'the environment')
    .argument('<KEY...>', 'the variables to remove')
    .action(async (name: string, keys: string[]) => {
      process.exitCode = await withLocalEngine(async (engine) => {
        const current = await engine.environments.get(LOCAL_TENANT, name);
        const { environment } = await engine.environments.set(LOCAL_TENANT, { name: current.name, unset: keys });
        process.stdout.write(`updated ${environment.name} (${environment.id}): ${variablesLine(environment)}\n`);
        return 0;
      });
    });

  env
    .command('delete')
    .description('delete an environment')
    .argument('<name>', 'the environment name or id')
    .action(async (name: string) => {
      process.exitCode = await withLocalEngine(async (engine) => {
        const deleted = await engine.environments.delete(LOCAL_TENANT, name);
        process.stdout.write(`deleted ${deleted.name} (${deleted.id})\n`);
        return 0;
      });
    });
}
