import { describe, expect, it } from 'vitest';
import { createRedactor, maskSecrets, secretKeysOf } from './redaction.js';

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

describe('createRedactor', () => {
  const redact = createRedactor({ password: 'a b&c=d/ä"é', pin: '12', city: 'Paris' }, ['password', 'pin']);

  it('replaces a secret as it is and in each encoded form it takes', () => {
    const secret = 'a b&c=d/ä"é';
    for (const form of [
      secret,
      encodeURIComponent(secret),
      encodeURIComponent(secret).toLowerCase(),
      new URLSearchParams({ s: secret }).toString().slice(2),
      new URL(`http://h/?${secret}`).search.slice(1),
      new URL(`http://h/${secret}`).pathname.slice(1),
      JSON.stringify(secret).slice(1, -1),
    ])
      expect(redact(`before ${form} after`)).toBe('before *** after');
  });

  it('takes a secret with a lone surrogate, which has no percent-encoded form', () => {
    expect(createRedactor({ token: 'ab\uD800cd' }, ['token'])('x ab\uD800cd y')).toBe('x *** y');
  });

  it('leaves values that are not secret, and secrets under 4 characters, alone', () => {
    expect(redact('Paris 12')).toBe('Paris 12');
  });

  it('replaces what is left of a secret cut short before a `…`, in any of its forms', () => {
    const token = 'tok_ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
    const cut = createRedactor({ token, city: 'Paris' }, ['token']);
    expect(cut(`got "${token.slice(0, 30)}…"`)).toBe('got "***…"');
    expect(cut(`url?t=${token.slice(0, 5)}…[truncated: first 64 of 900 bytes]`)).toBe(
      'url?t=***…[truncated: first 64 of 900 bytes]',
    );
    expect(cut(`a ${token.slice(0, 12)}… and again ${token}, ${token.slice(0, 9)}…`)).toBe(
      'a ***… and again ***, ***…',
    );
    expect(redact(`${encodeURIComponent('a b&c=d/ä"é').slice(0, 9)}…`)).toBe('***…');
    // Under 4 characters, or not the secret's beginning: left as it is.
    expect(cut(`${token.slice(0, 3)}… Paris… ${token.slice(4, 20)}…`)).toBe(
      `${token.slice(0, 3)}… Paris… ${token.slice(4, 20)}…`,
    );
  });
});
