import { createStderrLogger, SvcError } from '@svc/engine';
import { defaultDatabasePath, openSqliteStore, synchronousFromEnv } from '@svc/engine/sqlite';
import { startGatewayServer, type Bootstrapped } from '../serve.js';

export interface ServeOptions {
  port: number;
  host: string;
}

function announce(made: Bootstrapped): string {
  const lines = [`svc: first start: created tenant "${made.tenantId}" and the admin client ${made.clientId} (all scopes)`];
  if (made.clientSecret !== undefined) {
    lines.push(`svc: client secret (shown this once, store it now): ${made.clientSecret}`);
  }
  return `${lines.join('\n')}\n`;
}

/** `SVC_RATE_LIMIT_PER_MINUTE`: requests per minute per client; unset or 0 for no limit. */
function rateLimitFromEnv(env: NodeJS.ProcessEnv): { requestsPerMinute: number } | undefined {
  const value = env.SVC_RATE_LIMIT_PER_MINUTE?.trim();
  if (value === undefined || value === '' || value === '0') return undefined;
  const requestsPerMinute = Number(value);
  if (!Number.isInteger(requestsPerMinute) || requestsPerMinute < 0) {
    throw new SvcError('CONFIG_ERROR', `SVC_RATE_LIMIT_PER_MINUTE must be a whole number of requests, not "${value}"`);
  }
  return { requestsPerMinute };
}

/**
 * `svc serve`: REST and execution in one process on the embedded store, until SIGTERM or SIGINT.
 * Exit codes: 0 after a clean shutdown, 1 when it cannot start.
 */
export async function serveCommand(options: ServeOptions, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const logger = createStderrLogger(env.SVC_LOG_LEVEL === 'debug' ? 'debug' : 'warn');
  const limit = rateLimitFromEnv(env);
  const store = openSqliteStore({ path: defaultDatabasePath(env), synchronous: synchronousFromEnv(env) });
  let server;
  try {
    server = await startGatewayServer({
      store,
      port: options.port,
      host: options.host,
      logger,
      ...(limit ? { rateLimit: limit } : {}),
      bootstrap: { clientId: env.SVC_BOOTSTRAP_CLIENT_ID || undefined, clientSecret: env.SVC_BOOTSTRAP_CLIENT_SECRET || undefined },
    });
  } catch (error) {
    await store.close();
    throw error;
  }
  // Listening for the signals before saying where it serves: whoever reads that line may signal at once.
  const stopSignal = new Promise<NodeJS.Signals>((resolve) => {
    process.once('SIGTERM', () => resolve('SIGTERM'));
    process.once('SIGINT', () => resolve('SIGINT'));
  });
  if (server.bootstrapped !== undefined) process.stderr.write(announce(server.bootstrapped));
  process.stderr.write(`svc: serving on ${server.url}\n`);

  const signal = await stopSignal;
  process.stderr.write(`svc: ${signal}: stopping (running steps commit first)\n`);
  await server.close();
  await store.close();
  process.stderr.write('svc: stopped\n');
  return 0;
}
