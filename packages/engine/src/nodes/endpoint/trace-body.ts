import { type BinaryBody, bodyKind, mediaType, toBase64 } from './read-response.js';

const encoder = new TextEncoder();

function marker(shown: number, total: number): string {
  return `…[truncated: first ${shown} of ${total} bytes]`;
}

/** Cuts the UTF-8 bytes down to `maxBytes`, never through the middle of a character. */
function decodePrefix(bytes: Uint8Array, maxBytes: number): string {
  // Stream mode holds back a trailing incomplete sequence instead of emitting U+FFFD.
  return new TextDecoder().decode(bytes.subarray(0, maxBytes), { stream: true });
}

export interface TracedBody {
  body: unknown;
  /** True when the trace shows less than the whole body. */
  cut: boolean;
}

/**
 * The request body as the trace shows it: the JSON value itself when it is small enough, else
 * the text that was sent, cut to `maxBytes` with a marker saying how much was left out.
 */
export function traceRequestBody(value: unknown, sent: string | undefined, maxBytes: number): TracedBody {
  if (sent === undefined) return { body: undefined, cut: false };
  // A UTF-16 unit is at most three bytes of UTF-8: a short body fits without counting.
  if (sent.length * 3 <= maxBytes || Buffer.byteLength(sent) <= maxBytes)
    return { body: typeof value === 'object' && value !== null ? value : sent, cut: false };
  const bytes = encoder.encode(sent);
  return { body: decodePrefix(bytes, maxBytes) + marker(maxBytes, bytes.byteLength), cut: true };
}

/**
 * The response body as the trace shows it: the decoded body when it fits in `maxBytes`, else a
 * cut text with a marker, or for binary bodies the base64 of a prefix, so that a trace never
 * holds more than about `maxBytes` of body.
 */
export function traceResponseBody(
  bytes: Uint8Array,
  decoded: unknown,
  contentType: string | undefined,
  maxBytes: number,
): TracedBody {
  if (bytes.byteLength <= maxBytes) return { body: decoded, cut: false };
  if (typeof decoded === 'object' && decoded !== null && bodyKind(contentType) !== 'json' && 'base64' in decoded) {
    // Base64 grows by 4/3: keep the traced text within the limit.
    const shown = Math.floor((maxBytes * 3) / 4);
    const body: BinaryBody & { truncated: string } = {
      base64: toBase64(bytes.subarray(0, shown)),
      contentType: mediaType(contentType) ?? 'application/octet-stream',
      truncated: marker(shown, bytes.byteLength),
    };
    return { body, cut: true };
  }
  return { body: decodePrefix(bytes, maxBytes) + marker(maxBytes, bytes.byteLength), cut: true };
}
