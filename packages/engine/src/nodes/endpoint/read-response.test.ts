import { describe, expect, it } from 'vitest';
import { decodeBody } from './read-response.js';
import { traceResponseBody } from './trace-body.js';

const bytes = (text: string) => new TextEncoder().encode(text);

describe('decodeBody', () => {
  it('decodes by content type', () => {
    expect(decodeBody(bytes('{"a":1}'), 'application/json; charset=utf-8')).toEqual({ a: 1 });
    expect(decodeBody(bytes('{"a":1}'), 'application/hal+json')).toEqual({ a: 1 });
    expect(decodeBody(bytes('a=1&b=2'), 'application/x-www-form-urlencoded')).toBe('a=1&b=2');
    expect(decodeBody(bytes('let x;'), 'application/javascript')).toBe('let x;');
    expect(decodeBody(bytes('<a/>'), 'image/svg+xml')).toBe('<a/>');
    expect(decodeBody(new Uint8Array(0), 'application/json')).toBeNull();
  });

  it('honours a charset other than UTF-8', () => {
    expect(decodeBody(new Uint8Array([0x63, 0x61, 0x66, 0xe9]), 'text/plain; charset=iso-8859-1')).toBe('café');
  });

  it('takes valid UTF-8 without a content type as text, and anything else as base64', () => {
    expect(decodeBody(bytes('héllo'), undefined)).toBe('héllo');
    expect(decodeBody(new Uint8Array([0xff, 0x00]), undefined)).toEqual({
      base64: '/wA=',
      contentType: 'application/octet-stream',
    });
    expect(decodeBody(new Uint8Array([1, 2]), 'application/pdf')).toEqual({
      base64: 'AQI=',
      contentType: 'application/pdf',
    });
  });
});

describe('decodeBody on deep JSON', () => {
  it('keeps JSON nested past 512 levels as text, and parses it up to there', () => {
    const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    expect(decodeBody(bytes(deep), 'application/json')).toBe(deep);
    const within = `${'{"a":'.repeat(512)}"[{[{"${'}'.repeat(512)}`;
    expect(typeof decodeBody(bytes(within), 'application/json')).toBe('object');
  });
});

describe('traceResponseBody', () => {
  it('never cuts through the middle of a multi-byte character', () => {
    const body = bytes('ééééé');
    const traced = traceResponseBody(body, 'ééééé', 'text/plain', 5);
    expect(traced.cut).toBe(true);
    expect(traced.body).toBe('éé…[truncated: first 5 of 10 bytes]');
  });
});
