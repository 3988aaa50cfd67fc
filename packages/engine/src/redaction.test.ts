import { describe, expect, it } from 'vitest';
import { maskSecrets, secretKeysOf } from './redaction.js';

describe('maskSecrets', () => {
  it('keeps every key and replaces the value of each secret key, however short', () => {
    const env = { baseUrl: 'http://api', apiToken: 'tok-123456', pin: '42', nested: { password: 'x' } };
    expect(maskSecrets(env, ['apiToken', 'pin'])).toEqual({
      baseUrl: 'http://api',
      apiToken: '***',
      pin: '***',
      nested: { password: 'x' },
    });
    expect(env.apiToken).toBe('tok-123456');
  });

  it('masks whole values that are not strings', () => {
    expect(maskSecrets({ credentials: { user: 'u', password: 'p' } }, secretKeysOf({ credentials: {} }))).toEqual({
      credentials: '***',
    });
  });

  it('answers the environment itself when it holds no secret key', () => {
    const env = { baseUrl: 'http://api' };
    expect(maskSecrets(env, ['apiToken'])).toBe(env);
  });
});
