import type { Engine } from '@svc/engine';
import { Hono } from 'hono';
import type { GatewayEnv } from '../auth/principal.js';
import { requireScope } from '../auth/require-scope.js';
import { success } from '../http/envelope.js';

/** `/api/gateway/executions/{id}`: an execution with its trace, status and latencies. */
export function executionRoutes(engine: Engine): Hono<GatewayEnv> {
  const app = new Hono<GatewayEnv>();
  app.get('/:id', requireScope('flows:read'), async (c) => {
    return success(c, await engine.getExecution(c.get('principal').tenantId, c.req.param('id')));
  });
  return app;
}
