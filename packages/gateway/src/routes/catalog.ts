import { importOpenApiBodySchema, listEndpointsQuerySchema, type CatalogService } from '@svc/discovery';
import { Hono } from 'hono';
import type { GatewayEnv } from '../auth/principal.js';
import { requireScope } from '../auth/require-scope.js';
import { success } from '../http/envelope.js';
import { parseRequest } from '../http/index.js';
import { readJsonBody } from '../http/read-json-body.js';

/** `/api/gateway/catalog…`: import OpenAPI documents into the tenant's catalog, list and read endpoints. */
export function catalogRoutes(catalog: CatalogService): Hono<GatewayEnv> {
  const app = new Hono<GatewayEnv>();

  app.post('/import', requireScope('catalog:write'), async (c) => {
    const body = parseRequest(importOpenApiBodySchema, await readJsonBody(c), 'body');
    const result = await catalog.importOpenApi(c.get('principal').tenantId, body.document, {
      ...(body.name ? { name: body.name } : {}),
      ...(body.fileName ? { fileName: body.fileName } : {}),
    });
    return success(c, result);
  });

  app.get('/endpoints', requireScope('catalog:read'), async (c) => {
    const query = parseRequest(listEndpointsQuerySchema, c.req.query(), 'query');
    return success(c, await catalog.listEndpoints(c.get('principal').tenantId, query));
  });

  app.get('/endpoints/:id', requireScope('catalog:read'), async (c) => {
    return success(c, await catalog.getEndpoint(c.get('principal').tenantId, c.req.param('id')));
  });

  return app;
}
