import type { ScheduleView } from '@svc/engine';
import { oneLine, table } from '@svc/engine/text-table';
import { z } from 'zod';

/** What the schedule tools answer of a schedule: the REST view, which already leaves the tenant out. */
export const scheduleViewSchema = z.looseObject({ id: z.string(), name: z.string() });

/** `2026-01-05 08:30Z`: short enough for three in a row. */
const short = (iso: string) => `${iso.slice(0, 16).replace('T', ' ')}Z`;

function lastLine(schedule: ScheduleView): string {
  const run = schedule.lastRun;
  if (run === null) return '-';
  const missed = run.missed > 0 ? ` (${run.missed} missed)` : '';
  return `${run.outcome} ${short(run.at)}${missed}`;
}

/** A table of schedules: what fires, when next (three times), and how the last run went. */
export function scheduleTable(schedules: ScheduleView[]): string {
  const rows = [['NAME', 'ID', 'CRON', 'TARGET', 'NEXT DUE', 'LAST RUN']];
  for (const schedule of schedules) {
    const zone = schedule.timezone === 'UTC' ? '' : ` ${schedule.timezone}`;
    rows.push([
      oneLine(schedule.name, 40),
      schedule.id,
      `${schedule.cron}${zone}`,
      `${schedule.target.type} ${schedule.targetName ?? `${schedule.target.id} (deleted)`}`,
      schedule.enabled ? schedule.nextDueTimes.map(short).join(', ') : 'paused',
      lastLine(schedule),
    ]);
  }
  return table(rows);
}

/** One line for a saved schedule. */
export function scheduleLine(schedule: ScheduleView): string {
  const next = schedule.enabled ? `next due ${schedule.nextDueTimes.join(', ')}` : 'paused';
  return `${schedule.name} (${schedule.id}): ${schedule.cron} ${schedule.timezone}, ${schedule.target.type} ${schedule.targetName ?? schedule.target.id}${schedule.environment ? ` on ${schedule.environment}` : ''}; ${next}`;
}
