import type { Command } from 'commander';

/**
 * A module of `svc` commands. Its top-level commands are listed here with the summary
 * `svc --help` shows, and the module is imported only when one of them runs: what a command needs
 * (the engine, the store, discovery, Hono) is loaded by that command alone.
 */
export interface CommandGroup {
  commands: ReadonlyArray<{ name: string; summary: string }>;
  register(program: Command): Promise<void>;
}

export const COMMAND_GROUPS: readonly CommandGroup[] = [
  {
    commands: [
      { name: 'run', summary: 'run a flow or a suite' },
      {
        name: 'resume',
        summary: 'resume executions left unfinished by a process that stopped, and run them to their end',
      },
    ],
    register: async (program) => (await import('./run-commands.js')).registerRunCommands(program),
  },
  {
    commands: [{ name: 'flows', summary: 'flows saved in the embedded store (tenant "default"): list, get, delete' }],
    register: async (program) => (await import('./flows-command.js')).registerFlowsCommands(program),
  },
  {
    commands: [
      {
        name: 'executions',
        summary: 'executions of the embedded store (tenant "default"): list, and read a trace again',
      },
    ],
    register: async (program) => (await import('./executions-command.js')).registerExecutionsCommands(program),
  },
  {
    commands: [
      {
        name: 'serve',
        summary: 'serve the REST API and run executions on the store (SQLite, or PostgreSQL), until SIGTERM or SIGINT',
      },
    ],
    register: async (program) => (await import('./serve-registration.js')).registerServeCommand(program),
  },
  {
    commands: [{ name: 'db', summary: 'move a store: copy the embedded SQLite store into PostgreSQL' }],
    register: async (program) => (await import('./db-command.js')).registerDbCommands(program),
  },
  {
    commands: [
      { name: 'tenants', summary: 'tenants of the embedded store' },
      { name: 'clients', summary: 'API clients (OAuth2 client credentials and API keys)' },
    ],
    register: async (program) => (await import('./clients-command.js')).registerAdminCommands(program),
  },
  {
    commands: [{ name: 'catalog', summary: 'the OpenAPI catalog of the embedded store (tenant "default")' }],
    register: async (program) => (await import('./catalog-command.js')).registerCatalogCommands(program),
  },
  {
    commands: [
      {
        name: 'discover',
        summary:
          'plan a plain-language requirement against the catalog of the embedded store (tenant "default"), and optionally save it as a flow',
      },
    ],
    register: async (program) => (await import('./discover-command.js')).registerDiscoverCommand(program),
  },
  {
    commands: [
      {
        name: 'testgen',
        summary:
          'generate tests for a catalog endpoint of the embedded store (tenant "default"): a job whose result is a generated suite of flows',
      },
    ],
    register: async (program) => (await import('./testgen-command.js')).registerTestgenCommand(program),
  },
  {
    commands: [
      { name: 'jobs', summary: 'background jobs of the embedded store (tenant "default"), such as test generations' },
    ],
    register: async (program) => (await import('./jobs-command.js')).registerJobsCommands(program),
  },
  {
    commands: [
      {
        name: 'env',
        summary:
          'stored environments of the embedded store (tenant "default"): list, set, unset, delete; secrets encrypted at rest',
      },
    ],
    register: async (program) => (await import('./env-command.js')).registerEnvCommands(program),
  },
  {
    commands: [
      {
        name: 'schedules',
        summary:
          'cron schedules of flows and suites in the embedded store (tenant "default"): list, create, pause, resume, delete, run; svc serve fires them',
      },
    ],
    register: async (program) => (await import('./schedules-command.js')).registerScheduleCommands(program),
  },
];

/**
 * The top-level command an argument list names: its first word (`svc run flow …` → `run`), or
 * the word after `help` (`svc help run` → `run`). svc's own options take no values, so the first
 * word that is not an option is the command.
 */
export function invokedCommand(args: readonly string[]): string | undefined {
  const words = args.filter((arg) => !arg.startsWith('-'));
  return words[0] === 'help' ? words[1] : words[0];
}
