import type { Engine } from '@svc/engine';
import { Hono } from 'hono';
import type { GatewayEnv } from '../auth/principal.js';
import { requireScope } from '../auth/require-scope.js';
import { success } from '../http/envelope.js';
import { listSuitesQuerySchema, parseRequest, runSuiteBodySchema, upsertQuerySchema } from '../http/index.js';
import { readJsonBody } from '../http/read-json-body.js';
import { resolveRestRunEnvironment } from './run-environment.js';
import { assertMaySaveUnattended } from './unattended-save.js';

/**
 * `/api/gateway/suites…`: list, read, create, delete and run suites.
 *
 * Scopes: reading needs `suites:read` and running `suites:run`. Creating and deleting a suite
 * need `flows:write`: a suite decides which flows a CI gate runs, so changing it is authoring,
 * and a pipeline's client that holds only `suites:run` cannot change what its gate checks.
 */
export function suiteRoutes(engine: Engine): Hono<GatewayEnv> {
  const app = new Hono<GatewayEnv>();

  app.get('/', requireScope('suites:read'), async (c) => {
    const query = parseRequest(listSuitesQuerySchema, c.req.query(), 'query');
    return success(c, await engine.suites.list(c.get('principal').tenantId, query));
  });

  app.post('/', requireScope('flows:write'), async (c) => {
    if (parseRequest(upsertQuerySchema, c.req.query(), 'query').upsert === true) {
      // Suites as code: the suite of that name is replaced, or left as it is when nothing changed.
      const body = await readJsonBody(c);
      await assertMaySaveUnattended(engine, c.get('principal'), async () => {
        const name = typeof body === 'object' && body !== null ? (body as { name?: unknown }).name : undefined;
        const existing =
          typeof name === 'string' ? await engine.suites.findByName(c.get('principal').tenantId, name) : undefined;
        return existing === undefined ? undefined : { type: 'suite', id: existing.id };
      });
      const { suite, created } = await engine.suites.upsert(c.get('principal').tenantId, body);
      if (created) c.header('Location', `/api/gateway/suites/${encodeURIComponent(suite.id)}`);
      return success(c, suite, created ? 201 : 200);
    }
    const suite = await engine.suites.create(c.get('principal').tenantId, await readJsonBody(c));
    c.header('Location', `/api/gateway/suites/${encodeURIComponent(suite.id)}`);
    return success(c, suite, 201);
  });

  app.get('/:id', requireScope('suites:read'), async (c) => {
    return success(c, await engine.suites.get(c.get('principal').tenantId, c.req.param('id')));
  });

  app.delete('/:id', requireScope('flows:write'), async (c) => {
    const id = c.req.param('id');
    await engine.suites.delete(c.get('principal').tenantId, id);
    return success(c, { id, deleted: true });
  });

  app.post('/:id/run', requireScope('suites:run'), async (c) => {
    const { tenantId, clientId } = c.get('principal');
    const body = parseRequest(runSuiteBodySchema, (await readJsonBody(c)) ?? {}, 'body');
    const { env, secretKeys } = await resolveRestRunEnvironment(engine, c.get('principal'), {
      env: body.env,
      environment: body.environment,
    });
    // The run is answered whole, when its last flow has ended; a failing suite is still a 200:
    // the request succeeded and the KPIs say how the flows did.
    const result = await engine.suites.run(tenantId, c.req.param('id'), {
      env,
      secretKeys,
      ...(body.failFast === undefined ? {} : { failFast: body.failFast }),
      ...(body.concurrency === undefined ? {} : { concurrency: body.concurrency }),
      trigger: { type: 'api', clientId },
    });
    return success(c, result);
  });

  return app;
}
