import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEngine } from '@svc/engine';
import { openSqliteStore } from '@svc/engine/sqlite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnSvc } from './cli.js';

let target: Server;
let targetUrl: string;
const hits: string[] = [];
let dir: string;

beforeAll(async () => {
  target = createServer((request, response) => {
    hits.push(request.url ?? '');
    response.statusCode = request.url === '/fail' ? 500 : 200;
    response.setHeader('content-type', 'application/json').end('{"status":"HEALTHY"}');
  });
  await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
  targetUrl = `http://127.0.0.1:${(target.address() as AddressInfo).port}`;
  dir = mkdtempSync(join(tmpdir(), 'svc-schedules-cli-'));
  // Flows and a suite saved in the store the command line opens (as svc serve or svc-mcp would save them).
  const store = openSqliteStore({ path: join(dir, 'svc.db') });
  const engine = await createEngine({ store });
  const flow = (path: string, name: string) => ({
    name,
    nodes: [{ id: 'n1', name: 'Call', type: 'endpoint', config: { url: `{{env.baseUrl}}${path}` } }],
    connections: [],
  });
  const health = await engine.flows.create('default', flow('/health', 'health'));
  const broken = await engine.flows.create('default', flow('/fail', 'broken'));
  await engine.suites.create('default', { name: 'smoke', flowIds: [health.id, broken.id] });
  await engine.stop();
  await store.close();
});

afterAll(async () => {
  target.closeAllConnections();
  await new Promise((resolve) => target.close(resolve));
});

function svc(args: string[]) {
  return spawnSvc(args, { SVC_DB: join(dir, 'svc.db') }).done;
}

describe('svc schedules', () => {
  it('creates schedules, lists each with its next three due times, pauses, resumes, runs and deletes', async () => {
    expect((await svc(['env', 'set', 'staging', `baseUrl=${targetUrl}`])).code).toBe(0);
    const created = await svc([
      'schedules',
      'create',
      'weekday-health',
      '--cron',
      '30 8 * * 1-5',
      '--flow',
      'health',
      '--environment',
      'staging',
    ]);
    expect(created.stderr).toBe('');
    expect(created.code).toBe(0);
    expect(created.stdout).toMatch(
      /^created weekday-health \(sch_[a-z2-7]{20}\): next due \d{4}-\d\d-\d\d 08:30Z, \d{4}-\d\d-\d\d 08:30Z, \d{4}-\d\d-\d\d 08:30Z\n$/,
    );
    const quarter = await svc([
      'schedules',
      'create',
      'smoke-quarter-hourly',
      '--cron',
      '*/15 * * * *',
      '--suite',
      'smoke',
      '--environment',
      'staging',
      '--json',
    ]);
    const schedule = (JSON.parse(quarter.stdout) as { schedule: { nextDueTimes: string[]; target: unknown } }).schedule;
    expect(schedule.target).toMatchObject({ type: 'suite' });
    expect(schedule.nextDueTimes.map((time) => new Date(time).getUTCMinutes() % 15)).toEqual([0, 0, 0]);

    const list = await svc(['schedules', 'list']);
    expect(list.code).toBe(0);
    expect(list.stdout).toMatch(/^NAME +ID +CRON +TARGET +ENVIRONMENT +NEXT DUE \(UTC\) +LAST RUN/);
    expect(list.stdout).toMatch(/weekday-health +sch_\w+ +30 8 \* \* 1-5 +flow health +staging +(\S+ 08:30Z,? ){3}/);
    expect(list.stdout).toMatch(/smoke-quarter-hourly .*\*\/15 \* \* \* \* +suite smoke/);

    expect((await svc(['schedules', 'pause', 'weekday-health'])).stdout).toMatch(
      /^paused weekday-health .*: paused\n$/,
    );
    expect((await svc(['schedules', 'list'])).stdout).not.toContain('weekday-health');
    expect((await svc(['schedules', 'list', '--all'])).stdout).toMatch(/weekday-health .* paused/);
    expect((await svc(['schedules', 'resume', 'weekday-health'])).stdout).toMatch(/^resumed weekday-health .*next due/);

    hits.length = 0;
    const ran = await svc(['schedules', 'run', 'weekday-health']);
    expect(ran.stdout).toMatch(/^weekday-health: passed \(execution [0-9a-f-]{36}\)\n$/);
    expect(ran.code).toBe(0);
    expect(hits).toEqual(['/health']);
    const failed = await svc(['schedules', 'run', 'smoke-quarter-hourly']);
    expect(failed.stdout).toMatch(/^smoke-quarter-hourly: failed \(suite run [0-9a-f-]{36}\): HTTP_ERROR_STATUS: /);
    expect(failed.code).toBe(1);
    expect((await svc(['schedules', 'list'])).stdout).toMatch(/weekday-health .* passed \d{4}-/);

    expect((await svc(['schedules', 'delete', 'smoke-quarter-hourly'])).stdout).toMatch(
      /^deleted smoke-quarter-hourly \(sch_\w+\)\n$/,
    );
    const gone = await svc(['schedules', 'delete', 'smoke-quarter-hourly']);
    expect(gone.code).toBe(1);
    expect(gone.stderr).toMatch(/^svc: SCHEDULE_NOT_FOUND: schedule "smoke-quarter-hourly" not found/);
  });

  it('answers bad input with exit 2, the field and why, and saves nothing', async () => {
    const bad = await svc([
      'schedules',
      'create',
      'bad',
      '--cron',
      '61 * * * *',
      '--flow',
      'nope',
      '--environment',
      'prod',
    ]);
    expect(bad.code).toBe(2);
    expect(bad.stdout).toBe('');
    expect(bad.stderr).toBe(
      'svc: VALIDATION_ERROR: the schedule does not validate: cron: "61 * * * *": minute 61 is out of range (0-59); ' +
        'target.id: flow "nope" not found; environment: environment "prod" not found; svc env list (or GET /api/gateway/environments) lists them\n',
    );
    const zone = await svc([
      'schedules',
      'create',
      'bad',
      '--cron',
      '0 * * * *',
      '--flow',
      'health',
      '--timezone',
      'Nowhere/City',
    ]);
    expect(zone.code).toBe(2);
    expect(zone.stderr).toContain('timezone: "Nowhere/City" is not a time zone');
    const noTarget = await svc(['schedules', 'create', 'bad', '--cron', '0 * * * *']);
    expect(noTarget.code).toBe(2);
    expect(noTarget.stderr).toBe('svc: VALIDATION_ERROR: give one target: --flow <name|id> or --suite <name|id>\n');
    expect((await svc(['schedules', 'list', '--all', '--json'])).stdout).not.toContain('"bad"');
  });
});
