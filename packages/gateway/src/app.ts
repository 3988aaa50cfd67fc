import {
  createCatalogService,
  createDiscoveryService,
  createTestGenerationService,
  type CatalogService,
  type OpenAiTestGenConfig,
} from '@svc/discovery';
import { SvcError, silentLogger, systemClock, type Clock, type Engine, type Logger, type Store } from '@svc/engine';
import { Hono } from 'hono';
import { compress } from 'hono/compress';
import { authenticate } from './auth/authenticate.js';
import type { ClientCredentialsGrant } from './auth/gateway-auth.js';
import type { Authenticator, GatewayEnv } from './auth/principal.js';
import { rateLimit, type RateLimitOptions } from './auth/rate-limit.js';
import { createTokenThrottle, type TokenThrottleOptions } from './auth/token-throttle.js';
import { createErrorHandler } from './errors/on-error.js';
import { bodyLimit } from './http/body-limit.js';
import { failure } from './http/envelope.js';
import { webApp } from './http/web-app.js';
import { buildOpenApiDocument } from './openapi/openapi-document.js';
import { backofficeRoutes } from './routes/backoffice.js';
import { catalogRoutes } from './routes/catalog.js';
import { discoveryRoutes } from './routes/discovery.js';
import { executionRoutes } from './routes/executions.js';
import { flowRoutes } from './routes/flows.js';
import { healthRoutes } from './routes/health.js';
import { oauthTokenRoutes } from './routes/oauth-token.js';
import { scheduleRoutes } from './routes/schedules.js';
import { suiteRoutes } from './routes/suites.js';
import { suiteAlertRoutes } from './routes/suite-alerts.js';
import { environmentRoutes } from './routes/environments.js';
import { testgenRoutes } from './routes/testgen.js';
import { webhookRoutes } from './routes/webhooks.js';

export interface AppDeps {
  engine: Engine;
  /** Who a request's credentials belong to; `createGatewayAuth` is the real one. */
  authenticator: Authenticator;
  /** Serves `POST /oauth/token` when given; `createGatewayAuth` is one too. */
  tokenGrant?: ClientCredentialsGrant;
  /** Serves `/api/backoffice/…` (tenants and clients) when given. */
  store?: Store;
  /** Serves `/api/gateway/catalog…`, test generation and discovery; by default the catalog of `store`, when a store is given. */
  catalog?: CatalogService;
  /** The `openai` test generation engine's settings (`openAiConfigOf`); without them it answers why it cannot run. */
  openai?: OpenAiTestGenConfig;
  /** The time that client lifecycle stamps follow (default the system's). */
  clock?: Clock;
  logger?: Logger;
  /** A per-client limit on `/api/*` requests (429 with `Retry-After` past it); none when absent. */
  rateLimit?: RateLimitOptions;
  /** Limits on failed `POST /oauth/token` attempts per (client id, address) and per address (429 past them); on by default, `false` turns it off. */
  tokenThrottle?: TokenThrottleOptions | false;
  /** Largest request body accepted (default 2 MiB: a flow of 1,000 nodes with configs fits). */
  maxBodyBytes?: number;
  /** The built web app's folder (`packages/web/dist`), served at `/`; none when absent. */
  webRoot?: string;
  /** How long a run call waits for the end unless `?waitMs=` says (default 30 s). */
  defaultRunWaitMs?: number;
  /** The cap on `?waitMs=` (default 120 s). */
  maxRunWaitMs?: number;
}

export const DEFAULT_MAX_BODY_BYTES = 2 * 1024 * 1024;

/**
 * The REST gateway as a Hono app: every answer in the spec's envelope, errors mapped to statuses
 * in `errors/error-table.ts` and answered by one `onError`.
 * @example
 * const auth = await createGatewayAuth({ store, clock });
 * const app = createApp({ engine, authenticator: auth, tokenGrant: auth });
 * const response = await app.request('/api/gateway/flows', { headers: { 'X-API-Key': secret } });
 */
export function createApp(deps: AppDeps): Hono<GatewayEnv> {
  const logger = deps.logger ?? silentLogger;
  const maxBodyBytes = deps.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const app = new Hono<GatewayEnv>();

  app.onError(createErrorHandler(logger));
  app.notFound((c) => failure(c, 404, 'NOT_FOUND', `no route for ${c.req.method} ${c.req.path}`));

  app.use(
    '*',
    bodyLimit({
      maxSize: maxBodyBytes,
      onError: () => {
        throw new SvcError('PAYLOAD_TOO_LARGE', `the request body is larger than ${maxBodyBytes} bytes`);
      },
    }),
  );

  // Public, and registered before the auth middleware, which it therefore never reaches.
  // Built on the first request for it: most services are never asked.
  let openApi: Record<string, unknown> | undefined;
  app.get('/api/openapi.json', (c) => c.json((openApi ??= buildOpenApiDocument())));
  app.route('/health', healthRoutes({ engine: deps.engine, ...(deps.store ? { store: deps.store } : {}) }));
  if (deps.tokenGrant !== undefined) {
    const throttle =
      deps.tokenThrottle === false
        ? undefined
        : createTokenThrottle(deps.tokenThrottle ?? {}, deps.clock ?? systemClock);
    app.route('/oauth/token', oauthTokenRoutes(deps.tokenGrant, throttle === undefined ? {} : { throttle }));
  }
  // Public: a webhook's sender holds no credentials of svc; the node's verification is the lock.
  app.route('/webhooks', webhookRoutes(deps.engine));
  app.use('/api/*', authenticate(deps.authenticator));
  if (deps.rateLimit !== undefined) app.use('/api/*', rateLimit(deps.rateLimit, deps.clock ?? systemClock));
  app.route(
    '/api/gateway/flows',
    flowRoutes({
      engine: deps.engine,
      defaultRunWaitMs: deps.defaultRunWaitMs ?? 30_000,
      maxRunWaitMs: deps.maxRunWaitMs ?? 120_000,
    }),
  );
  app.route('/api/gateway/executions', executionRoutes(deps.engine, { maxWaitMs: deps.maxRunWaitMs ?? 120_000 }));
  app.route('/api/gateway/suites', suiteRoutes(deps.engine));
  app.route('/api/gateway/suites', suiteAlertRoutes(deps.engine));
  app.route('/api/gateway/environments', environmentRoutes(deps.engine));
  app.route('/api/schedules', scheduleRoutes(deps.engine));
  const catalog =
    deps.catalog ??
    (deps.store
      ? createCatalogService({ repository: deps.store.catalog, clock: deps.clock ?? systemClock })
      : undefined);
  if (catalog !== undefined) {
    app.route('/api/gateway/catalog', catalogRoutes(catalog));
    const testgen = createTestGenerationService({
      catalog,
      jobs: deps.engine.jobs,
      flows: deps.engine.flows,
      suites: deps.engine.suites,
    });
    app.route('/api/gateway/testgen', testgenRoutes(testgen, deps.openai !== undefined ? { openai: deps.openai } : {}));
    app.route(
      '/api/gateway/discovery',
      discoveryRoutes(createDiscoveryService({ catalog, flows: deps.engine.flows, clock: deps.clock ?? systemClock })),
    );
  }
  if (deps.store !== undefined)
    app.route('/api/backoffice', backofficeRoutes({ store: deps.store, clock: deps.clock ?? systemClock }));
  // Last: every GET that no route above answered, outside /api, /oauth, /webhooks and /health.
  if (deps.webRoot !== undefined) {
    app.get('*', compress(), webApp(deps.webRoot));
  }
  return app;
}
