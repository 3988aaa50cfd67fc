import { SvcError, TERMINAL_STATUSES, type Engine, type ScheduleView } from '@svc/engine';
import { table } from '@svc/engine/text-table';
import type { Command } from 'commander';
import { LOCAL_TENANT, withLocalEngine } from './local-engine.js';

/** `2026-01-05 08:30Z`: short enough for three in a row. */
const short = (iso: string) => `${iso.slice(0, 16).replace('T', ' ')}Z`;

function lastRunText(schedule: ScheduleView): string {
  const run = schedule.lastRun;
  if (run === null) return '-';
  return `${run.outcome} ${short(run.at)}${run.missed > 0 ? ` (${run.missed} missed)` : ''}`;
}

/** What `svc schedules list` prints: what fires, its next three due times, and how the last run went. */
function scheduleTable(schedules: ScheduleView[]): string {
  return table([
    ['NAME', 'ID', 'CRON', 'TARGET', 'ENVIRONMENT', 'NEXT DUE (UTC)', 'LAST RUN'],
    ...schedules.map((schedule) => [
      schedule.name,
      schedule.id,
      schedule.timezone === 'UTC' ? schedule.cron : `${schedule.cron} ${schedule.timezone}`,
      `${schedule.target.type} ${schedule.targetName ?? `${schedule.target.id} (deleted)`}`,
      schedule.environment ?? '-',
      schedule.enabled ? schedule.nextDueTimes.map(short).join(', ') : 'paused',
      lastRunText(schedule),
    ]),
  ]);
}

function scheduleLine(verb: string, schedule: ScheduleView): string {
  const next = schedule.enabled ? `next due ${schedule.nextDueTimes.map(short).join(', ')}` : 'paused';
  return `${verb} ${schedule.name} (${schedule.id}): ${next}\n`;
}

interface CreateOptions {
  cron: string;
  flow?: string;
  suite?: string;
  timezone?: string;
  environment?: string;
  overlap?: string;
  description?: string;
  paused: boolean;
  json: boolean;
}

function targetOf(options: CreateOptions): { type: 'flow' | 'suite'; id: string } {
  if ((options.flow === undefined) === (options.suite === undefined)) {
    throw new SvcError('VALIDATION_ERROR', 'give one target: --flow <name|id> or --suite <name|id>', {
      details: { problems: [{ code: 'INVALID_FIELD', message: 'one of --flow, --suite', path: 'target' }] },
    });
  }
  return options.flow !== undefined ? { type: 'flow', id: options.flow } : { type: 'suite', id: options.suite! };
}

/** Waits for the run a schedule fired here to end, and answers whether it passed. */
async function awaitRun(
  engine: Engine,
  schedule: ScheduleView,
  runId: string,
  timeoutMs: number,
): Promise<ScheduleView> {
  if (schedule.target.type === 'flow') {
    const execution = await engine.waitForExecution(LOCAL_TENANT, runId, timeoutMs);
    if (!TERMINAL_STATUSES.has(execution.status)) return engine.schedules.get(LOCAL_TENANT, schedule.id);
  } else await engine.schedules.drain();
  return engine.schedules.get(LOCAL_TENANT, schedule.id);
}

/**
 * `svc schedules list|create|pause|resume|delete|run`: cron schedules of the embedded store
 * (tenant `default`). `svc serve` fires them; these commands manage them, and `run` fires one now
 * in this process and waits for its end. Exit codes: 0 done (a run passed); 1 not found, or a run
 * that failed; 2 bad input.
 */
export function registerScheduleCommands(program: Command): void {
  const schedules = program
    .command('schedules')
    .description('cron schedules of flows and suites in the embedded store (tenant "default"); svc serve fires them');

  schedules
    .command('list')
    .description('list the active schedules with their next three due times')
    .option('--all', 'paused schedules too', false)
    .option('--json', 'print exactly one JSON object: { schedules }', false)
    .action(async (options: { all: boolean; json: boolean }) => {
      process.exitCode = await withLocalEngine(async (engine) => {
        const page = await engine.schedules.list(LOCAL_TENANT, { all: options.all, limit: 200 });
        if (options.json) process.stdout.write(`${JSON.stringify({ schedules: page.items })}\n`);
        else if (page.items.length === 0)
          process.stdout.write(
            `No ${options.all ? '' : 'active '}schedules; svc schedules create <name> --cron "30 8 * * 1-5" --flow <flow> makes one.\n`,
          );
        else process.stdout.write(`${scheduleTable(page.items)}\n`);
        return 0;
      });
    });

  schedules
    .command('create')
    .description('schedule a flow or a suite on a five-field cron expression (UTC unless --timezone)')
    .argument('<name>', 'the schedule, e.g. weekday-smoke')
    .requiredOption('--cron <expression>', 'minute hour day-of-month month day-of-week, e.g. "30 8 * * 1-5"')
    .option('--flow <name|id>', 'the flow to run')
    .option('--suite <name|id>', 'the suite to run')
    .option('--timezone <zone>', 'an IANA time zone, e.g. Europe/Zurich (default UTC)')
    .option('--environment <name>', 'the stored environment the runs read as env.*')
    .option('--overlap <policy>', 'skip (default): no run while the previous one still runs; allow')
    .option('--description <text>', 'what the schedule is for')
    .option('--paused', 'create it paused', false)
    .option('--json', 'print exactly one JSON object: { schedule }', false)
    .action(async (name: string, options: CreateOptions) => {
      process.exitCode = await withLocalEngine(async (engine) => {
        const schedule = await engine.schedules.create(LOCAL_TENANT, {
          name,
          cron: options.cron,
          target: targetOf(options),
          enabled: !options.paused,
          ...(options.timezone === undefined ? {} : { timezone: options.timezone }),
          ...(options.environment === undefined ? {} : { environment: options.environment }),
          ...(options.overlap === undefined ? {} : { overlap: options.overlap }),
          ...(options.description === undefined ? {} : { description: options.description }),
        });
        process.stdout.write(options.json ? `${JSON.stringify({ schedule })}\n` : scheduleLine('created', schedule));
        return 0;
      });
    });

  for (const [verb, done, describe] of [
    ['pause', 'paused', 'pause a schedule: no run is due until it is resumed'],
    ['resume', 'resumed', 'resume a schedule: due again from the next slot after now'],
  ] as const) {
    schedules
      .command(verb)
      .description(describe)
      .argument('<schedule>', 'the schedule name or id')
      .action(async (idOrName: string) => {
        process.exitCode = await withLocalEngine(async (engine) => {
          const schedule = await engine.schedules[verb](LOCAL_TENANT, idOrName);
          process.stdout.write(scheduleLine(done, schedule));
          return 0;
        });
      });
  }

  schedules
    .command('delete')
    .description('delete a schedule (the runs it started stay readable)')
    .argument('<schedule>', 'the schedule name or id')
    .action(async (idOrName: string) => {
      process.exitCode = await withLocalEngine(async (engine) => {
        const deleted = await engine.schedules.delete(LOCAL_TENANT, idOrName);
        process.stdout.write(`deleted ${deleted.name} (${deleted.id})\n`);
        return 0;
      });
    });

  schedules
    .command('run')
    .description('fire a schedule now, in this process, and wait for the run to end')
    .argument('<schedule>', 'the schedule name or id')
    .option('--timeout <seconds>', 'how long to wait for a flow run to end', '600')
    .option('--json', 'print exactly one JSON object: { schedule, run }', false)
    .action(async (idOrName: string, options: { timeout: string; json: boolean }) => {
      process.exitCode = await withLocalEngine(async (engine) => {
        const timeoutSeconds = Number(options.timeout);
        if (!Number.isFinite(timeoutSeconds) || timeoutSeconds <= 0)
          throw new SvcError('VALIDATION_ERROR', `--timeout "${options.timeout}" is not a number of seconds`);
        const { schedule, run } = await engine.schedules.runNow(LOCAL_TENANT, idOrName);
        const after =
          run.runId === undefined ? schedule : await awaitRun(engine, schedule, run.runId, timeoutSeconds * 1000);
        const last = after.lastRun;
        if (options.json) process.stdout.write(`${JSON.stringify({ schedule: after, run })}\n`);
        else {
          const id = last?.executionId ? `execution ${last.executionId}` : `suite run ${last?.suiteRunId}`;
          const error = last?.error ? `: ${last.error.code}: ${last.error.message}` : '';
          process.stdout.write(`${after.name}: ${last?.outcome ?? run.status} (${id})${error}\n`);
        }
        return last?.outcome === 'passed' ? 0 : 1;
      });
    });
}
