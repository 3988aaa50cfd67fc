/**
 * What an HTTP field value may hold, as the HTTP client (undici) checks it before sending: tab,
 * space and visible ASCII, and obs-text (0x80-0xFF, sent as one byte each; RFC 9110 §5.5). A
 * control character or a character past U+00FF fails every request that carries the value.
 */
const FIELD_VALUE = /^[\t\x20-\x7E\x80-\xFF]*$/;

export const HEADER_VALUE_MESSAGE =
  'must hold only tab, space, visible ASCII and Latin-1 characters (no control characters, nothing past U+00FF)';

/**
 * Whether an HTTP client can send `value` as a header value.
 * @example isSendableHeaderValue('café'); // true
 * @example isSendableHeaderValue('☃'); // false
 */
export function isSendableHeaderValue(value: string): boolean {
  return FIELD_VALUE.test(value);
}
