import { loadConfig } from '@svc/engine';

/** A running `svc serve` that a command reads from or runs on instead of the embedded store. */
export interface ApiTarget {
  url: string;
  apiKey?: string;
}

const isLoopback = (hostname: string) => hostname === 'localhost' || hostname === '[::1]' || /^127\./.test(hostname);

/**
 * Where a command works: the service `--api-url` names, else `SVC_API_URL`, with `SVC_API_KEY`;
 * undefined for the embedded store. Both variables are read through the one configuration schema,
 * so a malformed `SVC_API_URL` stops the command naming it.
 */
export function resolveApiTarget(
  flag: string | undefined,
  warn: (line: string) => void,
  env: Record<string, string | undefined> = process.env,
): ApiTarget | undefined {
  const config = loadConfig(env);
  const url = flag ?? config.apiUrl;
  if (url === undefined) return undefined;
  const { protocol, hostname } = new URL(url);
  // A key sent in clear text over a network can be read on the way; on loopback it stays on the machine.
  if (config.apiKey !== undefined && protocol === 'http:' && !isLoopback(hostname))
    warn(`svc: warning: SVC_API_KEY is sent to ${hostname} over plain http; use https beyond this machine\n`);
  return { url, ...(config.apiKey === undefined ? {} : { apiKey: config.apiKey }) };
}
