#!/usr/bin/env node
import { readFileSync } from 'node:fs';
import type { SvcApi } from './api/svc-api.js';

const USAGE =
  'usage: svc-mcp [--transport stdio] [--version] [--help]\n  env: SVC_API_URL + SVC_API_KEY (remote), else SVC_DB (local store, default ./.svc/svc.db); all SVC_* variables: docs/configuration.md';
/** The largest JSON-RPC message read from stdin (16 MiB); a larger one is answered with an error and dropped. */
const MAX_MESSAGE_BYTES = 16 * 1024 * 1024;
const TRANSPORTS = ['stdio'] as const;

type Args = { transport: (typeof TRANSPORTS)[number] } | { help: true } | { version: true } | { error: string };

function parseArgs(argv: string[]): Args {
  let transport = 'stdio';
  for (let index = 0; index < argv.length; index += 1) {
    const arg = argv[index]!;
    if (arg === '--help' || arg === '-h') return { help: true };
    if (arg === '--version' || arg === '-V') return { version: true };
    if (arg === '--transport' || arg.startsWith('--transport=')) {
      const value = arg === '--transport' ? argv[++index] : arg.slice('--transport='.length);
      if (value === undefined || value === '') return { error: '--transport needs a value: stdio' };
      transport = value;
    } else {
      return { error: `unknown argument "${arg}"` };
    }
  }
  if (!(TRANSPORTS as readonly string[]).includes(transport)) {
    return { error: `unsupported transport "${transport}"; the only transport is "stdio" (svc-mcp --transport stdio)` };
  }
  return { transport: transport as 'stdio' };
}

const args = parseArgs(process.argv.slice(2));
if ('help' in args) {
  process.stderr.write(`${USAGE}\n`);
  process.exit(0);
}
if ('version' in args) {
  const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
    version: string;
  };
  process.stdout.write(`${version}\n`);
  process.exit(0);
}
if ('error' in args) {
  process.stderr.write(`svc-mcp: ${args.error}\n${USAGE}\n`);
  process.exit(2);
}

// Loaded once the arguments are read: `--help` and `--version` answer without the MCP SDK or the engine.
const [
  { StdioServerTransport },
  { createStderrLogger, isSvcError, loadConfig },
  { openSvcApi },
  { buildServer },
  { LineGuard },
] = await Promise.all([
  import('@modelcontextprotocol/sdk/server/stdio.js'),
  import('@svc/engine'),
  import('./api/open-api.js'),
  import('./build-server.js'),
  import('./stdio/line-guard.js'),
]);

function cannotStart(error: unknown): never {
  process.stderr.write(`svc-mcp: cannot start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(isSvcError(error) && error.code === 'CONFIG_ERROR' ? 2 : 1);
}

let config: ReturnType<typeof loadConfig>;
try {
  config = loadConfig(process.env);
} catch (error) {
  cannotStart(error);
}
const logger = createStderrLogger({ level: config.logLevel, format: config.logFormat });
// stdout carries the protocol and nothing else: a stray console.log from any library would corrupt it.
console.log = console.info = console.debug = console.error;
// One bad request must not end the session the assistant holds open; the failure is logged instead.
process.on('uncaughtException', (error) => logger.error('uncaught exception', { error: error.stack ?? error.message }));
process.on('unhandledRejection', (reason) =>
  logger.error('unhandled rejection', {
    error: reason instanceof Error ? (reason.stack ?? reason.message) : String(reason),
  }),
);

let api: SvcApi;
try {
  api = await openSvcApi(config, { logger });
} catch (error) {
  cannotStart(error);
}

const inFlight = new Set<Promise<unknown>>();
const server = buildServer(api, { logger, inFlight });
const input = new LineGuard({
  maxBytes: MAX_MESSAGE_BYTES,
  onOversized({ bytes, id }) {
    logger.warn('dropped an oversized message', { bytes, id });
    if (id === undefined) return;
    const message = `the request is ${bytes} bytes; svc-mcp reads messages of at most ${MAX_MESSAGE_BYTES} bytes`;
    void transport.send({ jsonrpc: '2.0', id, error: { code: -32600, message } }).catch(() => {});
  },
});
const transport = new StdioServerTransport(input, process.stdout, { maxBufferSize: 2 * MAX_MESSAGE_BYTES });

/** How long a shutdown waits for tool calls in flight (a run waits up to 30 s for its end). */
const SHUTDOWN_GRACE_MS = 45_000;

let closing = false;
async function shutdown(): Promise<void> {
  if (closing) return;
  closing = true;
  // A client that sends its last request and closes stdin still gets the answer.
  const grace = new Promise((resolve) => setTimeout(resolve, SHUTDOWN_GRACE_MS).unref());
  await Promise.race([Promise.allSettled([...inFlight]), grace]);
  // The SDK writes an answer once its handler settles: give it that turn.
  await new Promise((resolve) => setImmediate(resolve));
  try {
    await server.close();
    await api.close();
  } catch (error) {
    logger.error('shutdown failed', { error: String(error) });
  }
  process.exit(0);
}

process.stdin.on('end', () => void shutdown());
process.stdin.on('error', () => void shutdown());
process.on('SIGINT', () => void shutdown());
process.on('SIGTERM', () => void shutdown());
server.server.onclose = () => void shutdown();
process.stdin.pipe(input);
await server.connect(transport);
logger.debug('svc-mcp serving on stdio', { mode: api.mode });
