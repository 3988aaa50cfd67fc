import { resolve } from 'node:path';
import { z } from 'zod';
import { isSvcError } from '../errors.js';
import { parseEgressRules, type EgressRule } from '../http/egress-policy.js';
import { parseSecretKey } from '../environments/secret-cipher.js';
import { isPostgresUrl } from '../store/postgres-url.js';

/** The programs that read a variable, as the configuration page lists them. */
export type ConfigReader = 'svc' | 'svc serve' | 'svc-mcp';

/**
 * One environment variable: the field of the loaded configuration it fills, how its text is
 * read (blank counts as unset), and what the configuration page says about it.
 */
export interface ConfigVariable<Schema extends z.ZodType = z.ZodType> {
  name: `SVC_${string}`;
  /** Reads the trimmed text (`undefined` when unset or blank) into the value, default included. */
  schema: Schema;
  /** The default as the page shows it; omitted when unset means off or absent. */
  default?: string;
  description: string;
  readBy: readonly ConfigReader[];
  /** Never echoed back in an error message. */
  secret?: boolean;
}

const variable = <Schema extends z.ZodType>(definition: ConfigVariable<Schema>): ConfigVariable<Schema> => definition;

/** Text as given; `undefined` when unset. */
const text = () => z.string().optional();

const choice = <const Values extends readonly [string, ...string[]]>(values: Values, fallback: Values[number]) =>
  z
    .string()
    .optional()
    .transform((value, context): Values[number] => {
      if (value === undefined) return fallback;
      const lower = value.toLowerCase();
      if ((values as readonly string[]).includes(lower)) return lower as Values[number];
      const quoted = values.map((one) => `"${one}"`);
      const expected =
        quoted.length === 2 ? quoted.join(' or ') : `one of ${quoted.slice(0, -1).join(', ')} or ${quoted.at(-1)}`;
      context.addIssue({ code: 'custom', message: `must be ${expected}` });
      return z.NEVER;
    });

const wholeNumber = (options: { min: number; what: string }) =>
  z
    .string()
    .optional()
    .transform((value, context): number | undefined => {
      if (value === undefined) return undefined;
      const number = Number(value);
      if (/^\d+$/.test(value) && Number.isSafeInteger(number) && number >= options.min) return number;
      context.addIssue({
        code: 'custom',
        message: `must be a whole number of ${options.what}${options.min > 0 ? ` (${options.min} or more)` : ''}`,
      });
      return z.NEVER;
    });

const httpUrl = () =>
  z
    .string()
    .optional()
    .transform((value, context): string | undefined => {
      if (value === undefined) return undefined;
      let parsed: URL;
      try {
        parsed = new URL(value);
      } catch {
        context.addIssue({ code: 'custom', message: 'must be an http or https address, e.g. https://svc.example.com' });
        return z.NEVER;
      }
      if (parsed.protocol === 'http:' || parsed.protocol === 'https:') return value;
      context.addIssue({ code: 'custom', message: 'must be an http or https address, e.g. https://svc.example.com' });
      return z.NEVER;
    });

const egressRules = (name: string) =>
  z
    .string()
    .optional()
    .transform((value, context): EgressRule[] => {
      try {
        return parseEgressRules(value, name);
      } catch (error) {
        context.addIssue({
          code: 'custom',
          // loadConfig names the variable itself.
          message: isSvcError(error) ? (error.details as { problem: string }).problem : String(error),
        });
        return z.NEVER;
      }
    });

/**
 * Every `SVC_*` variable svc reads, in the order the configuration page lists them. Adding a
 * variable is one entry here: `loadConfig` reads it and `docs/configuration.md` is generated from it.
 */
export const CONFIG_VARIABLES = {
  db: variable({
    name: 'SVC_DB',
    schema: z
      .string()
      .optional()
      .transform((path = '.svc/svc.db') => (path === ':memory:' || isPostgresUrl(path) ? path : resolve(path))),
    default: '.svc/svc.db',
    description:
      'The store. The embedded SQLite store: a file path (relative to the working directory), or `:memory:`. Or a PostgreSQL database, `postgres://user:password@host:5432/database`, which several `svc serve` processes share (set the same `SVC_SECRET_KEY` in each); see the scale-out section of the README.',
    readBy: ['svc', 'svc serve', 'svc-mcp'],
  }),
  dbPoolSize: variable({
    name: 'SVC_DB_POOL_SIZE',
    schema: wholeNumber({ min: 1, what: 'connections' }),
    default: '10',
    description: 'With a PostgreSQL store: the connections each process keeps open to the database.',
    readBy: ['svc', 'svc serve', 'svc-mcp'],
  }),
  dbSync: variable({
    name: 'SVC_DB_SYNC',
    schema: choice(['normal', 'full'], 'normal'),
    default: 'normal',
    description:
      "`normal`: every commit survives a process crash, the last ones may be lost on power loss. `full`: every commit survives power loss too, at the cost of an fsync per commit. On PostgreSQL, `normal` acknowledges a commit once the database server holds it (`synchronous_commit=off`: it survives the crash of any svc process; the last commits may be lost if the database server crashes), `full` once it is on the server's disk (`synchronous_commit=on`).",
    readBy: ['svc', 'svc serve', 'svc-mcp'],
  }),
  leaseMs: variable({
    name: 'SVC_LEASE_MS',
    schema: wholeNumber({ min: 1, what: 'milliseconds' }).transform((value) => value ?? 30_000),
    default: '30000',
    description:
      'How long a worker holds a running execution without renewing; after it, another process takes over a crashed one.',
    readBy: ['svc', 'svc serve', 'svc-mcp'],
  }),
  logLevel: variable({
    name: 'SVC_LOG_LEVEL',
    schema: choice(['error', 'warn', 'info', 'debug'], 'warn'),
    default: 'warn',
    description: 'The least severe log line written to stderr: `error`, `warn`, `info` or `debug`.',
    readBy: ['svc', 'svc serve', 'svc-mcp'],
  }),
  logFormat: variable({
    name: 'SVC_LOG_FORMAT',
    schema: choice(['text', 'json'], 'text'),
    default: 'text',
    description:
      '`text`: one readable line per entry. `json`: one JSON object per line (`time`, `level`, `msg` and the fields), for log collectors.',
    readBy: ['svc', 'svc serve', 'svc-mcp'],
  }),
  rateLimitPerMinute: variable({
    name: 'SVC_RATE_LIMIT_PER_MINUTE',
    schema: wholeNumber({ min: 0, what: 'requests' }).transform((value) =>
      value === undefined || value === 0 ? undefined : value,
    ),
    description: 'Requests per minute per API client (429 `RATE_LIMITED` past it); unset or `0` for no limit.',
    readBy: ['svc serve'],
  }),
  egressAllow: variable({
    name: 'SVC_EGRESS_ALLOW',
    schema: egressRules('SVC_EGRESS_ALLOW'),
    description:
      'Where flows may send requests beyond the default: comma-separated hosts, `host:port`, IP addresses, `IP:port` or CIDR ranges (e.g. `127.0.0.1:4010,10.0.0.0/8,api.internal`). `svc serve` refuses loopback, private and unspecified addresses unless allowed here; link-local and cloud metadata addresses are refused whatever this says.',
    readBy: ['svc', 'svc serve', 'svc-mcp'],
  }),
  egressDeny: variable({
    name: 'SVC_EGRESS_DENY',
    schema: egressRules('SVC_EGRESS_DENY'),
    description:
      'Where flows may never send requests, in the same form as `SVC_EGRESS_ALLOW`; a deny entry wins over an allow entry.',
    readBy: ['svc', 'svc serve', 'svc-mcp'],
  }),
  secretKey: variable({
    name: 'SVC_SECRET_KEY',
    schema: z
      .string()
      .optional()
      .transform((value, context): Buffer | undefined => {
        if (value === undefined) return undefined;
        const key = parseSecretKey(value);
        if (key !== undefined) return key;
        context.addIssue({
          code: 'custom',
          message: 'must be a 32-byte key as base64 or 64 hex digits, e.g. the output of `openssl rand -base64 32`',
        });
        return z.NEVER;
      }),
    description:
      'The key (32 bytes, base64 or hex) that encrypts the secret values of stored environments (AES-256-GCM). Unset: a key is made on first start and kept beside the store as `<SVC_DB>.key` (mode 0600); back it up with the database. Required with a PostgreSQL store, the same in every process.',
    readBy: ['svc', 'svc serve', 'svc-mcp'],
    secret: true,
  }),
  bootstrapClientId: variable({
    name: 'SVC_BOOTSTRAP_CLIENT_ID',
    schema: text(),
    description:
      'With `SVC_BOOTSTRAP_CLIENT_SECRET`: the admin client a first start creates, for unattended starts (CI). Unset: a first start makes one up and prints its secret once.',
    readBy: ['svc serve'],
  }),
  bootstrapClientSecret: variable({
    name: 'SVC_BOOTSTRAP_CLIENT_SECRET',
    schema: text(),
    description: 'The secret of `SVC_BOOTSTRAP_CLIENT_ID`; set both or neither.',
    readBy: ['svc serve'],
    secret: true,
  }),
  publicUrl: variable({
    name: 'SVC_PUBLIC_URL',
    schema: httpUrl(),
    default: 'the address svc serve listens on',
    description:
      'The base address senders reach this service at (e.g. `https://svc.example.com`): webhook trigger URLs and the callback URLs of webhook waits (`{{<Node>.callbackUrl}}`) start with it. Set it when svc runs behind a proxy or a load balancer.',
    readBy: ['svc', 'svc serve', 'svc-mcp'],
  }),
  apiUrl: variable({
    name: 'SVC_API_URL',
    schema: httpUrl(),
    description:
      'Makes `svc-mcp`, and the `svc` commands that read or run (`svc run flow|suite`, `svc flows list|get`, `svc executions list|get`, `svc env list`), call a running svc service at this base address instead of the embedded store. `--api-url` overrides it for one command.',
    readBy: ['svc', 'svc-mcp'],
  }),
  apiKey: variable({
    name: 'SVC_API_KEY',
    schema: text(),
    description:
      'The API key `svc-mcp` and `svc` send (`X-API-Key`) to `SVC_API_URL` or `--api-url`; `svc` takes no key on its command line, where the shell history and the process list would keep it.',
    readBy: ['svc', 'svc-mcp'],
    secret: true,
  }),
  testgenOpenAiUrl: variable({
    name: 'SVC_TESTGEN_OPENAI_URL',
    schema: httpUrl(),
    description:
      "Test generation's `openai` engine: the base URL of an OpenAI-compatible service, e.g. `https://api.openai.com/v1` (`/chat/completions` is added).",
    readBy: ['svc', 'svc serve', 'svc-mcp'],
  }),
  testgenOpenAiKey: variable({
    name: 'SVC_TESTGEN_OPENAI_KEY',
    schema: text(),
    description: 'Sent as `Authorization: Bearer …` to `SVC_TESTGEN_OPENAI_URL`; local servers often need none.',
    readBy: ['svc', 'svc serve', 'svc-mcp'],
    secret: true,
  }),
  testgenOpenAiModel: variable({
    name: 'SVC_TESTGEN_OPENAI_MODEL',
    schema: text(),
    description: 'The model the `openai` engine asks.',
    readBy: ['svc', 'svc serve', 'svc-mcp'],
  }),
  testgenOpenAiTimeoutMs: variable({
    name: 'SVC_TESTGEN_OPENAI_TIMEOUT_MS',
    schema: wholeNumber({ min: 1, what: 'milliseconds' }).transform((value) => value ?? 120_000),
    default: '120000',
    description: 'How long the `openai` engine waits for one answer of the model.',
    readBy: ['svc', 'svc serve', 'svc-mcp'],
  }),
} as const;
