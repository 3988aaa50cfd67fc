import { loadConfig } from '@svc/engine';
import { InvalidArgumentError, type Command } from 'commander';

/** A running `svc serve` that a command reads from or runs on instead of the embedded store. */
export interface ApiTarget {
  url: string;
  apiKey?: string;
}

function apiUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new InvalidArgumentError('expected the address of a svc service, e.g. https://svc.example.com');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new InvalidArgumentError('expected an http or https address');
  return value;
}

/**
 * `--api-url <url>` on a command that reads or runs. The key is read from `SVC_API_KEY` only:
 * a secret on the command line would be in the shell's history and the process list.
 */
export function addApiUrlOption(command: Command): Command {
  return command.option(
    '--api-url <url>',
    'work against the svc service at this address (default SVC_API_URL) instead of the embedded store; its API key is read from SVC_API_KEY',
    apiUrl,
  );
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
