import { ALERT_DELIVERY_STATUSES, type Engine } from '@svc/engine';
import { Hono } from 'hono';
import { z } from 'zod';
import type { GatewayEnv } from '../auth/principal.js';
import { requireScope } from '../auth/require-scope.js';
import { success } from '../http/envelope.js';
import { parseRequest } from '../http/validate.js';
import { readJsonBody } from '../http/read-json-body.js';

/** `GET …/suites/{id}/alerts`: newest first, by status or check, paged like the other lists. */
export const listAlertsQuerySchema = z.object({
  status: z.enum(ALERT_DELIVERY_STATUSES).optional(),
  flowId: z.string().min(1).max(128).optional(),
  limit: z.coerce.number().int().min(1).max(200).optional(),
  cursor: z.string().min(1).max(512).optional(),
});

/**
 * Health-check suites over REST, beside the suite routes under `/api/gateway/suites/{id}`: each
 * check's state (`/health`), the alert deliveries (`/alerts`), and the suite's alert channels
 * (`/alert-channels…`). Scopes follow the suites': reading needs `suites:read`; changing a
 * channel is authoring like changing the suite, so it needs `flows:write`. A channel's secret
 * parts are never in an answer: they read `***`.
 */
export function suiteAlertRoutes(engine: Engine): Hono<GatewayEnv> {
  const app = new Hono<GatewayEnv>();

  app.get('/:id/health', requireScope('suites:read'), async (c) => {
    return success(c, await engine.health.get(c.get('principal').tenantId, c.req.param('id')));
  });

  app.get('/:id/alerts', requireScope('suites:read'), async (c) => {
    const query = parseRequest(listAlertsQuerySchema, c.req.query(), 'query');
    return success(c, await engine.health.listAlerts(c.get('principal').tenantId, c.req.param('id'), query));
  });

  app.get('/:id/alert-channels', requireScope('suites:read'), async (c) => {
    const channels = await engine.health.channels.list(c.get('principal').tenantId, c.req.param('id'));
    return success(c, { items: channels });
  });

  app.post('/:id/alert-channels', requireScope('flows:write'), async (c) => {
    const suiteId = c.req.param('id');
    const channel = await engine.health.channels.create(c.get('principal').tenantId, suiteId, await readJsonBody(c));
    c.header(
      'Location',
      `/api/gateway/suites/${encodeURIComponent(suiteId)}/alert-channels/${encodeURIComponent(channel.id)}`,
    );
    return success(c, channel, 201);
  });

  app.get('/:id/alert-channels/:channelId', requireScope('suites:read'), async (c) => {
    const { id, channelId } = c.req.param();
    return success(c, await engine.health.channels.get(c.get('principal').tenantId, id, channelId));
  });

  app.put('/:id/alert-channels/:channelId', requireScope('flows:write'), async (c) => {
    const { id, channelId } = c.req.param();
    const body = await readJsonBody(c);
    return success(c, await engine.health.channels.update(c.get('principal').tenantId, id, channelId, body));
  });

  app.delete('/:id/alert-channels/:channelId', requireScope('flows:write'), async (c) => {
    const { id, channelId } = c.req.param();
    const deleted = await engine.health.channels.delete(c.get('principal').tenantId, id, channelId);
    return success(c, { id: deleted.id, name: deleted.name, deleted: true });
  });

  return app;
}
