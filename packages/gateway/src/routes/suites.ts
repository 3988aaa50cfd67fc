import { SvcError } from '@svc/engine';
import { Hono } from 'hono';
import type { GatewayEnv } from '../auth/principal.js';
import { requireScope } from '../auth/require-scope.js';
import { success } from '../http/envelope.js';

/**
 * `/api/gateway/suites`: the engine has no suites yet, so the list is empty and every suite id is
 * unknown. The routes, scopes and answers are the ones suites will keep.
 */
export function suiteRoutes(): Hono<GatewayEnv> {
  const app = new Hono<GatewayEnv>();
  app.get('/', requireScope('suites:read'), (c) => success(c, { items: [], nextCursor: null }));
  app.post('/:id/run', requireScope('suites:run'), (c) => {
    throw new SvcError('SUITE_NOT_FOUND', `suite "${c.req.param('id')}" not found`, { status: 404 });
  });
  return app;
}
