import type { Engine } from '@svc/engine';
import { Hono } from 'hono';
import type { GatewayEnv } from '../auth/principal.js';
import { requireScope } from '../auth/require-scope.js';
import { success } from '../http/envelope.js';
import { readJsonBody } from '../http/read-json-body.js';

/**
 * `/api/gateway/environments…`: a tenant's stored environments. Bodies are validated by the
 * engine's `environmentBodySchema` (the MCP tools use the same). Secret values are never in an
 * answer: they read `***`, and a PUT that sends `***` back keeps the stored value.
 */
export function environmentRoutes(engine: Engine): Hono<GatewayEnv> {
  const app = new Hono<GatewayEnv>();

  app.get('/', requireScope('environments:read'), async (c) => {
    const environments = await engine.environments.list(c.get('principal').tenantId);
    return success(c, { items: environments });
  });

  app.post('/', requireScope('environments:write'), async (c) => {
    const environment = await engine.environments.create(c.get('principal').tenantId, await readJsonBody(c));
    c.header('Location', `/api/gateway/environments/${encodeURIComponent(environment.id)}`);
    return success(c, environment, 201);
  });

  app.get('/:id', requireScope('environments:read'), async (c) => {
    return success(c, await engine.environments.get(c.get('principal').tenantId, c.req.param('id')));
  });

  app.put('/:id', requireScope('environments:write'), async (c) => {
    const environment = await engine.environments.update(
      c.get('principal').tenantId,
      c.req.param('id'),
      await readJsonBody(c),
    );
    return success(c, environment);
  });

  app.delete('/:id', requireScope('environments:write'), async (c) => {
    const deleted = await engine.environments.delete(c.get('principal').tenantId, c.req.param('id'));
    return success(c, { id: deleted.id, name: deleted.name, deleted: true });
  });

  return app;
}
