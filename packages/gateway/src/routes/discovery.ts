import { planRoadmapBodySchema, scaffoldFlowBodySchema, type DiscoveryService } from '@svc/discovery';
import { Hono } from 'hono';
import type { GatewayEnv } from '../auth/principal.js';
import { requireScope } from '../auth/require-scope.js';
import { success } from '../http/envelope.js';
import { parseRequest } from '../http/index.js';
import { readJsonBody } from '../http/read-json-body.js';

/**
 * `/api/gateway/discovery…`: plan a requirement against the tenant's catalog (a roadmap, nothing
 * saved), and scaffold a roadmap or a requirement into a saved flow. Scaffolding reads the
 * catalog and writes a flow, so it needs both `catalog:read` and `flows:write`.
 */
export function discoveryRoutes(discovery: DiscoveryService): Hono<GatewayEnv> {
  const app = new Hono<GatewayEnv>();

  app.post('/roadmaps', requireScope('catalog:read'), async (c) => {
    const body = parseRequest(planRoadmapBodySchema, await readJsonBody(c), 'body');
    return success(c, await discovery.plan(c.get('principal').tenantId, body));
  });

  app.post('/scaffolds', requireScope('catalog:read'), requireScope('flows:write'), async (c) => {
    const body = parseRequest(scaffoldFlowBodySchema, await readJsonBody(c), 'body');
    const result = await discovery.scaffold(c.get('principal').tenantId, body);
    c.header('Location', `/api/gateway/flows/${encodeURIComponent(result.flow.id)}`);
    return success(c, result, 201);
  });

  return app;
}
