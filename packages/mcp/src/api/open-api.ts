import { createRemoteApi } from './remote-api.js';
import type { SvcApi } from './svc-api.js';

/**
 * The API `svc-mcp` serves: remote when `SVC_API_URL` is set, else the engine in this process on
 * the embedded store. The local side loads the SQLite driver, so a remote server never does.
 * @example
 * const api = await openSvcApi(process.env);
 * await buildServer(api).connect(new StdioServerTransport());
 */
export async function openSvcApi(env: NodeJS.ProcessEnv = process.env): Promise<SvcApi> {
  const baseUrl = env.SVC_API_URL?.trim();
  if (baseUrl) return createRemoteApi({ baseUrl, apiKey: env.SVC_API_KEY?.trim() || undefined });
  const { openLocalApi } = await import('./local-api.js');
  return openLocalApi(env);
}
