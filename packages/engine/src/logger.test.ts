import { describe, expect, it } from 'vitest';
import { SvcError } from './errors.js';
import { createLogger, type LoggerOptions } from './logger.js';

function capture(options: Omit<LoggerOptions, 'write' | 'now'>) {
  const lines: string[] = [];
  const logger = createLogger({
    ...options,
    write: (line) => lines.push(line),
    now: () => new Date('2026-05-01T12:00:00.000Z'),
  });
  return { logger, lines };
}

describe('createLogger', () => {
  it('writes the lines at and above its level only', () => {
    const { logger, lines } = capture({ level: 'warn' });
    logger.debug('d');
    logger.info('i');
    logger.warn('w');
    logger.error('e');
    expect(lines.map((line) => line.split(' ')[1])).toEqual(['WARN', 'ERROR']);
    const all = capture({ level: 'debug' });
    for (const level of ['debug', 'info', 'warn', 'error'] as const) all.logger[level](level);
    expect(all.lines).toHaveLength(4);
    const quiet = capture({ level: 'error' });
    quiet.logger.warn('w');
    expect(quiet.lines).toEqual([]);
  });

  it('writes one JSON object per line in json format: time, level, msg and the fields', () => {
    const { logger, lines } = capture({ level: 'info', format: 'json' });
    logger.info('lease lost', { executionId: 'e1', attempt: 2 });
    logger.error('job failed', { error: new SvcError('TIMEOUT', 'too slow'), level: 'ignored' });
    expect(lines.every((line) => line.endsWith('\n') && !line.slice(0, -1).includes('\n'))).toBe(true);
    expect(JSON.parse(lines[0]!)).toEqual({
      time: '2026-05-01T12:00:00.000Z',
      level: 'info',
      msg: 'lease lost',
      executionId: 'e1',
      attempt: 2,
    });
    // A field never replaces the line's own level; an Error keeps its message and code.
    expect(JSON.parse(lines[1]!)).toMatchObject({
      level: 'error',
      msg: 'job failed',
      error: { message: 'too slow', code: 'TIMEOUT' },
    });
  });

  it('writes readable text by default, quoting values with spaces', () => {
    const { logger, lines } = capture({});
    logger.info('request failed', { code: 'INTERNAL_ERROR', path: '/api/gateway/flows', error: 'disk full now' });
    expect(lines).toEqual([
      '2026-05-01T12:00:00.000Z INFO  request failed code=INTERNAL_ERROR path=/api/gateway/flows error="disk full now"\n',
    ]);
  });
});
