import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { MAX_FORMAT_INPUT_LENGTH, payloadFormats } from './payload-formats.js';

const ajv = new Ajv({ formats: { ...payloadFormats() } });
const matches = (format: string, text: string) => ajv.validate({ type: 'string', format }, text);

describe('payloadFormats', () => {
  it.each([
    ['date-time', '2026-03-01T08:30:00Z', '2026-13-01T08:30:00Z'],
    ['date', '2026-02-28', '2026-02-30'],
    ['email', 'ops+alerts@example.com', 'ops@'],
    ['uri', 'https://example.com/a?b=1', 'not a uri'],
    ['uuid', '4f1c2b1e-8a3d-4c9e-9f00-1b2c3d4e5f60', '4f1c2b1e-8a3d'],
    ['ipv4', '192.0.2.1', '192.0.2.256'],
    ['ipv6', '2001:db8::1', '2001:db8:::1'],
    ['hostname', 'api.example.com', '-bad-.example'],
  ])('keeps the meaning of %s (case-insensitive where ajv-formats is)', (format, valid, invalid) => {
    expect(matches(format, valid)).toBe(true);
    expect(matches(format, invalid)).toBe(false);
  });

  it('matches uuids and e-mail addresses in either case, as ajv-formats does', () => {
    expect(matches('uuid', '4F1C2B1E-8A3D-4C9E-9F00-1B2C3D4E5F60')).toBe(true);
    expect(matches('email', 'OPS@EXAMPLE.COM')).toBe(true);
  });

  it('answers every format quickly on adversarial text at and past the length bound', () => {
    const inputs = ['a', '1', '-', '.', ':', '@', '%', '/'].flatMap((char) => [
      char.repeat(MAX_FORMAT_INPUT_LENGTH - 1) + '!',
      char.repeat(MAX_FORMAT_INPUT_LENGTH * 50),
    ]);
    for (const format of Object.keys(payloadFormats())) {
      const started = performance.now();
      for (const text of inputs) ajv.validate({ type: 'string', format }, text);
      expect(performance.now() - started, format).toBeLessThan(500);
    }
  });
});
