import type { Engine } from '@svc/engine';
import { Hono, type Context } from 'hono';
import type { GatewayEnv } from '../auth/principal.js';
import { assertScope, requireScope } from '../auth/require-scope.js';
import { grants, type Scope } from '../auth/scopes.js';
import { success } from '../http/envelope.js';
import { listSchedulesQuerySchema, parseRequest } from '../http/index.js';
import { readJsonBody } from '../http/read-json-body.js';

/**
 * `/api/schedules…`: cron schedules of flows and suites. Bodies are validated by the engine's
 * `scheduleBodySchema` (the MCP tools use the same); every schedule is answered with its next
 * three due times. A schedule is named by id or by exact name in the path.
 */
export function scheduleRoutes(engine: Engine): Hono<GatewayEnv> {
  const app = new Hono<GatewayEnv>();

  /**
   * A schedule that names a stored environment starts runs with it (its secrets included), with
   * nobody asking for each run: saving, resuming or running one needs `executions:run` as well.
   */
  const assertMayRunWith = (scopes: ReadonlySet<Scope>, environment: unknown, name: unknown) => {
    if (typeof environment !== 'string' || environment === '') return;
    assertScope(scopes, 'executions:run', {
      reason: `the schedule${typeof name === 'string' ? ` "${name}"` : ''} starts runs with the stored environment "${environment}"`,
      path: 'environment',
    });
  };
  const assertMayRunSaved = async (c: Context<GatewayEnv>) => {
    const { tenantId, scopes } = c.get('principal');
    if (grants(scopes, 'executions:run')) return;
    const schedule = await engine.schedules.get(tenantId, c.req.param('id')!);
    assertMayRunWith(scopes, schedule.environment, schedule.name);
  };
  const bodyOf = async (c: Context<GatewayEnv>) => {
    const body = await readJsonBody(c);
    const { environment, name } = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
    assertMayRunWith(c.get('principal').scopes, environment, name);
    return body;
  };

  app.get('/', requireScope('schedules:read'), async (c) => {
    const query = parseRequest(listSchedulesQuerySchema, c.req.query(), 'query');
    return success(c, await engine.schedules.list(c.get('principal').tenantId, query));
  });

  app.post('/', requireScope('schedules:write'), async (c) => {
    const schedule = await engine.schedules.create(c.get('principal').tenantId, await bodyOf(c));
    c.header('Location', `/api/schedules/${encodeURIComponent(schedule.id)}`);
    return success(c, schedule, 201);
  });

  app.get('/:id', requireScope('schedules:read'), async (c) => {
    return success(c, await engine.schedules.get(c.get('principal').tenantId, c.req.param('id')));
  });

  app.put('/:id', requireScope('schedules:write'), async (c) => {
    const schedule = await engine.schedules.update(c.get('principal').tenantId, c.req.param('id'), await bodyOf(c));
    return success(c, schedule);
  });

  app.delete('/:id', requireScope('schedules:write'), async (c) => {
    const deleted = await engine.schedules.delete(c.get('principal').tenantId, c.req.param('id'));
    return success(c, { id: deleted.id, name: deleted.name, deleted: true });
  });

  app.post('/:id/pause', requireScope('schedules:write'), async (c) => {
    return success(c, await engine.schedules.pause(c.get('principal').tenantId, c.req.param('id')));
  });

  app.post('/:id/resume', requireScope('schedules:write'), async (c) => {
    await assertMayRunSaved(c);
    return success(c, await engine.schedules.resume(c.get('principal').tenantId, c.req.param('id')));
  });

  // Answers as soon as the run started (202): a flow's execution or a suite's run goes on, and
  // its outcome is read on the schedule's lastRun (or the execution).
  app.post('/:id/run', requireScope('schedules:write'), async (c) => {
    await assertMayRunSaved(c);
    const { schedule, run } = await engine.schedules.runNow(c.get('principal').tenantId, c.req.param('id'));
    return success(c, { schedule, run }, 202);
  });

  return app;
}
