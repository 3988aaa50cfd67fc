import { describe, expect, it } from 'vitest';
import { splitHttpUrl } from './parse-http-url.js';

describe('splitHttpUrl', () => {
  it('answers the normalised URL, its origin and the path with the query, without the fragment', () => {
    expect(splitHttpUrl('HTTP://Example.COM:80/a b/c?x=1&y=%20#top', 'GET')).toEqual({
      href: 'http://example.com/a%20b/c?x=1&y=%20',
      origin: 'http://example.com',
      path: '/a%20b/c?x=1&y=%20',
    });
    expect(splitHttpUrl('https://127.0.0.1:4010', 'GET')).toEqual({
      href: 'https://127.0.0.1:4010/',
      origin: 'https://127.0.0.1:4010',
      path: '/',
    });
  });

  it('splits the same text once, and a different text again', () => {
    const first = splitHttpUrl('http://127.0.0.1:4010/orders/1', 'GET');
    expect(splitHttpUrl('http://127.0.0.1:4010/orders/1', 'POST')).toBe(first);
    expect(splitHttpUrl('http://127.0.0.1:4010/orders/2', 'GET').path).toBe('/orders/2');
    expect(splitHttpUrl('http://127.0.0.1:4010/orders/1', 'GET')).toEqual(first);
  });

  it('refuses what cannot be requested with INVALID_URL, naming the method and the URL', () => {
    expect(() => splitHttpUrl('/orders', 'GET')).toThrow(
      expect.objectContaining({ code: 'INVALID_URL', message: 'GET /orders: not a valid URL' }),
    );
    expect(() => splitHttpUrl('ftp://example.com/x', 'PUT')).toThrow(
      expect.objectContaining({
        code: 'INVALID_URL',
        message: 'PUT ftp://example.com/x: only http and https URLs can be requested',
      }),
    );
    // A refusal is not remembered: the next valid text splits.
    expect(splitHttpUrl('http://example.com/x', 'GET').path).toBe('/x');
  });
});
