import { InvalidArgumentError, type Command } from 'commander';

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
 * a secret on the command line would be in the shell's history and the process list. Kept apart
 * from `resolveApiTarget`, which reads the configuration: registering a command loads no engine.
 */
export function addApiUrlOption(command: Command): Command {
  return command.option(
    '--api-url <url>',
    'work against the svc service at this address (default SVC_API_URL) instead of the embedded store; its API key is read from SVC_API_KEY',
    apiUrl,
  );
}
