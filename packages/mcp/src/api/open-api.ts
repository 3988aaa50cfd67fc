import { createStderrLogger, loadConfig, type Logger, type SvcConfig } from '@svc/engine';
import { createRemoteApi } from './remote-api.js';
import type { SvcApi } from './svc-api.js';

/**
 * The API `svc-mcp` serves: remote when `SVC_API_URL` is set, else the engine in this process on
 * the embedded store. The local side loads the SQLite driver, so a remote server never does.
 * @example
 * const api = await openSvcApi(loadConfig(process.env));
 * await buildServer(api).connect(new StdioServerTransport());
 */
export async function openSvcApi(
  config: SvcConfig = loadConfig(process.env),
  options: { logger?: Logger } = {},
): Promise<SvcApi> {
  if (config.apiUrl !== undefined) return createRemoteApi({ baseUrl: config.apiUrl, apiKey: config.apiKey });
  const { openLocalApi } = await import('./local-api.js');
  return openLocalApi(
    config,
    options.logger ?? createStderrLogger({ level: config.logLevel, format: config.logFormat }),
  );
}
