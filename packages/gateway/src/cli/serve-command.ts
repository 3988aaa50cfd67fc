import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { openAiConfigOf } from '@svc/discovery';
import { createStderrLogger, egressPolicyOf, loadConfig } from '@svc/engine';
import { openConfiguredStore } from '@svc/engine/open-store';
import { startGatewayServer, type Bootstrapped } from '../serve.js';

/**
 * The web app that `npm run build` makes in packages/web/dist. This module runs from
 * packages/gateway/dist/cli, or bundled from packages/gateway/dist/bundle/chunks: the first of
 * those places' web/dist that holds an index.html (the gateway then says when it is not built).
 */
function webAppRoot(): string {
  const candidates = ['../../../web/dist/', '../../../../web/dist/'].map((path) =>
    fileURLToPath(new URL(path, import.meta.url)),
  );
  return candidates.find((folder) => existsSync(join(folder, 'index.html'))) ?? candidates[0]!;
}

export interface ServeOptions {
  port: number;
  host: string;
  /** The store, as `SVC_DB` takes it (a SQLite file or a `postgres://` URL); wins over `SVC_DB`. */
  db?: string;
}

function announce(made: Bootstrapped): string {
  const lines = [
    `svc: first start: created tenant "${made.tenantId}" and the admin client ${made.clientId} (all scopes)`,
  ];
  if (made.clientSecret !== undefined) {
    lines.push(`svc: client secret (shown this once, store it now): ${made.clientSecret}`);
  }
  return `${lines.join('\n')}\n`;
}

/**
 * After each full collection V8 lets the old generation grow to up to four times what survived it
 * when the machine has memory to spare. A service under steady load then holds several times what
 * it uses: about 25 MiB live, 130 MiB of old generation, at a thousand webhook-triggered
 * executions a second. Growing by half instead keeps `svc serve` near 150 MiB under that load for
 * the same CPU time (`npm run bench`, webhook-triggered executions). A growth given to Node on its
 * command line (`node --heap-growing-percent=N …/svc.js serve`; NODE_OPTIONS does not take it) is
 * left as it is.
 */
const HEAP_GROWING_PERCENT = 50;

function limitHeapGrowth(): void {
  if (!process.execArgv.some((arg) => arg.startsWith('--heap-growing-percent')))
    setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
}

/**
 * `svc serve`: REST and execution in one process on the store (`--db`, else `SVC_DB`), until SIGTERM
 * or SIGINT.
 * Exit codes: 0 after a clean shutdown, 1 when it cannot start.
 */
export async function serveCommand(options: ServeOptions, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const config = loadConfig(options.db === undefined ? env : { ...env, SVC_DB: options.db });
  limitHeapGrowth();
  const logger = createStderrLogger({ level: config.logLevel, format: config.logFormat });
  const store = await openConfiguredStore(config, logger);
  let server;
  try {
    server = await startGatewayServer({
      store,
      port: options.port,
      host: options.host,
      logger,
      leaseMs: config.leaseMs,
      ...(config.publicUrl === undefined ? {} : { publicUrl: config.publicUrl }),
      egress: egressPolicyOf(config, 'service'),
      openai: openAiConfigOf(config),
      ...(config.rateLimitPerMinute === undefined
        ? {}
        : { rateLimit: { requestsPerMinute: config.rateLimitPerMinute } }),
      bootstrap: { clientId: config.bootstrapClientId, clientSecret: config.bootstrapClientSecret },
      webRoot: webAppRoot(),
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
