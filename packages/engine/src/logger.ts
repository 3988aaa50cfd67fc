/** Structured logging passed into the engine; the default writes nothing. */
export interface Logger {
  debug(message: string, fields?: Record<string, unknown>): void;
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

export const LOG_LEVELS = ['error', 'warn', 'info', 'debug'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];
export type LogFormat = 'text' | 'json';

export interface LoggerOptions {
  /** The least severe level written; default `info`. */
  level?: LogLevel;
  /** `text` (default): one readable line. `json`: one JSON object per line for log collectors. */
  format?: LogFormat;
  /** Where a finished line goes (with its newline); default stderr, so stdout stays free for program output (CLI JSON, MCP protocol). */
  write?: (line: string) => void;
  now?: () => Date;
}

export const silentLogger: Logger = { debug() {}, info() {}, warn() {}, error() {} };

const SEVERITY: Record<LogLevel, number> = { error: 0, warn: 1, info: 2, debug: 3 };

/** Errors keep their message (and code) in a log line; `JSON.stringify` alone would write `{}`. */
function plain(_key: string, value: unknown): unknown {
  if (value instanceof Error) {
    const code = (value as { code?: unknown }).code;
    return {
      name: value.name,
      message: value.message,
      ...(code === undefined ? {} : { code }),
      ...(value.stack ? { stack: value.stack } : {}),
    };
  }
  if (typeof value === 'bigint') return value.toString();
  return value;
}

function textValue(value: unknown): string {
  if (typeof value === 'string') return /^[^\s"=]+$/.test(value) ? value : JSON.stringify(value);
  return JSON.stringify(value, plain) ?? String(value);
}

/**
 * A logger that writes each line at or above `level`, as text or as JSON.
 * @example
 * const logger = createLogger({ level: 'info', format: 'json' });
 * logger.warn('lease lost', { executionId: 'e1' });
 * // {"time":"2026-05-01T12:00:00.000Z","level":"warn","msg":"lease lost","executionId":"e1"}
 */
export function createLogger(options: LoggerOptions = {}): Logger {
  const threshold = SEVERITY[options.level ?? 'info'];
  const format = options.format ?? 'text';
  const write = options.write ?? ((line: string) => void process.stderr.write(line));
  const now = options.now ?? (() => new Date());
  const line = (level: LogLevel) => (message: string, fields?: Record<string, unknown>) => {
    if (SEVERITY[level] > threshold) return;
    const time = now().toISOString();
    if (format === 'json') {
      // The fields come after, and never replace, the line's own time, level and message.
      const { time: _time, level: _level, msg: _msg, ...rest } = fields ?? {};
      write(`${JSON.stringify({ time, level, msg: message, ...rest }, plain)}\n`);
      return;
    }
    const shown = Object.entries(fields ?? {})
      .filter(([, value]) => value !== undefined)
      .map(([key, value]) => ` ${key}=${textValue(value)}`)
      .join('');
    write(`${time} ${level.toUpperCase().padEnd(5)} ${message}${shown}\n`);
  };
  return { error: line('error'), warn: line('warn'), info: line('info'), debug: line('debug') };
}

/**
 * Lines on stderr from `level` up (default `info`), as text or JSON.
 * @example
 * const logger = createStderrLogger({ level: config.logLevel, format: config.logFormat });
 */
export function createStderrLogger(options: LogLevel | Omit<LoggerOptions, 'write'> = {}): Logger {
  return createLogger(typeof options === 'string' ? { level: options } : options);
}
