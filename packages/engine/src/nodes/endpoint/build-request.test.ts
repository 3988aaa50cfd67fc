import { describe, expect, it } from 'vitest';
import { buildUrl } from './build-request.js';

describe('buildUrl', () => {
  it('sends the URL normalised and without its fragment', () => {
    expect(buildUrl('http://Example.com/a b#section', {}, 'GET')).toBe('http://example.com/a%20b');
  });

  it('adds the query after the one the URL has, which it keeps byte for byte', () => {
    expect(buildUrl('http://example.com/search?q=a+b&x=%20#f', { page: 2, tag: ['x', 'y'], none: null }, 'GET')).toBe(
      'http://example.com/search?q=a+b&x=%20&page=2&tag=x&tag=y',
    );
    expect(buildUrl('http://example.com/search', { q: 'a b' }, 'GET')).toBe('http://example.com/search?q=a+b');
  });

  it('refuses a path with a "." or ".." segment, however it is written, and lets dots inside segments through', () => {
    for (const url of [
      'http://api.test/orders/../../admin/users/42/delete?/seen',
      'http://api.test/orders/./42',
      'http://api.test/orders/%2E%2e/admin',
      'http://api.test/orders\\..\\admin',
      'http://api.test/orders/..',
    ]) {
      expect(() => buildUrl(url, {}, 'POST'), url).toThrow(expect.objectContaining({ code: 'INVALID_URL' }));
    }
    expect(buildUrl('http://api.test/files/v1.2/a..b/.well-known?next=../x', {}, 'GET')).toBe(
      'http://api.test/files/v1.2/a..b/.well-known?next=../x',
    );
  });

  it('refuses a URL that cannot be requested', () => {
    expect(() => buildUrl('mailto:someone@example.com', {}, 'POST')).toThrow(
      expect.objectContaining({ code: 'INVALID_URL' }),
    );
    expect(() => buildUrl('not a url', { q: 1 }, 'GET')).toThrow(expect.objectContaining({ code: 'INVALID_URL' }));
  });
});
