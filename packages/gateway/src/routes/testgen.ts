import { startTestGenerationSchema, type OpenAiTestGenConfig, type TestGenerationService } from '@svc/discovery';
import { Hono } from 'hono';
import type { GatewayEnv } from '../auth/principal.js';
import { requireScope } from '../auth/require-scope.js';
import { success } from '../http/envelope.js';
import { parseRequest, publicJob } from '../http/index.js';
import { readJsonBody } from '../http/read-json-body.js';

/**
 * `/api/gateway/testgen…`: start a test generation for a catalog endpoint (a job, answered 202
 * at once) and read it. Over REST the `sampling` engine cannot run (no MCP client to ask), so it
 * answers `SAMPLING_UNAVAILABLE`.
 */
export function testgenRoutes(
  testgen: TestGenerationService,
  engines: { openai?: OpenAiTestGenConfig } = {},
): Hono<GatewayEnv> {
  const app = new Hono<GatewayEnv>();

  app.post('/jobs', requireScope('catalog:write'), async (c) => {
    const body = parseRequest(startTestGenerationSchema, await readJsonBody(c), 'body');
    const job = await testgen.start(
      c.get('principal').tenantId,
      body,
      engines.openai !== undefined ? { openai: engines.openai } : {},
    );
    c.header('Location', `/api/gateway/testgen/jobs/${encodeURIComponent(job.id)}`);
    return success(c, publicJob(job), 202);
  });

  app.get('/jobs/:id', requireScope('catalog:read'), async (c) => {
    return success(c, publicJob(await testgen.get(c.get('principal').tenantId, c.req.param('id'))));
  });

  return app;
}
