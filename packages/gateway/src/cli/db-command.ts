import type { Command } from 'commander';
import { isPostgresUrl, loadConfig, SvcError } from '@svc/engine';
import { reportFailure } from './report-failure.js';

/** `svc db …`: moving a store's data. */
export function registerDbCommands(program: Command): void {
  const db = program.command('db').description('move a store: copy the embedded SQLite store into PostgreSQL');
  db.command('copy')
    .description(
      'copy flows, environments, clients, catalog, schedules and history from a SQLite store into an empty PostgreSQL database',
    )
    .requiredOption('--from <sqlite>', 'the SQLite store file, e.g. .svc/svc.db')
    .requiredOption('--to <postgres>', 'the PostgreSQL database, postgres://user:password@host:5432/database')
    .action(async (options: { from: string; to: string }) => {
      process.exitCode = await dbCopyCommand(options);
    });
}

/**
 * Exit codes: 0 copied, 1 the copy failed (nothing is left half-copied), 2 bad input. The
 * secrets stay sealed under the SQLite store's key (`SVC_SECRET_KEY`, else the key file beside
 * it), which every PostgreSQL process must then run with.
 */
export async function dbCopyCommand(options: { from: string; to: string }): Promise<number> {
  try {
    if (!isPostgresUrl(options.to)) {
      throw new SvcError('VALIDATION_ERROR', `--to must be a postgres:// URL, not "${options.to.slice(0, 60)}"`);
    }
    const config = loadConfig(process.env);
    const { copySqliteToPostgres } = await import('@svc/engine/postgres');
    const result = await copySqliteToPostgres({
      from: options.from,
      to: options.to,
      ...(config.secretKey === undefined ? {} : { secretKey: config.secretKey }),
      onTable: (table, rows) => process.stderr.write(`svc: copied ${rows} ${table}\n`),
    });
    const total = Object.values(result.rows).reduce((sum, rows) => sum + rows, 0);
    process.stdout.write(`svc: copied ${total} rows from ${options.from} into PostgreSQL\n`);
    if (config.secretKey === undefined) {
      process.stdout.write(
        `svc: secrets stay sealed under the key in ${options.from}.key: start every svc serve on PostgreSQL with SVC_SECRET_KEY set to its content\n`,
      );
    }
    return 0;
  } catch (error) {
    return reportFailure(error);
  }
}
