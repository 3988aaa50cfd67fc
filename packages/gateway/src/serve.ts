import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createAdaptorServer } from '@hono/node-server';
import {
  createEgressPolicy,
  createEngine,
  isSvcError,
  silentLogger,
  SvcError,
  systemClock,
  type Clock,
  type EgressPolicy,
  type Engine,
  type Logger,
  type Store,
} from '@svc/engine';
import type { OpenAiTestGenConfig } from '@svc/discovery';
import { createApp } from './app.js';
import type { RateLimitOptions } from './auth/rate-limit.js';
import { createGatewayAuth } from './auth/gateway-auth.js';
import { createClient, createTenant } from './auth/provision.js';
import { SCOPES } from './auth/scopes.js';
import { upgradeClientScopes } from './auth/upgrade-scopes.js';

/** The tenant a first start creates: the one the `svc` command line and local `svc-mcp` work in. */
export const BOOTSTRAP_TENANT = 'default';

export interface GatewayServerOptions {
  store: Store;
  port: number;
  host: string;
  clock?: Clock;
  logger?: Logger;
  /** `SVC_BOOTSTRAP_CLIENT_ID` / `SVC_BOOTSTRAP_CLIENT_SECRET`, for unattended first starts. */
  bootstrap?: { clientId?: string; clientSecret?: string };
  /** A per-client request limit; none when absent. */
  rateLimit?: RateLimitOptions;
  /** How long shutdown lets steps in flight commit (default 10 s). */
  shutdownGraceMs?: number;
  /** How long a worker holds an execution without renewing (`SVC_LEASE_MS`; the engine's default when absent). */
  leaseMs?: number;
  /** The `openai` test generation engine's settings (`SVC_TESTGEN_OPENAI_*`); without them it answers why it cannot run. */
  openai?: OpenAiTestGenConfig;
  /**
   * Where flows may send requests (`svc serve` passes the `service` policy with `SVC_EGRESS_ALLOW`
   * and `SVC_EGRESS_DENY`). Default: the `service` policy without rules (no loopback, private,
   * link-local or metadata address).
   */
  egress?: EgressPolicy;
  /** How often the scheduler looks for due schedules (default 1 s). */
  schedulerIntervalMs?: number;
  /** The built web app's folder, served at `/` (`svc serve` passes `packages/web/dist`). */
  webRoot?: string;
  /** The base address senders reach this service at (`SVC_PUBLIC_URL`); default the address it listens on. */
  publicUrl?: string;
}

/** What a first start on an empty store made; the secret is set only when this process made it up. */
export interface Bootstrapped {
  tenantId: string;
  clientId: string;
  clientSecret?: string;
}

export interface GatewayServer {
  url: string;
  port: number;
  engine: Engine;
  /** Set on the first start of an empty store, never again. */
  bootstrapped: Bootstrapped | undefined;
  /** Stops taking requests, lets running steps commit, stops the engine. The store stays open. */
  close(): Promise<void>;
}

/**
 * On an empty store (no tenant yet): the tenant `default` and the operator's client, with every
 * scope (`operator` included: it alone manages every tenant).
 * Two processes starting at once on one file race here; the loser finds the tenant made and
 * leaves the client to the winner.
 */
async function bootstrap(
  store: Store,
  clock: Clock,
  given: GatewayServerOptions['bootstrap'] = {},
): Promise<Bootstrapped | undefined> {
  const { clientId, clientSecret } = given;
  if ((clientId === undefined) !== (clientSecret === undefined)) {
    throw new SvcError('CONFIG_ERROR', 'set both SVC_BOOTSTRAP_CLIENT_ID and SVC_BOOTSTRAP_CLIENT_SECRET, or neither');
  }
  if ((await store.tenants.list()).length > 0) return undefined;
  try {
    await createTenant(store, clock, { id: BOOTSTRAP_TENANT, name: 'Default' });
  } catch (error) {
    if (isSvcError(error) && error.code === 'CONFLICT') return undefined;
    throw error;
  }
  const made = await createClient(store, clock, {
    tenantId: BOOTSTRAP_TENANT,
    name: 'admin',
    scopes: SCOPES,
    ...(clientId === undefined ? {} : { clientId, secret: clientSecret }),
  });
  return {
    tenantId: BOOTSTRAP_TENANT,
    clientId: made.client.clientId,
    ...(clientSecret === undefined ? { clientSecret: made.clientSecret } : {}),
  };
}

/**
 * One process serving REST and running executions on a store: the engine becomes a worker (it
 * also resumes what an earlier process left), the gateway listens on `host:port` (0 picks a port).
 * @example
 * const server = await startGatewayServer({ store: openSqliteStore({ path: '.svc/svc.db' }), port: 8080, host: '127.0.0.1' });
 * console.log(server.url);
 * await server.close();
 */
export async function startGatewayServer(options: GatewayServerOptions): Promise<GatewayServer> {
  const clock = options.clock ?? systemClock;
  const logger = options.logger ?? silentLogger;
  const { store } = options;
  const egress = options.egress ?? createEgressPolicy({ mode: 'service' });
  const bootstrapped = await bootstrap(store, clock, options.bootstrap);
  const upgrade = await upgradeClientScopes(store, {
    bootstrapTenant: BOOTSTRAP_TENANT,
    ...(options.bootstrap?.clientId ? { bootstrapClientId: options.bootstrap.clientId } : {}),
  });
  if (upgrade.operatorGrantedTo !== undefined || upgrade.adminRemovedFrom.length > 0) {
    logger.warn('client scopes upgraded: admin is now bounded to its own tenant and operator manages every tenant', {
      ...upgrade,
    });
  }
  let listening = `http://127.0.0.1:${options.port}`;
  const engine = await createEngine({
    store,
    clock,
    logger,
    egress,
    publicUrl: options.publicUrl ?? (() => listening),
    ...(options.leaseMs === undefined ? {} : { leaseMs: options.leaseMs }),
    ...(options.schedulerIntervalMs === undefined ? {} : { schedulerIntervalMs: options.schedulerIntervalMs }),
  });
  const auth = await createGatewayAuth({ store, clock });
  const app = createApp({
    engine,
    authenticator: auth,
    tokenGrant: auth,
    store,
    clock,
    logger,
    ...(options.openai ? { openai: options.openai } : {}),
    ...(options.webRoot ? { webRoot: options.webRoot } : {}),
    ...(options.rateLimit ? { rateLimit: options.rateLimit } : {}),
  });

  const server = createAdaptorServer({ fetch: app.fetch }) as Server;
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port, options.host, () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (error) {
    await engine.stop();
    throw error;
  }
  const { port } = server.address() as AddressInfo;
  const host = options.host.includes(':') ? `[${options.host}]` : options.host;
  // 0.0.0.0 listens everywhere but is no address to send to: the loopback one stands for it.
  listening = `http://${options.host === '0.0.0.0' ? '127.0.0.1' : options.host === '::' ? '[::1]' : host}:${port}`;
  engine.startWorker();
  // Each process on the store runs one: every due run is claimed in the store, so it fires once.
  engine.scheduler.start();

  let closing: Promise<void> | undefined;
  return {
    url: `http://${host}:${port}`,
    port,
    engine,
    bootstrapped,
    close() {
      closing ??= (async () => {
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeIdleConnections();
        await engine.stop({ graceMs: options.shutdownGraceMs ?? 10_000 });
        // Requests still held (a run call waiting for its end) are cut: their runs are durable and
        // another start resumes them.
        server.closeAllConnections();
        await closed;
      })();
      return closing;
    },
  };
}
