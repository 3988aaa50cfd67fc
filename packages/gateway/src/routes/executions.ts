import type { Engine } from '@svc/engine';
import { Hono } from 'hono';
import type { GatewayEnv } from '../auth/principal.js';
import { requireScope } from '../auth/require-scope.js';
import { success } from '../http/envelope.js';
import { listAllExecutionsQuerySchema, parseRequest, runQuerySchema } from '../http/index.js';

export interface ExecutionRoutesOptions {
  /** The longest a read may hold the request open waiting for the end (`?waitMs=`). */
  maxWaitMs?: number;
}

/**
 * `/api/gateway/executions…`: the tenant's executions, newest first (of every flow, or of one, or
 * with one status); an execution with its trace, status and latencies; its cancellation.
 */
export function executionRoutes(engine: Engine, options: ExecutionRoutesOptions = {}): Hono<GatewayEnv> {
  const app = new Hono<GatewayEnv>();
  app.get('/', requireScope('flows:read'), async (c) => {
    const query = parseRequest(listAllExecutionsQuerySchema, c.req.query(), 'query');
    return success(c, await engine.listExecutions(c.get('principal').tenantId, query));
  });
  app.get('/:id', requireScope('flows:read'), async (c) => {
    const { tenantId } = c.get('principal');
    // `?waitMs=` holds the answer until the execution ends or the wait passes, so a client
    // following a run asks once per wait instead of polling.
    const { waitMs } = parseRequest(runQuerySchema, c.req.query(), 'query');
    if (waitMs !== undefined && waitMs > 0) {
      return success(
        c,
        await engine.waitForExecution(tenantId, c.req.param('id'), Math.min(waitMs, options.maxWaitMs ?? 120_000)),
      );
    }
    return success(c, await engine.getExecution(tenantId, c.req.param('id')));
  });
  app.post('/:id/cancel', requireScope('executions:run'), async (c) => {
    return success(c, await engine.cancelExecution(c.get('principal').tenantId, c.req.param('id')));
  });
  return app;
}
