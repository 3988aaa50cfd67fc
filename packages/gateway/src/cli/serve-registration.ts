import { InvalidArgumentError, type Command } from 'commander';

function portNumber(value: string): number {
  const port = Number(value);
  if (!/^\d+$/.test(value) || port > 65_535) throw new InvalidArgumentError('a port is a whole number from 0 to 65535');
  return port;
}

/** `svc serve`: its options here; the gateway, loaded only when it runs, in `serve-command.ts`. */
export function registerServeCommand(program: Command): void {
  program
    .command('serve')
    .description('serve the REST API and run executions on the store (SQLite, or PostgreSQL), until SIGTERM or SIGINT')
    .option('--port <port>', 'TCP port (0 picks a free one)', portNumber, 8080)
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .option(
      '--db <store>',
      'the store: a SQLite file, or postgres://user@host:5432/db to share one database (default: SVC_DB)',
    )
    .action(async (options: { port: number; host: string; db?: string }) => {
      const { serveCommand } = await import('./serve-command.js');
      process.exitCode = await serveCommand(options);
    });
}
