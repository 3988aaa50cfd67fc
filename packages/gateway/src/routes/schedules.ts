import { Hono } from 'hono';
import type { GatewayEnv } from '../auth/principal.js';
import { requireScope } from '../auth/require-scope.js';
import { success } from '../http/envelope.js';

/** `/api/schedules`: no schedules exist yet, so the list of active ones is empty. */
export function scheduleRoutes(): Hono<GatewayEnv> {
  const app = new Hono<GatewayEnv>();
  app.get('/', requireScope('schedules:read'), (c) => success(c, { items: [], nextCursor: null }));
  return app;
}
